"""`curator gate` scoring time against just loading the bundle, in one run.

Builds a synthetic store of N lease fixtures (a third of them adversarial variants),
bundles it, writes regressed predictions with scripts/make_predictions.py, then times
run_gate (score + report.json/summary.md/junit.xml, no plot) against
`list(curator.bundle.load(bundle))`, the floor any gate must pay.
Usage: python benchmarks/gate.py [--fixtures N] [--runs R]   (--full: 2000 fixtures)
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from curator.model import (  # noqa: E402
    DocumentContent,
    FieldLabel,
    Fixture,
    LabelRevision,
    Lineage,
    MutationStep,
    Page,
    Provenance,
)
from curator.store import Store  # noqa: E402

TIME = "2026-01-01T00:00:00Z"


def make_store(root: Path, count: int) -> Store:
    store = Store.init(root)
    with store.transaction() as txn:
        for n in range(count):
            tenant, rent, start = f"Tenant {n:05d}", f"${1000 + n:,}.00", "2024-03-01"
            text = (
                f"LEASE\nTenant: {tenant}\nLandlord: Maple Court LLC\nStart: {start}\n"
                f"Rent: {rent}\n"
            )
            fid = f"lease-{n:05d}-{hashlib.sha256(text.encode()).hexdigest()[:8]}"
            lineage = None
            if n % 3 == 2:
                lineage = Lineage(
                    parent=f"lease-{n - 1:05d}-00000000",
                    parent_label_rev=1,
                    mutations=[MutationStep(name="ocr-noise", seed=n)],
                )
            fixture = Fixture(
                id=fid,
                kind="document",
                doc_type="lease",
                category="ocr-noise" if lineage else "clean",
                status="active",
                created_at=TIME,
                lineage=lineage,
                provenance=Provenance(
                    source_sha256="0" * 64, source_name="x.pdf", importer="pdf", imported_at=TIME
                ),
            )
            labels = LabelRevision(
                rev=1,
                time=TIME,
                author="bench",
                source="manual",
                fields={
                    "tenant": FieldLabel(type="person", value=tenant),
                    "landlord": FieldLabel(type="organisation", value="Maple Court LLC"),
                    "lease_start_date": FieldLabel(type="date", value=start),
                    "monthly_rent": FieldLabel(type="money", value=rent),
                    "security_deposit": FieldLabel(type="money", value=None, expected_absent=True),
                },
            )
            content = DocumentContent(pages=[Page(number=1, text=text, origin="text-layer")])
            txn.create_fixture(fixture, content, [labels])
    return store


def median_seconds(action, runs: int) -> float:
    action()  # warm caches and imports
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--fixtures", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--full", action="store_true", help="2000 fixtures")
    args = parser.parse_args()
    count = 2000 if args.full else args.fixtures

    from curator.bundle import load
    from curator.bundle.build import build_bundle
    from curator.score.gate import run_gate

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        bundle = build_bundle(make_store(root / "store", count), "1.0.0", formats="jsonl").path
        predictions = root / "regressed.jsonl"
        subprocess.run(
            [
                sys.executable,
                str(REPO / "scripts" / "make_predictions.py"),
                str(bundle),
                "--quality",
                "regressed",
                "--out",
                str(predictions),
            ],
            check=True,
        )
        baseline = median_seconds(lambda: list(load(bundle)), args.runs)
        gate = median_seconds(lambda: run_gate(bundle, predictions, out=root / "out"), args.runs)
    print(f"fixtures: {count} ({count * 5} fields)")
    print(f"load bundle:        {baseline * 1000:.0f} ms (median of {args.runs})")
    print(f"curator gate (lib): {gate * 1000:.0f} ms (median of {args.runs})")
    print(f"ratio gate/load: {gate / baseline:.1f}")


if __name__ == "__main__":
    main()
