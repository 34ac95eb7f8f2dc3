"""Benchmark: curator's --ocr-noise against nlpaug's OcrAug on the same documents, one run,
and the calibration of both noise channels.

curator does more per document (evidence spans re-mapped, CER calibrated and measured
with an exact Levenshtein distance, labels rebuilt), yet should be at least as fast.
Prints docs/s of both and the ratio, the measured CER of --ocr-noise against the request,
and requested vs measured CER of --ocr-noise --render (real Tesseract) at 0.02, 0.05 and
0.10 (limit: within 25%). Exits 1 when curator is slower or --render misses its limit.

    python benchmarks/mutate.py                 # 60 documents; --render on 4 of them
    python benchmarks/mutate.py --full          # 600 documents; --render on 8
    python benchmarks/mutate.py --render-docs 0 # skip the (slow, Tesseract) render table
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from curator.config import default_config_text  # noqa: E402
from curator.labels import revise  # noqa: E402
from curator.model import Fixture, Provenance, StoreConfig  # noqa: E402
from curator.mutate.engine import Step, apply_chain  # noqa: E402
from curator.store import FixtureRecord  # noqa: E402
from tests import samples  # noqa: E402


def documents(count: int, config: StoreConfig) -> list[FixtureRecord]:
    records = []
    for seed in range(count):
        kind = "lease" if seed % 3 else "invoice"
        content, values = samples.lease(seed) if kind == "lease" else samples.invoice(seed)
        revision = revise(config, kind, content, None, assignments=values, author="bench")
        fixture = Fixture(
            id=f"{kind}-bench-{seed:08x}",
            kind="document",
            doc_type=kind,
            category="clean",
            created_at=revision.time,
            provenance=Provenance(
                source_sha256="0" * 64,
                source_name=f"{kind}.pdf",
                importer="synthetic",
                imported_at=revision.time,
            ),
        )
        records.append(FixtureRecord(fixture, content, [revision], Path(".")))
    return records


def main() -> int:
    import tomllib

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="600 documents instead of 60")
    parser.add_argument("--cer", type=float, default=0.05)
    parser.add_argument("--rounds", type=int, default=3, help="alternating timing rounds (best of)")
    parser.add_argument(
        "--render-docs", type=int, default=None, help="documents for the --render table"
    )
    args = parser.parse_args()
    count = 600 if args.full else 60
    config = StoreConfig.model_validate(tomllib.loads(default_config_text()))
    records = documents(count, config)
    texts = [[page.text for page in r.content.pages] for r in records]
    chars = sum(len(t) for pages in texts for t in pages)

    import nlpaug.augmenter.char as nac

    aug = nac.OcrAug()
    aug.augment(texts[0][0])  # warm up both
    apply_chain(records[0], config, [Step("ocr-noise", {"cer": args.cer})], 0)

    def run_nlpaug() -> float:
        start = time.perf_counter()
        for pages in texts:
            for text in pages:
                aug.augment(text)
        return count / (time.perf_counter() - start)

    cers: list[float] = []

    def run_curator() -> float:
        cers.clear()
        start = time.perf_counter()
        for seed, record in enumerate(records):
            variant = apply_chain(record, config, [Step("ocr-noise", {"cer": args.cer})], seed)
            cers.append(variant.fixture.lineage.mutations[0].measured["cer"])
        return count / (time.perf_counter() - start)

    # Alternate rounds and keep each side's best, so a busy machine hurts both alike.
    nlpaug_rate = curator_rate = 0.0
    for _ in range(args.rounds):
        nlpaug_rate = max(nlpaug_rate, run_nlpaug())
        curator_rate = max(curator_rate, run_curator())

    ratio = curator_rate / nlpaug_rate
    print(f"documents: {count} ({chars} chars), requested CER {args.cer}")
    print(f"nlpaug OcrAug:        {nlpaug_rate:8.1f} docs/s")
    print(
        f"curator --ocr-noise:  {curator_rate:8.1f} docs/s  (measured CER "
        f"{min(cers):.4f}..{max(cers):.4f})"
    )
    print(
        f"ratio curator/nlpaug: {ratio:.2f}x "
        f"{'(ok: at least as fast)' if ratio >= 1 else '(SLOWER than nlpaug)'}"
    )
    print("calibration (measured CER over the same documents, min..max, worst relative error):")
    for requested in (0.02, 0.05, 0.10, 0.20):
        got = [
            apply_chain(r, config, [Step("ocr-noise", {"cer": requested})], seed)
            .fixture.lineage.mutations[0]
            .measured["cer"]
            for seed, r in enumerate(records)
        ]
        worst = max(abs(g - requested) / requested for g in got)
        print(f"  {requested:.2f}: {min(got):.4f}..{max(got):.4f}  worst {worst:.1%}  (limit 15%)")
    render_docs = args.render_docs if args.render_docs is not None else (8 if args.full else 4)
    render_ok = render_calibration(records[:render_docs], config) if render_docs else True
    return 0 if ratio >= 1 and render_ok else 1


def render_calibration(records: list[FixtureRecord], config: StoreConfig) -> bool:
    """Requested vs measured CER of --render (Pillow + Tesseract, calibrated by search)."""
    print(
        f"--render calibration over {len(records)} documents (requested -> measured CER, min..max; "
        "trials of the search; limit 25%):"
    )
    ok = True
    for requested in (0.02, 0.05, 0.10):
        started = time.perf_counter()
        steps = [
            apply_chain(r, config, [Step("ocr-render", {"cer": requested})], seed)
            .fixture.lineage.mutations[0]
            .measured
            for seed, r in enumerate(records)
        ]
        got = [m["cer"] for m in steps]
        worst = max(abs(g - requested) / requested for g in got)
        ok = ok and worst <= 0.25
        print(
            f"  {requested:.2f} -> {sum(got) / len(got):.4f} ({min(got):.4f}..{max(got):.4f})  "
            f"worst {worst:.1%}  trials "
            f"{min(m['trials'] for m in steps)}..{max(m['trials'] for m in steps)}  thinned "
            f"{sum(m['thinned'] for m in steps)}/{len(steps)}  "
            f"{(time.perf_counter() - started) / len(records):.1f} s/doc"
        )
    return ok


if __name__ == "__main__":
    sys.exit(main())
