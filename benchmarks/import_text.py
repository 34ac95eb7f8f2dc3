"""Text-layer import overhead: curator vs a bare pdfplumber extract_text loop, same PDF.

    python benchmarks/import_text.py [--pages 20] [--full]

Times, in one run, on a synthetic text-layer lease PDF:
  baseline: pdfplumber.open(...) and page.extract_text() for every page;
  curator:  the PDF reader (text layer, usable-text check, language per page), and with
            --full the whole import_sources() into a fresh store (suggestions, anonymisation).
It prints the overhead ratio curator / baseline (target: under 1.3x).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from _pdfs import text_pdf


def bare_pdfplumber(path: Path) -> list[str]:
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


def curator_reader(path: Path) -> float:
    from curator.ingest.pdf import parse_pdf
    from curator.ingest.source import read_source

    start = time.perf_counter()
    [parsed] = parse_pdf(read_source(path), ocr="auto")
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs each")
    parser.add_argument("--full", action="store_true", help="also time the whole import_sources()")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "lease.pdf"
        path.write_bytes(text_pdf(args.pages))
        from curator.ingest.language import detect_language

        detect_language("warm up the language profiles once, as any long-running import would")
        baseline = best_of(args.repeat, lambda: bare_pdfplumber(path))
        reader = best_of(args.repeat, lambda: curator_reader(path))
        print(f"pages: {args.pages}  best of {args.repeat}")
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
            print(f"curator import_sources, with suggestions and anonymisation: {full:.3f} s "
                  f"({full / baseline:.2f}x)")


if __name__ == "__main__":
    main()
