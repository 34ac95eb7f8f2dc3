"""Recall per type and precision of today's curator detector on the labelled PII set.

    python tests/data/pii/measure.py                 # both splits
    python tests/data/pii/measure.py --split dev --show 40   # and 40 misses / false hits of dev

The scoring rule is scoring.py's (see README.md). Only the dev split may be read example by
example; the test split is for numbers.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO))

from tests.data.pii import scoring  # noqa: E402


def curator_detections(texts: list[str]) -> list[list[scoring.Detection]]:
    """What curator's detector finds in each text, as (start, end, curator kind)."""
    from curator.anonymise import Detector

    return [[(h.start, h.end, h.kind) for h in hits] for hits in Detector().detect_many(texts)]


def report(split: str, show: int) -> None:
    records = scoring.load(split)
    found = curator_detections([r["text"] for r in records])
    result = scoring.score(records, found)
    print(
        f"== {split}: {len(records)} records, {sum(len(r['spans']) for r in records)} labelled "
        "spans"
    )
    print(f"{'type':16}{'labelled':>9}{'found':>7}{'recall':>8}   {'precision':>9} (right/wrong)")
    for kind, row in result.items():
        print(
            f"{kind:16}{row['labelled']:9d}{row['found']:7d}{row['recall']:8.2f}   "
            f"{row['precision']:9.2f} ({row['right']}/{row['wrong']})"
        )
    by_group: dict[str, Counter] = {}
    for record, hits in zip(records, found, strict=True):
        for span in record["spans"]:
            if span["type"] == "person":
                for group in (record["lang"], record["context"]):
                    counts = by_group.setdefault(group, Counter())
                    counts["labelled"] += 1
                    counts["found"] += scoring.covered(record["text"], span, hits)
    print(
        "person recall by language and context: "
        + ", ".join(f"{g} {c['found'] / c['labelled']:.2f}" for g, c in by_group.items())
    )
    if show:
        print(f"-- first {show} misses")
        for rid, span in scoring.misses(records, found)[:show]:
            print(f"  {rid} {span['type']}: {span['value']!r}")
        print(f"-- first {show} false hits")
        for rid, kind, text in scoring.false_hits(records, found)[:show]:
            print(f"  {rid} {kind}: {text!r}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("dev", "test"), action="append", help="default: both")
    parser.add_argument(
        "--show", type=int, default=0, help="print this many misses and false hits (dev only)"
    )
    args = parser.parse_args()
    for split in args.split or ["dev", "test"]:
        report(split, args.show if split == "dev" else 0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
