"""Near-duplicate lookup time against stores of 1k and 10k fixtures, in one run.

For each size a store of synthetic lease documents (Faker) is written, its dedup index is
built once (timed separately: a one-off cost, later fixtures are indexed as they come),
then one record at a time is checked with `covered_by`, exactly as `curator promote`
checks each record: open the index, sync it, look up, verify candidates. Half the records
are near-duplicates of a stored fixture (one word in sixty changed), half are new.

The named baseline is the smallest store: the ratio largest/smallest must stay under 3
(sub-linear lookup) or the script exits 1. For contrast it also times the pairwise loop
(read every fixture, compare shingles) on the smallest store.

    python benchmarks/dedup.py                 # 1,000 and 10,000 fixtures (1-3 minutes)
    python benchmarks/dedup.py --sizes 500 5000 --queries 20
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _stores import no_fsync  # noqa: E402
from faker import Faker  # noqa: E402

from curator.model import DocumentContent, Fixture, Kind, Page, Provenance  # noqa: E402
from curator.promote.dedup import DedupIndex, covered_by, jaccard, shingles  # noqa: E402
from curator.store import Store, fixture_id  # noqa: E402

MAX_RATIO = 3.0


def lease(fake: Faker, n: int) -> str:
    return (
        f"RESIDENTIAL LEASE AGREEMENT no. {n}\nLandlord: {fake.name()}\nTenant: {fake.name()}\n"
        f"Premises Address: {fake.address().replace(chr(10), ', ')}\n"
        f"Monthly Rent: ${fake.random_int(800, 4000)}.00\n" + fake.text(max_nb_chars=900)
    )


def document(text: str) -> DocumentContent:
    return DocumentContent(pages=[Page(number=1, text=text, origin="text-layer")])


def near_copy(text: str) -> str:
    words = text.split(" ")
    return " ".join("changed" if i % 60 == 30 else w for i, w in enumerate(words))


def build_store(root: Path, size: int, texts: list[str]) -> Store:
    store = Store.init(root)
    with no_fsync(), store.transaction() as txn:
        for n, text in enumerate(texts[:size]):
            key = f"{n}:{text}".encode()
            txn.create_fixture(
                Fixture(
                    id=fixture_id("lease", key),
                    kind=Kind.document,
                    doc_type="lease",
                    category="clean",
                    created_at="2026-01-01T00:00:00Z",
                    provenance=Provenance(
                        source_sha256=hashlib.sha256(key).hexdigest(),
                        source_name=f"lease-{n}.pdf",
                        importer="pdf",
                        imported_at="2026-01-01T00:00:00Z",
                    ),
                ),
                document(text),
                [],
            )
    return store


def pairwise(store: Store, content: DocumentContent, threshold: float) -> str | None:
    """What the index replaces: read every fixture of the kind and compare shingle sets."""
    mine = shingles(content.full_text())
    for record in store.records():
        if (
            record.fixture.kind == content.kind
            and jaccard(mine, shingles(record.content.full_text())) >= threshold
        ):
            return record.fixture.id
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--queries", type=int, default=40, help="records checked per store")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    sizes = sorted(args.sizes)

    fake = Faker("en_US")
    fake.seed_instance(args.seed)
    texts = [lease(fake, n) for n in range(sizes[-1])]
    fresh = [lease(fake, -n) for n in range(args.queries)]
    queries = [
        document(near_copy(texts[(q * 7919) % sizes[0]]) if q % 2 == 0 else fresh[q])
        for q in range(args.queries)
    ]

    results: dict[int, float] = {}
    print(
        f"dedup lookup, {args.queries} records per store (half near-duplicates), median per record"
    )
    # tmpfs when there is one: writing 10k fixtures to a busy disk would dwarf the lookups.
    shm = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    ids = [fixture_id("lease", f"{n}:{text}".encode()) for n, text in enumerate(texts)]
    with tempfile.TemporaryDirectory(prefix="curator-bench-dedup-", dir=shm) as tmp:
        stores = {}
        for size in sizes:
            started = time.perf_counter()
            stores[size] = build_store(Path(tmp) / f"store-{size}", size, texts)
            built = time.perf_counter() - started
            started = time.perf_counter()
            with DedupIndex(stores[size]) as index:
                # As promote does for each fixture it writes (no re-reading of the store).
                for n, text in enumerate(texts[:size]):
                    index.add(ids[n], "document", document(text))
                index.mark_synced()
                index.commit()
            print(
                f"  {size:>6} fixtures: store written in {built:.1f}s, "
                f"index built once in {time.perf_counter() - started:.1f}s"
            )
        # Interleaved, so a busy machine slows every store alike rather than one of them.
        timings: dict[int, list[float]] = {size: [] for size in sizes}
        found = dict.fromkeys(sizes, 0)
        for content in queries:
            for size in sizes:
                started = time.perf_counter()
                match = covered_by(stores[size], content)
                timings[size].append(time.perf_counter() - started)
                found[size] += match is not None
        expected = (args.queries + 1) // 2
        for size in sizes:
            results[size] = statistics.median(timings[size])
            print(
                f"  {size:>6} fixtures: {results[size] * 1000:8.2f} ms/record   "
                f"(duplicates found {found[size]}/{args.queries}, expected {expected})"
            )
        started = time.perf_counter()
        for content in queries[:4]:
            pairwise(stores[sizes[0]], content, stores[sizes[0]].config.store.dedup_threshold)
        loop = (time.perf_counter() - started) / 4
        print(
            f"  {sizes[0]:>6} fixtures: {loop * 1000:8.2f} ms/record   (pairwise loop, for "
            "contrast)"
        )
        if any(count != expected for count in found.values()):
            print("FAIL: the index missed or invented duplicates")
            return 1

    ratio = results[sizes[-1]] / results[sizes[0]]
    verdict = "ok" if ratio < MAX_RATIO else "FAIL"
    print(
        f"ratio {sizes[-1]} / {sizes[0]} fixtures (baseline: the {sizes[0]}-fixture store): "
        f"{ratio:.2f}x  (target < {MAX_RATIO:.0f}x: {verdict})"
    )
    return 0 if ratio < MAX_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
