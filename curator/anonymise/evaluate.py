"""Recall and precision of pattern PII detection against labelled spans, for the synthetic
corpus test (the benchmark scores with tests/data/pii/scoring.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from curator.anonymise.kinds import priority

LabelledLine = tuple[str, Sequence[tuple[int, int, str]]]
TYPES = ("email", "phone", "credit_card", "iban", "ip", "ssn")  # the kinds scored


def score(
    lines: Sequence[LabelledLine], found: Iterable[Iterable[tuple[int, int, str]]]
) -> dict[str, dict[str, float]]:
    """Per type: recall (a labelled span is found when a hit of its type overlaps it) and
    precision (a hit is right when it overlaps a labelled span of its type)."""
    truth: Counter[str] = Counter()
    caught: Counter[str] = Counter()
    hits: Counter[str] = Counter()
    right: Counter[str] = Counter()
    for (_, labels), spans in zip(lines, found, strict=True):
        spans = longest_first(spans)
        for start, end, kind in labels:
            truth[kind] += 1
            if any(k == kind and s < end and start < e for s, e, k in spans):
                caught[kind] += 1
        for s, e, kind in spans:
            if kind not in TYPES:
                continue
            hits[kind] += 1
            if any(k == kind and s < end and start < e for start, end, k in labels):
                right[kind] += 1
    return {
        kind: {
            "recall": caught[kind] / truth[kind] if truth[kind] else 1.0,
            "precision": right[kind] / hits[kind] if hits[kind] else 1.0,
            "labelled": truth[kind],
        }
        for kind in TYPES
    }


def longest_first(spans: Iterable[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Overlapping hits resolved as the rewriter does: the longer span wins."""
    chosen: list[tuple[int, int, str]] = []
    for start, end, kind in sorted(spans, key=lambda s: (s[0] - s[1], priority(s[2]), s[0])):
        if all(end <= s or start >= e for s, e, _ in chosen):
            chosen.append((start, end, kind))
    return sorted(chosen)
