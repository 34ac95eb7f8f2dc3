"""`[anonymise] generalise_places`: cities, regions and countries are kept unless the store
must generalise them (issue 28, item 4); then each is replaced by its kind, the same way in
every fixture, and the audit judges with the same rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curator.anonymise import Keep, Vault, anonymise_text
from curator.anonymise.finders.places import generalised, places_in
from curator.ingest.api import import_sources
from curator.store import Store
from tests.conftest import run_cli, secrets_left_in

PLACES = ["Los Angeles", "San Diego", "North Carolina", "Springfield", "Illinois", "France"]
MESSAGES = [
    "Counsel for Los Angeles, Cal. and San Diego, Cal. filed; the North Carolina bar agreed.",
    "Dana Whitfield flew from Springfield, Illinois to Los Angeles on Monday.",
    "The France team meets in San Diego. Reading the Mobile docs is Nice, they said.",
]


@pytest.fixture(autouse=True)
def fixed_vault_key(monkeypatch):
    monkeypatch.setenv("CURATOR_VAULT_KEY", "Z2VuZXJhbGlzZSBwbGFjZXMgdGVzdCBrZXkgMDEyMzQ=")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1709251200")


def _generalising(store: Store) -> Store:
    config = store.root / "curator.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("[anonymise]\n", "[anonymise]\ngeneralise_places = true\n"))
    return Store(store.root)


def _import(store: Store, tmp_path: Path) -> list[str]:
    """Each message its own thread: the messages of every fixture, in order."""
    lines = [
        json.dumps(
            {
                "author": "Dana Whitfield",
                "text": text,
                "time": f"2024-03-01T09:0{n}:00Z",
                "thread": f"t{n}",
                "id": f"m{n}",
            }
        )
        for n, text in enumerate(MESSAGES)
    ]
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join(lines) + "\n")
    report = import_sources(store, [log], split_threads=True)
    assert report.failed == [] and len(report.created) == len(MESSAGES)
    by_id = {}
    for created in report.created:
        [post] = store.load(created["id"]).content.export.posts.values()
        by_id[post.message] = created["id"]
    return sorted(by_id, key=lambda message: [m[-5:] for m in MESSAGES].index(message[-5:]))


def test_places_are_kept_by_default_and_the_audit_is_clean(store, tmp_path):
    messages = _import(store, tmp_path)
    assert messages[0] == MESSAGES[0]
    assert "from Springfield, Illinois to Los Angeles on Monday." in messages[1]
    assert "Dana" not in messages[1]
    assert run_cli("audit", store=store.root).exit_code == 0


def test_generalised_places_are_replaced_by_their_kind_everywhere_and_the_audit_is_clean(
    store, tmp_path
):
    store = _generalising(store)
    messages = _import(store, tmp_path)
    assert messages[0] == (
        "Counsel for [city], Cal. and [city], Cal. filed; the [region] bar agreed."
    )
    assert messages[1].endswith(" flew from [city], [region] to [city] on Monday.")
    # a team named after a country is a country's name; "Reading", "Mobile" and "Nice" are
    # words
    assert messages[2] == (
        "The [country] team meets in [city]. Reading the Mobile docs is Nice, they said."
    )
    assert secrets_left_in(store.root / "goldens", PLACES + ["Dana", "Whitfield"]) == []
    done = run_cli("audit", store=store.root)
    assert done.exit_code == 0 and "no leaks found" in done.stdout, done.stdout


def test_the_audit_finds_a_place_planted_in_a_generalising_store(store, tmp_path):
    store = _generalising(store)
    _import(store, tmp_path)
    [content] = [
        path
        for path in sorted(store.root.glob("goldens/*/content.json"))
        if "flew from" in path.read_text(encoding="utf-8")
    ]
    content.write_text(content.read_text(encoding="utf-8").replace("[region]", "Illinois"))
    done = run_cli("audit", store=store.root)
    assert done.exit_code == 1 and "'Illinois'" in done.stdout, done.stdout


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("We flew from Los Angeles to Springfield, Illinois, then TEXAS.", 4),
        ("Office in Irvine, CA 92618; Paris, France.", 3),
        ("Reading the Mobile docs is Nice. Chelsea said hi. See you in March, Will.", 0),
        ("Page 3 of the Springfield plan.", 0),  # a town's name needs a town's context
    ],
)
def test_places_in_text(text, found):
    assert len(places_in(text)) == found, [text[s:e] for s, e in places_in(text)]


def test_a_place_is_generalised_to_its_kind_the_same_way_every_time(vault: Vault):
    assert [generalised(p) for p in ("Los Angeles", "LOS ANGELES", "Ohio", "France")] == [
        "[city]",
        "[city]",
        "[region]",
        "[country]",
    ]
    assert generalised("Georgia") == "[place]"  # a country and a state
    text = "Ship to 12 Elm Road, Springfield, IL 62704 from Los Angeles."
    once = anonymise_text(text, vault, keep=Keep(places=True))
    assert once.endswith(" from [city].") and "Elm Road" not in once  # the address is one
    assert anonymise_text(once, vault, keep=Keep(places=True)) == once
