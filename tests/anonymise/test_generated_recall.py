"""Leak recall on labelled sentences this project did not write (issue 28).

benchmarks/pii_generated.py makes them with presidio-evaluator in .bench-venv (`make
bench-venv`; cached under build/pii-generated/) and defines the measures. The floors below are
today's figures less a small margin, so that they catch a regression now; issue 28 raises
them as recall improves. Without the side venv the generated-set tests skip; the rest (the
hand-written test split, the measures themselves) always run.
"""

from __future__ import annotations

import pytest

from benchmarks import pii_generated as bench
from tests.data.pii import scoring

# Leak recall (share of labelled values the rewritten text no longer shows), seed 28, 6000
# sentences, presidio-evaluator 0.3.2, Faker 40.63.0. Today (issue 28 merged): person 0.739,
# street address 0.860, phone 0.728, the others 1.000. Keeping places and figures cost person
# and phone a little (a town of an address the finder missed was rewritten by chance, as a
# person; a bare number is a phone only when grouped as one or after a phone word); the
# address shapes and naming cues of item 5 bought more. Local phones of plans phonenumbers does
# not hold, marked by a phone's word, label or bracketed area code, took phone to 0.974; names
# from outside the lists, lone family names in running text, names called to and more subject
# verbs, person to 0.768. The benchmark then rewrote as an import does, every name found
# reserved before the first draw (a third of the leaks were pseudonyms equal to a real name
# of a later sentence), and stopped counting honorifics ("Mrs.", "DDS") as name words:
# person 0.903; ungrouped numbers after a phone's label and extensions written at once
# ("+1-499-340-7328x156"), phone 0.983.
GENERATED_FLOOR = {
    "person": 0.88,
    "street_address": 0.84,
    "email": 0.97,
    "phone": 0.97,
    "credit_card": 0.97,
    "iban": 0.97,
    "ip": 0.97,
    "ssn": 0.97,
}
# tests/data/pii/test.jsonl. Today: person 0.990, street address 0.867, the others 1.000.
TEST_SPLIT_FLOOR = {
    "person": 0.97,
    "street_address": 0.84,
    "email": 0.97,
    "phone": 0.97,
    "credit_card": 0.97,
    "iban": 0.97,
    "ip": 0.97,
    "ssn": 0.97,
}

needs_side_venv = pytest.mark.skipif(
    bench.evaluator_version() is None,
    reason=f"no presidio-evaluator in {bench.BENCH_VENV}: "
    "`make bench-venv` creates it (the generated set needs it)",
)


@pytest.fixture(scope="module")
def generated() -> tuple[dict, dict]:
    header, records = bench.generated()
    return header, bench.evaluate({"generated": records}, workers=1, presidio=False)["sets"][
        "generated"
    ]


@pytest.fixture(scope="module")
def test_split() -> dict:
    return bench.evaluate({"test": scoring.load("test")}, workers=1, presidio=False)["sets"]["test"]


@needs_side_venv
@pytest.mark.slow
def test_the_generated_set_is_what_the_benchmark_names(generated):
    header, entry = generated
    assert (header["source"], header["version"], header["seed"], header["count"]) == (
        "presidio-evaluator",
        bench.evaluator_version(),
        bench.SEED,
        bench.COUNT,
    )
    assert len(entry["records"]) == bench.COUNT >= 2000
    assert all(entry["leaks"][kind]["labelled"] >= 40 for kind in bench.SCORED), entry["leaks"]


@needs_side_venv
@pytest.mark.slow
@pytest.mark.parametrize("kind", bench.SCORED)
def test_leak_recall_on_the_generated_set(generated, kind):
    row = generated[1]["leaks"][kind]
    assert row["leak_recall"] >= GENERATED_FLOOR[kind], (kind, row)


@pytest.mark.parametrize("kind", bench.SCORED)
def test_leak_recall_on_the_held_out_split(test_split, kind):
    row = test_split["leaks"][kind]
    assert row["leak_recall"] >= TEST_SPLIT_FLOOR[kind], (kind, row)


