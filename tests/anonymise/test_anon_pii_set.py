"""Issue 12's bar, on the held-out split of the labelled PII set (tests/data/pii/test.jsonl),
through the library detector: recall per type and precision on persons (scoring.py's rule)."""

from __future__ import annotations

import pytest

from curator.anonymise.finders.detector import Detector
from tests.data.pii import scoring

RECALL = {
    "person": 0.90,
    "street_address": 0.85,
    "email": 0.98,
    "phone": 0.98,
    "credit_card": 0.98,
    "iban": 0.98,
    "ip": 0.98,
    "ssn": 0.98,
}
PERSON_PRECISION = 0.90


@pytest.fixture(scope="module")
def result() -> dict[str, dict[str, float]]:
    records = scoring.load("test")
    hits = Detector().detect_many(r["text"] for r in records)
    return scoring.score(records, [[(h.start, h.end, h.kind) for h in found] for found in hits])


@pytest.mark.parametrize("kind", sorted(RECALL))
def test_recall_per_type_on_the_held_out_split(result, kind):
    row = result[kind]
    assert row["labelled"] >= 35
    assert row["recall"] >= RECALL[kind], (kind, row)


def test_person_precision_on_the_held_out_split(result):
    assert result["person"]["precision"] >= PERSON_PRECISION, result["person"]


def test_the_same_texts_give_the_same_hits():
    records = scoring.load("test")[:80]
    first = [
        [(h.start, h.end, h.kind) for h in hits]
        for hits in Detector().detect_many(r["text"] for r in records)
    ]
    again = [
        [(h.start, h.end, h.kind) for h in hits]
        for hits in Detector().detect_many(r["text"] for r in reversed(records))
    ]
    assert first == list(reversed(again))
