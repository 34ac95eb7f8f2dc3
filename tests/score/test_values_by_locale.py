"""Money, dates and numbers as the document's readers mean them, per store locale (en_US,
en_GB, de_DE, fr_FR), through `label set` evidence and `curator gate`.

Each locale's store holds one synthetic order form written the way that locale writes:
"03/04/2024" (3 April outside the US), "71,137" / "71.137" / "71 137", an amount in the
locale's currency, "1.250" / "1,250". What `label set` finds or refuses, and what the gate
counts right, follow the locale; a currency other than the document's is another value.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curator.bundle.build import build_bundle
from tests.conftest import run_cli, snapshot
from tests.score.locale_orders import LOCALES, TRUTH, TRUTH_US, only_fixture, order_store

# FIELD=VALUE typed to `label set` -> the page text it finds, per locale (None: refused)
LABEL_CASES = [
    (
        "issued=2024-03-04",
        {"en_US": "03/04/2024", "en_GB": None, "de_DE": None, "fr_FR": None},
    ),
    (
        "issued=3 April 2024",
        {"en_US": None, "en_GB": "03/04/2024", "de_DE": "03.04.2024", "fr_FR": "03/04/2024"},
    ),
    (
        "units=71137",
        {"en_US": "71,137", "en_GB": "71,137", "de_DE": "71.137", "fr_FR": "71\u202f137"},
    ),
    (
        "total=2480",  # no currency: the document's one
        {
            "en_US": "$2,480.00",
            "en_GB": "£2,480.00",
            "de_DE": "2.480,00 €",
            "fr_FR": "2\u202f480,00\u00a0€",
        },
    ),
    (
        "total=€2,480.00",
        {"en_US": None, "en_GB": None, "de_DE": "2.480,00 €", "fr_FR": "2\u202f480,00\u00a0€"},
    ),
    ("total=USD 2480", {"en_US": "$2,480.00", "en_GB": None, "de_DE": None, "fr_FR": None}),
    (
        "weight=1.25",
        {"en_US": "1.250", "en_GB": "1.250", "de_DE": "1,250", "fr_FR": "1,250"},
    ),
    ("weight=1250", {"en_US": None, "en_GB": None, "de_DE": None, "fr_FR": None}),
]

# What a system answers -> is it right, per locale
GATE_CASES = [
    ("issued", "03/04/2024", {"en_US": True, "en_GB": True, "de_DE": True, "fr_FR": True}),
    ("issued", "April 3, 2024", {"en_US": False, "en_GB": True, "de_DE": True, "fr_FR": True}),
    ("issued", "March 4, 2024", {"en_US": True, "en_GB": False, "de_DE": False, "fr_FR": False}),
    ("units", "71137", {"en_US": True, "en_GB": True, "de_DE": True, "fr_FR": True}),
    ("units", "71,137", {"en_US": True, "en_GB": True, "de_DE": False, "fr_FR": False}),
    ("units", "71.137", {"en_US": False, "en_GB": False, "de_DE": True, "fr_FR": True}),
    ("units", "71 137", {"en_US": True, "en_GB": True, "de_DE": True, "fr_FR": True}),
    ("total", "2480", {"en_US": True, "en_GB": True, "de_DE": True, "fr_FR": True}),
    ("total", "$2,480.00", {"en_US": True, "en_GB": False, "de_DE": False, "fr_FR": False}),
    ("total", "€2,480.00", {"en_US": False, "en_GB": False, "de_DE": True, "fr_FR": True}),
    ("total", "€2.480", {"en_US": False, "en_GB": False, "de_DE": True, "fr_FR": True}),
    ("total", "2.480 GBP", {"en_US": False, "en_GB": False, "de_DE": False, "fr_FR": False}),
    ("total", "GBP 2,480", {"en_US": False, "en_GB": True, "de_DE": False, "fr_FR": False}),
    ("weight", "1,250", {"en_US": False, "en_GB": False, "de_DE": True, "fr_FR": True}),
    ("weight", "1.250", {"en_US": True, "en_GB": True, "de_DE": False, "fr_FR": False}),
]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("assignment,found", LABEL_CASES, ids=[c[0] for c in LABEL_CASES])
def test_label_set_finds_evidence_as_the_locale_reads(tmp_path, locale, assignment, found):
    store = order_store(tmp_path / "store", locale)
    fid = only_fixture(store)
    before = snapshot(store.root)
    run = run_cli("label", "set", fid, assignment, "--json", store=store.root)
    expected = found[locale]
    if expected is None:
        assert run.exit_code == 2, run.stdout
        assert "is not in the content" in run.stderr and len(run.stderr.strip().splitlines()) == 1
        assert snapshot(store.root) == before
        return
    assert run.exit_code == 0, run.stderr
    name = assignment.partition("=")[0]
    label = store.load(fid).labels.fields[name]
    page = store.load(fid).content.texts()[0][1]
    assert page[label.evidence.start : label.evidence.end] == expected
    assert (label.evidence_text or label.value) == expected
    assert run_cli("validate", store=store.root).exit_code == 0


def test_a_refusal_says_the_locale_and_the_currency_the_content_shows(tmp_path):
    store = order_store(tmp_path / "store", "de_DE")
    run = run_cli("label", "set", only_fixture(store), "total=$2,480.00", store=store.root)
    (line,) = run.stderr.strip().splitlines()
    assert run.exit_code == 2
    assert "can be written in de_DE)" in line
    assert "it shows '2.480,00 €', in another currency" in line


def test_the_revision_records_its_locale_and_en_us_keeps_its_bytes(tmp_path):
    german = order_store(tmp_path / "de", "de_DE")
    assert run_cli("label", "set", only_fixture(german), *TRUTH, store=german.root).exit_code == 0
    assert german.load(only_fixture(german)).labels.locale == "de_DE"
    american = order_store(tmp_path / "us", "en_US")
    fid = only_fixture(american)
    assert run_cli("label", "set", fid, *TRUTH_US, store=american.root).exit_code == 0
    line = (american.directory(fid) / "labels.jsonl").read_text()
    assert american.load(fid).labels.locale is None and '"locale"' not in line


def test_a_doc_type_locale_overrides_the_stores(tmp_path):
    store = order_store(tmp_path / "store", "en_US", doc_type_locale="de_DE")
    fid = only_fixture(store)
    assert run_cli("label", "set", fid, "weight=1250", store=store.root).exit_code == 2
    run = run_cli("label", "set", fid, *TRUTH, store=store.root)
    assert run.exit_code == 0, run.stderr
    assert store.load(fid).labels.locale == "de_DE"


def test_an_unknown_doc_type_locale_is_one_line(tmp_path):
    store = order_store(tmp_path / "store", "en_US")
    config = store.root / "curator.toml"
    config.write_text(
        config.read_text().replace("[doc_types.order]\n", '[doc_types.order]\nlocale = "xx_QQ"\n')
    )
    run = run_cli("list", store=store.root)
    assert run.exit_code == 2
    (line,) = run.stderr.strip().splitlines()
    assert "curator.toml" in line and "unknown locale 'xx_QQ'" in line


@pytest.fixture(scope="module")
def bundles(tmp_path_factory) -> dict[str, tuple[Path, str]]:
    """Per locale: a built bundle of its labelled order form, and the fixture's id."""
    built = {}
    for locale in LOCALES:
        store = order_store(tmp_path_factory.mktemp(locale) / "store", locale)
        fid = only_fixture(store)
        truth = TRUTH_US if locale == "en_US" else TRUTH
        run = run_cli("label", "set", fid, *truth, store=store.root)
        assert run.exit_code == 0, run.stderr
        built[locale] = (build_bundle(store, "1.0.0", formats="jsonl").path, fid)
    return built


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize(
    "field,answer,right", GATE_CASES, ids=[f"{c[0]}={c[1]}" for c in GATE_CASES]
)
def test_the_gate_scores_values_as_the_locale_reads(
    bundles, tmp_path, locale, field, answer, right
):
    bundle, fid = bundles[locale]
    truth = dict(t.split("=", 1) for t in (TRUTH_US if locale == "en_US" else TRUTH))
    fields = {name: {"value": value} for name, value in truth.items()}
    fields[field] = {"value": answer}
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text(json.dumps({"fixture_id": fid, "fields": fields}) + "\n")
    run = run_cli(
        "gate",
        "--bundle",
        bundle,
        "--predictions",
        predictions,
        "--out",
        tmp_path / "out",
        "--json",
    )
    assert run.exit_code in (0, 1), run.stderr
    (fixture,) = json.loads(run.stdout)["fixtures"]
    outcomes = {item["name"]: item["outcome"] for item in fixture["items"]}
    assert outcomes.pop(field) == ("right" if right[locale] else "wrong")
    assert set(outcomes.values()) == {"right"}  # the truth itself, as labelled, is right
    assert run.exit_code == (0 if right[locale] else 1)