def test_a_detection_on_a_span_of_an_unscored_type_is_neither_right_nor_wrong():
    text = "Mail ana@globex.io at Globex Industries"
    org = {"start": 22, "end": 39, "type": "organization", "value": "Globex Industries"}
    record = {
        "text": text,
        "spans": [{"start": 5, "end": 18, "type": "email", "value": "ana@globex.io"}],
    }
    hits = [[(5, 18, "email"), (22, 39, "person")]]
    assert scoring.score([record], hits)["person"]["wrong"] == 1
    scored = scoring.score([{**record, "others": [org]}], hits)
    assert (scored["person"]["right"], scored["person"]["wrong"]) == (0, 0)
    assert scored["email"]["recall"] == 1.0


def test_distinctive_words():
    assert bench.distinctive_words(
        "42 Harbour Street, Apt. 5\nLyon 69003, France", "street_address"
    ) == ["harbour", "lyon", "69003"]
    assert bench.distinctive_words("Unit 5951 Box 0781\nDPO AE 04082", "street_address") == [
        "5951",
        "0781",
        "04082",
    ]
    assert bench.distinctive_words(
        "1600 Pennsylvania Ave NW, Washington, DC 20500, United States", "street_address"
    ) == ["1600", "pennsylvania", "20500"]
    assert bench.distinctive_words("Maria J. de la Cruz", "person") == ["maria", "cruz"]


def test_a_leak_is_what_the_rewrite_still_shows_beyond_the_template():
    record: dict = {
        "text": "Maria Lopez lives at 12 Elm Street, Lyon",
        "spans": [
            {"start": 0, "end": 11, "type": "person", "value": "Maria Lopez"},
            {"start": 21, "end": 40, "type": "street_address", "value": "12 Elm Street, Lyon"},
        ],
    }
    person, address = record["spans"]
    assert bench.leaked_words(record, person, "Jane Lopez lives at 7 Oak Road, Metz") == ["lopez"]
    assert bench.leaked_words(record, person, "Jane Baker lives at 7 Oak Road, Metz") == []
    assert bench.leaked_words(record, address, "Jane Baker lives at 7 Oak Street, Lyon") == ["lyon"]
    assert bench.leaked_words(record, address, "Jane Baker lives at 12 Oak Street, Metz") == []
    card: dict = {
        "text": "card 4111 1111 1111 1111 please",
        "spans": [{"start": 5, "end": 24, "type": "credit_card", "value": "4111 1111 1111 1111"}],
    }
    assert bench.leaked_words(card, card["spans"][0], "card 4111-1111-1111-1111 please") == [
        "4111111111111111"
    ]
    assert bench.leaked_words(card, card["spans"][0], "card 4000 0000 0000 0002 please") == []


def test_address_parts_make_one_street_address_from_the_house_number_on():
    text = "Ana\n12 Fortunastrasse 20\n Apt. 3\n Essert\n Switzerland\nbye"
    parts = [
        ("first_name", "Ana"),
        ("building_number", "12"),
        ("street_name", "Fortunastrasse 20"),
        ("secondary_address", "Apt. 3"),
        ("city", "Essert"),
        ("country", "Switzerland"),
    ]
    spans, at = [], 0
    for placeholder, value in parts:
        start = text.index(value, at)
        spans.append(
            {
                "start": start,
                "end": start + len(value),
                "value": value,
                "placeholder": placeholder,
                "presidio": "X",
            }
        )
        at = start + len(value)
    record = bench.to_curator({"id": "x", "text": text, "spans": spans})
    assert [(s["type"], s["value"]) for s in record["spans"]] == [
        ("person", "Ana"),
        ("street_address", "12 Fortunastrasse 20\n Apt. 3\n Essert"),
    ]
    assert [s["placeholder"] for s in record["negatives"]] == ["country"]  # alone on the last line
