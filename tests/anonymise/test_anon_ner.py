"""`--ner-model` adds to the rules through the same precision filters and never breaks the
vault (issue 28, item 5).

The model is a real spaCy pipeline saved to disk and loaded by its path, as a user's would
be: a blank English one whose entity ruler makes the mistakes a small statistical model
makes (a legal form, everyday words, a state and cities read as people, a product as an
organisation) beside the names it finds that the lists do not know.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random

import pytest

from curator.anonymise import detector_for
from curator.anonymise.finders.presidio import load_spacy
from curator.errors import CuratorError
from curator.ingest.api import import_sources
from curator.store import Store

# what a noisy model reads as a person that no one is
NOT_PEOPLE = ["Inc", "Inc.", "Page", "Will", "Springfield", "Los Angeles", "USA", "Road"]
NOT_PEOPLE += ["Display", "Doc", "user", "rose", "Mr."]
# people the lists do not know, or written where the rules do not look
PEOPLE = ["tenchi kouno", "Gyôry", "Satsita", "Dana Whitfield"]


def _pattern(phrase: str) -> list[dict]:
    return [{"TEXT": word} for word in phrase.split()]


@pytest.fixture(scope="module")
def noisy_model(tmp_path_factory) -> str:
    import spacy

    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("entity_ruler")
    capitalised = {"IS_TITLE": True}
    legal_form = {"LOWER": {"IN": ["inc", "inc."]}}
    ruler.add_patterns(
        [{"label": "ORG", "pattern": [capitalised, capitalised, legal_form]}]
        + [{"label": "ORG", "pattern": _pattern(w)} for w in ("Slack", "Team Rocket")]
        + [{"label": "PERSON", "pattern": _pattern(w)} for w in NOT_PEOPLE + PEOPLE]
        + [{"label": "GPE", "pattern": _pattern(w)} for w in ("Toronto", "Ohio")]
    )
    path = tmp_path_factory.mktemp("ner") / "noisy-pipeline"
    nlp.to_disk(path)
    return str(path)


def found(model: str, text: str) -> list[tuple[str, str]]:
    return [(text[h.start : h.end], h.kind) for h in detector_for(model).detect(text)]


def test_a_saved_pipeline_is_loaded_by_its_path(noisy_model, tmp_path):
    assert "entity_ruler" in load_spacy(noisy_model).pipe_names
    with pytest.raises(CuratorError, match="not installed"):
        load_spacy(str(tmp_path / "no-such-pipeline"))


@pytest.mark.parametrize(
    "text",
    [
        "Will you see Page 3 of the Doc? Display the user list.",
        "She moved from Springfield to Los Angeles, USA, last year.",
        "Our vendor is Orbit Widgets Inc. and the chat runs on Slack.",
        "Send it to 12 Elm Road. Mr. Bell says the rose bed is done.",
    ],
)
def test_what_the_model_wrongly_reads_as_people_stays(noisy_model, text):
    assert load_spacy(noisy_model)(text).ents  # the model did read something here
    hits = found(noisy_model, text)
    people = [value for value, kind in hits if kind == "person"]
    assert not [w for w in NOT_PEOPLE if any(w in p.split() for p in people)], hits
    assert not [value for value, kind in hits if kind == "address" and "Elm Road" not in value]
    assert "Slack" not in [value for value, _ in hits]  # a product of an everyday word


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("ok so tenchi kouno fixed the build on Page 2", "tenchi kouno"),
        ("I spoke with Gyôry in Springfield yesterday.", "Gyôry"),
        ("Satsita called. Will you call back?", "Satsita"),
    ],
)
def test_the_model_adds_the_names_the_rules_miss(noisy_model, text, name, monkeypatch):
    monkeypatch.delenv("CURATOR_NER_MODEL", raising=False)
    assert name not in [text[h.start : h.end] for h in detector_for().detect(text)]
    assert found(noisy_model, text) == [(name, "person")]


def test_the_model_s_company_is_an_organisation_not_a_person(noisy_model):
    text = "The lease is with Orbit Widgets Inc. in Ohio from Monday."
    assert found(noisy_model, text) == [("Orbit Widgets Inc.", "organisation")]  # Ohio stays


def test_an_import_of_many_companies_with_a_noisy_model_refuses_nothing_and_keeps_words(
    noisy_model, tmp_path, monkeypatch
):
    """The model reads "Inc", "USA" and "Road" as people: learned as name words, they barred
    every company pseudonym ending in "Inc." and every address of four parts."""
    monkeypatch.setenv("CURATOR_NER_MODEL", noisy_model)
    monkeypatch.setenv(
        "CURATOR_VAULT_KEY", base64.b64encode(hashlib.sha256(b"ner").digest()).decode()
    )
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1709251200")
    words = random.Random(28).sample(
        ["Orbit", "Harbor", "Quill", "Maple", "Cobalt", "Summit", "Willow", "Falcon", "Ember"]
        + ["Prairie", "Copper", "Lantern", "Meadow", "Granite", "Beacon", "Juniper", "Atlas"],
        17,
    )
    companies = [f"{a} {b} Inc." for a in words for b in words if a != b][:240]
    lines = []
    for number, company in enumerate(companies):
        text = (
            f"Will you file Page {number} for {company}? Dana Whitfield ships it from "
            f"Springfield to {number + 10} Elm Road, Toronto, ON M5V 2T6, Canada; the user "
            "list is on the Doc. Inc. since 2019, made in USA."
        )
        minute = number % 60
        lines.append(
            json.dumps(
                {
                    "author": "Dana Whitfield",
                    "text": text,
                    "time": f"2024-03-01T{number // 60:02d}:{minute:02d}:00Z",
                    "thread": f"t{number // 40}",
                    "id": f"m{number}",
                }
            )
        )
    log = tmp_path / "companies.jsonl"
    log.write_text("\n".join(lines) + "\n")
    store = Store.init(tmp_path / "store")
    report = import_sources(store, [log], split_threads=True)
    assert report.failed == [] and len(report.created) == 6
    messages = [
        post["message"]
        for content in sorted(store.root.glob("goldens/*/content.json"))
        for post in json.loads(content.read_text())["content"]["export"]["posts"].values()
    ]
    assert len(messages) == len(companies)
    text = "\n".join(messages)
    assert "Dana" not in text and "Whitfield" not in text
    assert not [c for c in companies if c in text]
    for message in messages:
        assert message.startswith("Will you file Page ") and " Inc.? " in message
        assert (
            " ships it from Springfield to " in message
            and "the user list is on the Doc. Inc. since 2019, made in USA." in message
        )
