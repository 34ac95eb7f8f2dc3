"""Text-layer import overhead: curator vs a bare pdfplumber extract_text loop, same PDF.

    python benchmarks/import_text.py [--pages 20] [--full]
    python benchmarks/import_text.py --store-size 10000

Times, in one run, on a synthetic text-layer lease PDF:
  baseline: pdfplumber.open(...) and page.extract_text() for every page;
  curator:  the PDF reader (text layer, usable-text check, language per page), and with
            --full the whole import_sources() into a fresh store (suggestions, anonymisation).
It prints the overhead ratio curator / baseline (target: under 1.3x).

With --store-size N it instead times import_sources() of one small PDF into a store of N
fixtures against the same import into an empty store (baseline), and prints the ratio
(target: <= 1.5x): an import must not get slower as the store grows. The N fixtures are
written in one store transaction, not imported one by one.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import tempfile
import time
from pathlib import Path

from _pdfs import generator, lease_text_pages, text_pdf
from _stores import no_fsync

STORE_TARGET = 1.5


def bare_pdfplumber(path: Path) -> list[str]:
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


def curator_reader(path: Path) -> float:
    from curator.ingest.documents import parse_document
    from curator.ingest.source import read_source

    start = time.perf_counter()
    parsed = parse_document(read_source(path), ocr="auto")
    elapsed = time.perf_counter() - start
    assert all(page.origin == "text-layer" for page in parsed.content.pages)
    return elapsed


def curator_import(path: Path) -> float:
    from curator.ingest import import_sources
    from curator.store import Store

    with tempfile.TemporaryDirectory() as folder:
        store = Store.init(Path(folder) / "store")
        start = time.perf_counter()
        import_sources(store, [path], doc_type="lease")
        return time.perf_counter() - start


def best_of(repeat: int, run) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        extra = run()
        times.append(extra if isinstance(extra, float) else time.perf_counter() - start)
    return min(times)


# ------------------------------------------------------------------ --store-size


def numbered_pdf(pages: int, number: int) -> bytes:
    """The same lease with a reference number on its last page: a new source each time."""
    lines = lease_text_pages(pages)
    lines[-1] = [*lines[-1], f"Reference number {number:06d}"]
    return generator().text_pdf(lines)


def filled_store(root: Path, size: int):
    """A store holding `size` small lease fixtures, written in one transaction (as any
    write, with the source index the next import uses)."""
    from curator.model import DocumentContent, Fixture, Page, Provenance
    from curator.store import Store, fixture_id

    store = Store.init(root)
    with no_fsync(), store.transaction() as txn:
        for number in range(size):
            text = (
                f"RESIDENTIAL LEASE AGREEMENT\nReference number {number:06d}\n"
                "Monthly Rent: $1,250.00\n"
            )
            source = hashlib.sha256(text.encode()).hexdigest()
            fixture = Fixture(
                id=fixture_id(f"lease {number}", text.encode()),
                kind="document",
                doc_type="lease",
                category="clean",
                created_at="2026-01-01T00:00:00Z",
                provenance=Provenance(
                    source_sha256=source,
                    source_name=f"lease-{number}.pdf",
                    importer="pdf",
                    imported_at="2026-01-01T00:00:00Z",
                ),
            )
            content = DocumentContent(
                pages=[Page(number=1, text=text, origin="text-layer", language="en")]
            )
            txn.create_fixture(fixture, content, [])
    return store


def timed_import(store, path: Path) -> float:
    from curator.ingest import import_sources

    start = time.perf_counter()
    report = import_sources(store, [path], doc_type="lease")
    elapsed = time.perf_counter() - start
    assert len(report.created) == 1, report.as_dict()
    return elapsed


def store_size_comparison(size: int, pages: int, repeat: int) -> None:
    from curator.source_index import SOURCES_FILE
    from curator.store import Store

    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        pdfs = []
        for number in range(repeat + 2):
            pdfs.append(base / f"lease-{number}.pdf")
            pdfs[-1].write_bytes(numbered_pdf(pages, number))
        # Warm up once (language profiles, NER models): a long-running import pays it once.
        timed_import(Store.init(base / "warm"), pdfs[0])
        start = time.perf_counter()
        big = filled_store(base / "big", size)
        print(f"wrote a store of {size} fixtures in {time.perf_counter() - start:.1f} s")
        os.sync()  # its writeback would otherwise land on the fsyncs of the timed imports
        empty_times, big_times = [], []
        for number, pdf in enumerate(pdfs[1:-1], start=1):  # interleaved: drift hits both alike
            empty_times.append(timed_import(Store.init(base / f"empty-{number}"), pdf))
            big_times.append(timed_import(big, pdf))
        empty, full = min(empty_times), min(big_times)
        print(f"pages: {pages}  best of {repeat}")
        print(f"import into an empty store: {empty:.3f} s")
        print(f"import into a store of {size} fixtures: {full:.3f} s")
        print(f"ratio: {full / empty:.2f}x  (target <= {STORE_TARGET}x)")
        # For information: the one import that pays for rebuilding a lost source index.
        big.local_path(SOURCES_FILE).unlink()
        rebuilt = timed_import(Store(big.root), pdfs[-1])
        print(
            f"once, after .curator/{SOURCES_FILE} was deleted (rebuilt from the fixtures): "
            f"{rebuilt:.3f} s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--pages", type=int, default=None, help="pages per PDF (20; 2 with --store-size)"
    )
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs each")
    parser.add_argument("--full", action="store_true", help="also time the whole import_sources()")
    parser.add_argument(
        "--store-size",
        type=int,
        default=None,
        help="time one import into a store of this many fixtures vs an empty one",
    )
    args = parser.parse_args()
    if args.store_size is not None:
        store_size_comparison(args.store_size, args.pages or 2, args.repeat)
        return
    pages = args.pages or 20
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "lease.pdf"
        path.write_bytes(text_pdf(pages))
        from curator.ingest.language import detect_language

        detect_language("warm up the language profiles once, as any long-running import would")
        baseline = best_of(args.repeat, lambda: bare_pdfplumber(path))
        reader = best_of(args.repeat, lambda: curator_reader(path))
        print(f"pages: {pages}  best of {args.repeat}")
        print(f"bare pdfplumber extract_text loop: {baseline:.3f} s")
        print(f"curator PDF reader: {reader:.3f} s")
        print(f"overhead: {reader / baseline:.2f}x  (target < 1.3x)")
        if args.full:
            from curator.errors import CuratorError

            try:
                full = best_of(1, lambda: curator_import(path))
            except CuratorError as error:  # the anonymiser refusing is a result, not a crash
                print(f"curator import_sources failed: {error}")
                return
            print(
                f"curator import_sources, with suggestions and anonymisation: {full:.3f} s "
                f"({full / baseline:.2f}x)"
            )


if __name__ == "__main__":
    main()
