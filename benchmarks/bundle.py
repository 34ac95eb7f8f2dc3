"""Bundle build speed: is it linear in the store size, and is an unchanged rebuild cheap?

Generates two synthetic stores (lease documents and Mattermost threads, a fifth of them
adversarial variants) ten times apart in size, then measures in one run:

  cold build      bundle build of every format with no cache, for both sizes (best of
                  --repeat), and the ratio large/small (target: <= 11 for 10x, i.e. linear)
  no-op rebuild   `bundle build` of the same version again with nothing changed, best
                  of 3 (target: under 10% of the cold build of the large store)

Wall and CPU time are both printed: on a shared machine the CPU time is the steadier.
  new version     a new version from the unchanged store, warm per-fixture cache
                  (reported for information: it writes every format again)

Usage: python benchmarks/bundle.py            100 and 1,000 fixtures (a couple of minutes)
       python benchmarks/bundle.py --full     1,000 and 10,000 fixtures, the issue's sizes
       python benchmarks/bundle.py --sizes 500,5000
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _stores import no_fsync  # noqa: E402
from faker import Faker  # noqa: E402

from curator.bundle.build import build_bundle  # noqa: E402
from curator.model import (  # noqa: E402
    DocumentContent,
    FieldLabel,
    Fixture,
    LabelRevision,
    Lineage,
    MutationStep,
    Page,
    Provenance,
    Rubric,
    Span,
    ThreadContent,
    ThreadExport,
)
from curator.store import Store  # noqa: E402

TIME = "2026-01-01T00:00:00Z"


class Pool:
    """Faker is slow per call: draw names, companies and sentences from pools made once."""

    def __init__(self, seed: int) -> None:
        fake = Faker("en_US")
        fake.seed_instance(seed)
        self.rng = random.Random(seed)
        self.names = [fake.name() for _ in range(300)]
        self.users = [fake.user_name() for _ in range(300)]
        self.firsts = [fake.first_name() for _ in range(300)]
        self.companies = [fake.company() for _ in range(200)]
        self.addresses = [fake.address().replace("\n", ", ") for _ in range(300)]
        self.sentences = [fake.sentence(nb_words=14) for _ in range(2000)]
        self.dates = [fake.date_between("-3y", "today").isoformat() for _ in range(300)]

    def name(self) -> str:
        return self.rng.choice(self.names)

    def user_name(self) -> str:
        return self.rng.choice(self.users)

    def first_name(self) -> str:
        return self.rng.choice(self.firsts)

    def company(self) -> str:
        return self.rng.choice(self.companies)

    def address(self) -> str:
        return self.rng.choice(self.addresses)

    def date(self) -> str:
        return self.rng.choice(self.dates)

    def sentence(self, nb_words: int = 14) -> str:
        return self.rng.choice(self.sentences)

    def paragraph(self, nb_sentences: int) -> str:
        return " ".join(self.rng.choice(self.sentences) for _ in range(nb_sentences))


def generate(root: Path, size: int, seed: int = 7) -> Store:
    """Write `size` fixtures straight into a new store (the benchmark measures bundling, not
    import)."""
    store = Store.init(root)
    fake = Pool(seed)
    rng = fake.rng
    parents: list[str] = []
    with no_fsync(), store.transaction() as txn:
        for number in range(size):
            if parents and rng.random() < 0.2:
                fixture, content, labels = _variant(rng, number, rng.choice(parents))
            elif rng.random() < 0.3:
                fixture, content, labels = _thread(fake, rng, number)
            else:
                fixture, content, labels = _lease(fake, rng, number)
                parents.append(fixture.id)
            txn.create_fixture(fixture, content, labels)
            if not fixture.adversarial:
                _LEASES[fixture.id] = (fixture, content, labels)
    return store


_LEASES: dict[str, tuple] = {}


def _id(prefix: str, number: int) -> str:
    return f"{prefix}-{number}-{hashlib.sha256(f'{prefix}{number}'.encode()).hexdigest()[:8]}"


def _provenance(name: str, importer: str) -> Provenance:
    return Provenance(
        source_sha256=hashlib.sha256(name.encode()).hexdigest(),
        source_name=name,
        importer=importer,
        imported_at=TIME,
    )


def _lease(fake: Pool, rng: random.Random, number: int):
    tenant, rent = fake.name(), f"${rng.randint(500, 4000):,}.00"
    start = fake.date()
    text = (
        f"RESIDENTIAL LEASE AGREEMENT\nTenant: {tenant}\nLandlord: {fake.company()}\n"
        f"Premises Address: {fake.address()}\nLease Start Date: {start}\n"
        f"Monthly Rent: {rent}\n" + fake.paragraph(nb_sentences=12)
    )
    page2 = fake.paragraph(nb_sentences=20)
    fields = {
        "tenant": FieldLabel(type="person", value=tenant, evidence=_span(text, tenant)),
        "monthly_rent": FieldLabel(
            type="money", value=rent, evidence=_span(text, rent), variants=[rent.lstrip("$")]
        ),
        "lease_start_date": FieldLabel(type="date", value=start, evidence=_span(text, start)),
        "security_deposit": FieldLabel(type="money", value=None, expected_absent=True),
    }
    fixture = Fixture(
        id=_id("lease", number),
        kind="document",
        doc_type="lease",
        category="clean",
        status="active",
        title=f"lease {number}",
        created_at=TIME,
        provenance=_provenance(f"lease-{number}.pdf", "pdf"),
    )
    content = DocumentContent(
        pages=[
            Page(number=1, text=text, origin="text-layer", language="en"),
            Page(number=2, text=page2, origin="ocr", ocr_confidence=91.5, language="en"),
        ]
    )
    return (
        fixture,
        content,
        [LabelRevision(rev=1, time=TIME, author="bench", source="manual", fields=fields)],
    )


def _span(text: str, value: str) -> Span:
    start = text.index(value)
    return Span(page=1, start=start, end=start + len(value))


def _thread(fake: Pool, rng: random.Random, number: int):
    users = {
        f"u{i}": {"id": f"u{i}", "username": fake.user_name(), "first_name": fake.first_name()}
        for i in range(4)
    }
    posts = {}
    for i in range(10):
        post_id = f"p{number}x{i}"
        posts[post_id] = {
            "id": post_id,
            "create_at": 1_700_000_000_000 + i * 1000,
            "user_id": f"u{rng.randrange(4)}",
            "root_id": "" if i == 0 else f"p{number}x0",
            "message": f"@{fake.user_name()} {fake.sentence()}",
        }
    export = ThreadExport.model_validate(
        {"posts": posts, "users": users, "channel": {"id": "c1", "name": "dev"}}
    )
    fixture = Fixture(
        id=_id("thread", number),
        kind="thread",
        category="clean",
        status="active",
        title=f"thread {number}",
        created_at=TIME,
        provenance=_provenance(f"t{number}.json", "mattermost"),
    )
    labels = LabelRevision(
        rev=1,
        time=TIME,
        author="bench",
        source="manual",
        rubrics=[Rubric(text=fake.sentence()), Rubric(text=fake.sentence())],
    )
    return fixture, ThreadContent(export=export), [labels]


def _variant(rng: random.Random, number: int, parent: str):
    fixture, content, labels = _LEASES[parent]
    page = content.pages[0]
    cut = DocumentContent(
        pages=[page.model_copy(update={"text": page.text[: len(page.text) // 2 + 40]})]
    )
    variant = fixture.model_copy(
        update={
            "id": _id("variant", number),
            "category": "truncated",
            "lineage": Lineage(
                parent=parent,
                parent_label_rev=1,
                mutations=[MutationStep(name="truncate", params={"fraction": 0.5}, seed=number)],
            ),
        }
    )
    return variant, cut, labels


class Timing:
    """Wall-clock and CPU seconds of one run: on a shared, busy machine the CPU time is the
    steadier of the two, the wall time the honest one; both are printed."""

    def __init__(self, wall: float, cpu: float) -> None:
        self.wall, self.cpu = wall, cpu

    def __str__(self) -> str:
        return f"{self.wall:8.3f}s wall {self.cpu:8.3f}s cpu"


def timed(action) -> Timing:
    wall, cpu = time.perf_counter(), time.process_time()
    action()
    return Timing(time.perf_counter() - wall, time.process_time() - cpu)


def best(timings: list[Timing]) -> Timing:
    return Timing(min(t.wall for t in timings), min(t.cpu for t in timings))


def cold_build(store: Store) -> Timing:
    """A first build: no bundles, no cache."""
    shutil.rmtree(store.bundles_dir, ignore_errors=True)
    shutil.rmtree(store.local_path("cache"), ignore_errors=True)
    settle()
    return timed(lambda: build_bundle(store, "1.0.0"))


def settle() -> None:
    """Flush what the previous step wrote (generation, deleting the last bundle), so the
    build is not timed paying for another step's writeback."""
    os.sync()
    time.sleep(1)


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000", help="two store sizes, small,large")
    parser.add_argument("--full", action="store_true", help="1,000 and 10,000 fixtures")
    parser.add_argument("--repeat", type=int, default=3, help="cold builds per size (best counts)")
    args = parser.parse_args()
    small, large = (1000, 10000) if args.full else (int(x) for x in args.sizes.split(","))
    os.environ.setdefault("SOURCE_DATE_EPOCH", "1767225600")
    # Warm the heavy imports once so neither size pays for them.
    import datasets  # noqa: F401
    import pyarrow.parquet  # noqa: F401

    work = Path(tempfile.mkdtemp(prefix="curator-bench-"))
    try:
        cold: dict[int, Timing] = {}
        stores = {}
        for size in (small, large):
            start = time.perf_counter()
            stores[size] = generate(work / f"store-{size}", size)
            print(f"generated {size:>6} fixtures in {time.perf_counter() - start:6.2f}s")
            settle()
            cold[size] = best([cold_build(stores[size]) for _ in range(args.repeat)])
            print(f"cold build          {size:>6} fixtures: {cold[size]}  (best of {args.repeat})")
        limit = large / small * 1.1
        wall_ratio, cpu_ratio = (
            cold[large].wall / cold[small].wall,
            cold[large].cpu / cold[small].cpu,
        )
        print(
            f"ratio {large}/{small}: {wall_ratio:.2f} wall, {cpu_ratio:.2f} cpu "
            f"(target <= {limit:.1f}) {verdict(wall_ratio <= limit)} wall, "
            f"{verdict(cpu_ratio <= limit)} cpu"
        )

        store = stores[large]
        settle()
        noop = best([timed(lambda: build_bundle(store, "1.0.0")) for _ in range(3)])
        wall_share, cpu_share = noop.wall / cold[large].wall, noop.cpu / cold[large].cpu
        print(
            f"no-change rebuild   {large:>6} fixtures: {noop}  (best of 3) = {wall_share:.1%} "
            f"wall, {cpu_share:.1%} cpu of cold (target < 10%) {verdict(wall_share < 0.10)} "
            f"wall, {verdict(cpu_share < 0.10)} cpu"
        )
        again = timed(lambda: build_bundle(store, "1.0.1"))
        print(
            f"new version, warm   {large:>6} fixtures: {again}  = "
            f"{again.wall / cold[large].wall:.1%} wall, {again.cpu / cold[large].cpu:.1%} cpu of "
            "cold (writes every format again; no target)"
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
