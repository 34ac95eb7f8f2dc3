#!/usr/bin/env python3
"""Sample predictions for a built bundle, as a system under test would write them.

    python scripts/make_predictions.py BUNDLE --quality good      > good.jsonl
    python scripts/make_predictions.py BUNDLE --quality regressed > regressed.jsonl

`good` answers every field right (sometimes in an accepted variant's wording) with high,
honest confidences, passes every rubric and reports healthy retrieval metrics. `regressed`
is what a bad release looks like: it hallucinates, takes another field's value, truncates
or drops values, mostly with confidence >= 0.9 (two fields of every adversarial fixture,
one of every second golden document, plus invented values for expected-absent fields of
adversarial ones), fails the first rubric of each thread, loses faithfulness, and skips
the bundle's last golden fixture.
Deterministic: the same bundle gives byte-identical output (no clock, no global random).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

# Runs from a checkout too, without curator installed.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# Invented answers by field type, for hallucinations: plausible, and in no sample document.
INVENTED = {
    "person": "Jordan Whitfield",
    "organisation": "Northwind Holdings Ltd",
    "address": "404 Nowhere Lane, Springfield",
    "date": "2031-02-28",
    "money": "$9,999.00",
    "number": "9999",
    "text": "INV-000000",
}
FAILURE_MODES = ("hallucination", "field_targeting", "truncation", "omission")


def unit(*parts: str) -> float:
    """A stable number in [0, 1) from `parts`: per-fixture variety without a global RNG."""
    digest = hashlib.sha256("\x1f".join(parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def good_fields(item: Any) -> dict[str, dict[str, Any]]:
    fields = {}
    for name, label in item.labels.fields.items():
        confidence = round(0.86 + 0.13 * unit(item.fixture.id, name), 2)
        if label.expected_absent:
            fields[name] = {"value": None, "confidence": confidence}
            continue
        use_variant = label.variants and unit(item.fixture.id, name, "variant") < 0.5
        fields[name] = {
            "value": label.variants[0] if use_variant else label.value,
            "confidence": confidence,
        }
    return fields


class Regressor:
    """Hands out failure modes in turn, so even a few fixtures show all of them."""

    def __init__(self) -> None:
        self.ordinal = 0
        self.golden_documents = 0

    def fields(self, item: Any) -> dict[str, dict[str, Any]]:
        fields = good_fields(item)
        labels = item.labels.fields
        present = [name for name, label in labels.items() if not label.expected_absent]
        if item.fixture.adversarial:
            wrong = 2
            for name, label in labels.items():
                if label.expected_absent:  # invent a value the input lacks
                    fields[name] = {
                        "value": INVENTED.get(str(label.type), "n/a"),
                        "confidence": 0.95,
                    }
        else:
            self.golden_documents += 1
            wrong = 1 if self.golden_documents % 2 == 0 else 0  # every second golden document
        for _ in range(min(wrong, len(present))):
            target = present[self.ordinal % len(present)]
            mode = FAILURE_MODES[self.ordinal % len(FAILURE_MODES)]
            fields[target] = wrong_answer(labels, present, target, mode)
            self.ordinal += 1
        return fields


def wrong_answer(labels: dict, present: list[str], target: str, mode: str) -> dict[str, Any]:
    """An overconfident wrong answer for field `target`, of the given failure mode."""
    label = labels[target]
    others = [labels[n].value for n in present if n != target]
    if mode == "field_targeting" and others:
        return {"value": others[0], "confidence": 0.93}
    if mode == "truncation" and len(label.value) > 3:
        return {"value": label.value[: len(label.value) // 2], "confidence": 0.91}
    if mode == "omission":
        return {"value": None, "confidence": 0.9}
    return {"value": INVENTED.get(str(label.type), "n/a"), "confidence": 0.97}


def metrics(item: Any, drop: float) -> dict[str, float]:
    fid = item.fixture.id
    return {
        "context_recall": round(0.90 + 0.08 * unit(fid, "recall") - drop / 2, 3),
        "faithfulness": round(0.94 + 0.05 * unit(fid, "faithfulness") - drop, 3),
        "answer_relevancy": round(0.88 + 0.09 * unit(fid, "relevancy"), 3),
    }


def predict(item: Any, regressor: Regressor | None) -> dict[str, Any]:
    """One predictions line; `regressor` set makes it a regressed release's answer."""
    regressed = regressor is not None
    line: dict[str, Any] = {"fixture_id": item.fixture.id}
    if item.labels is not None and item.labels.fields:
        line["fields"] = regressor.fields(item) if regressed else good_fields(item)
    if item.labels is not None and item.labels.rubrics:
        line["rubrics"] = [
            {
                "rubric": rubric.text,
                "pass": not (regressed and n == 0),
                "score": 0.3 if regressed and n == 0 else 0.9,
            }
            for n, rubric in enumerate(item.labels.rubrics)
        ]
    drop = (0.15 if item.fixture.adversarial else 0.08) if regressed else 0.0
    line["metrics"] = metrics(item, drop)
    return line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle", type=Path, help="a built bundle directory or .tar.gz")
    parser.add_argument("--quality", choices=("good", "regressed"), required=True)
    parser.add_argument("--out", type=Path, help="write here instead of stdout")
    args = parser.parse_args(argv)

    from curator.bundle import load

    items = list(load(args.bundle))
    if args.quality == "regressed":
        # A release that silently skips a fixture: the last golden one, so every
        # adversarial fixture still shows its failure modes.
        golden = [n for n, item in enumerate(items) if not item.fixture.adversarial]
        if golden and len(items) > 1:
            del items[golden[-1]]
    regressor = Regressor() if args.quality == "regressed" else None
    # Adversarial fixtures first, so they get the failure modes in order.
    ordered = sorted(items, key=lambda item: not item.fixture.adversarial)
    lines = {
        item.fixture.id: json.dumps(predict(item, regressor), ensure_ascii=False)
        for item in ordered
    }
    text = "\n".join(lines[item.fixture.id] for item in items) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
