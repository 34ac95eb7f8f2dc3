"""The labelled PII set and the one rule that scores a detector against it.

Used by measure.py, by the CI thresholds and by benchmarks/anonymise.py, so every number
quoted about this set means the same thing (the rule is documented in README.md):

- recall: a labelled span is found when detected spans of a compatible kind together cover
  every letter and digit of it ("Maria Lopez" found as "Maria" alone is a miss: "Lopez" leaks;
  "Dr. Maria Lopez" found whole covers it). Spaces and punctuation need not be covered.
- precision (per detected kind): a detected span is right when it overlaps a labelled span
  that kind may find, wrong when it overlaps no labelled span at all, and not counted when it
  overlaps only labelled spans of other types (the text is personal and rewritten anyway).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
TYPES = (
    "person",
    "street_address",
    "email",
    "phone",
    "credit_card",
    "iban",
    "ip",
    "ssn",
    "username",
)

# labelled type -> detected kinds that find it (curator's kind names; "address" is its street
# address kind, Presidio's LOCATION). A username rewritten as a person is still gone.
COMPATIBLE: dict[str, frozenset[str]] = {
    "person": frozenset({"person"}),
    "street_address": frozenset({"address"}),
    "email": frozenset({"email"}),
    "phone": frozenset({"phone"}),
    "credit_card": frozenset({"credit_card"}),
    "iban": frozenset({"iban"}),
    "ip": frozenset({"ip"}),
    "ssn": frozenset({"ssn"}),
    "username": frozenset({"username", "person"}),
}

Detection = tuple[int, int, str]  # start, end, detected kind


def load(split: str) -> list[dict]:
    """The records of one split ("dev" or "test"), in file order."""
    with open(HERE / f"{split}.jsonl", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def covered(text: str, span: dict, detections: Sequence[Detection]) -> bool:
    """Every letter and digit of the labelled span lies inside a compatible detection."""
    kinds = COMPATIBLE[span["type"]]
    hits = [
        (s, e) for s, e, k in detections if k in kinds and s < span["end"] and span["start"] < e
    ]
    return all(
        any(s <= i < e for s, e in hits)
        for i in range(span["start"], span["end"])
        if text[i].isalnum()
    )


def score(
    records: Sequence[dict], detections: Sequence[Sequence[Detection]]
) -> dict[str, dict[str, float]]:
    """Per labelled type: labelled, found, recall; per detected kind mapped back to the type
    it stands for: right, wrong, precision. A record's `others` (labelled spans of types no
    score is kept for, as a generated set has) count as labelled when a detection overlaps
    them: a detection on them alone is neither right nor wrong."""
    labelled, found, right, wrong = Counter(), Counter(), Counter(), Counter()
    for record, found_spans in zip(records, detections, strict=True):
        text, gold = record["text"], record["spans"]
        for span in gold:
            labelled[span["type"]] += 1
            found[span["type"]] += covered(text, span, found_spans)
        labelled_spans = [*gold, *record.get("others", ())]
        for start, end, kind in found_spans:
            own = [
                t for t in TYPES if kind in COMPATIBLE[t]
            ]  # TYPES order: "person" before "username"
            if not own:
                continue  # urls, organisations...: no labelled type stands for them
            overlapping = [g for g in labelled_spans if g["start"] < end and start < g["end"]]
            if any(kind in COMPATIBLE.get(g["type"], ()) for g in overlapping):
                right[own[0]] += 1
            elif not overlapping:
                wrong[own[0]] += 1
    result = {}
    for kind in TYPES:
        detected = right[kind] + wrong[kind]
        result[kind] = {
            "labelled": labelled[kind],
            "found": found[kind],
            "recall": found[kind] / labelled[kind] if labelled[kind] else 1.0,
            "right": right[kind],
            "wrong": wrong[kind],
            "precision": right[kind] / detected if detected else 1.0,
        }
    return result


def misses(
    records: Sequence[dict], detections: Sequence[Sequence[Detection]]
) -> list[tuple[str, dict]]:
    """(record id, labelled span) for every span the detections do not cover."""
    return [
        (record["id"], span)
        for record, found_spans in zip(records, detections, strict=True)
        for span in record["spans"]
        if not covered(record["text"], span, found_spans)
    ]


def false_hits(
    records: Sequence[dict], detections: Sequence[Sequence[Detection]]
) -> list[tuple[str, str, str]]:
    """(record id, detected kind, detected text) for every detection overlapping no labelled
    span."""
    out = []
    for record, found_spans in zip(records, detections, strict=True):
        for start, end, kind in found_spans:
            if not any(g["start"] < end and start < g["end"] for g in record["spans"]):
                out.append((record["id"], kind, record["text"][start:end]))
    return out
