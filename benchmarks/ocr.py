"""OCR speed: curator's parallel OCR import vs a serial pytesseract loop, same scanned PDF.

    python benchmarks/ocr.py [--pages 8] [--workers N] [--full]

Builds an image-only PDF of synthetic lease pages, then in one run times
  baseline: render each page at 300 dpi and call pytesseract.image_to_string, one by one;
  curator:  the import's PDF reader (text-layer check, then OCR of every page in parallel
            processes with one Tesseract thread each, per-page confidence and language);
            with --full, the whole import_sources() into a fresh store as well
            (suggestions and anonymisation added).
It prints the times and the speed-up (target: at least 0.85 x the number of cores).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from _pdfs import scanned_pdf


def serial_pytesseract(path: Path, dpi: int = 300) -> list[str]:
    import pypdfium2 as pdfium
    import pytesseract

    document = pdfium.PdfDocument(str(path))
    texts = []
    for page in document:
        image = page.render(scale=dpi / 72, grayscale=True).to_pil()
        texts.append(pytesseract.image_to_string(image))
    document.close()
    return texts


def curator_reader(path: Path, workers: int | None) -> float:
    from curator.ingest.documents import parse_document
    from curator.ingest.source import read_source

    start = time.perf_counter()
    parsed = parse_document(read_source(path), ocr="auto", workers=workers)
    elapsed = time.perf_counter() - start
    assert all(page.origin == "ocr" for page in parsed.content.pages)
    return elapsed


def curator_import(path: Path, workers: int | None) -> float:
    from curator.ingest import import_sources
    from curator.store import Store

    with tempfile.TemporaryDirectory() as folder:
        store = Store.init(Path(folder) / "store")
        start = time.perf_counter()
        [created] = import_sources(store, [path], doc_type="lease", workers=workers).created
        elapsed = time.perf_counter() - start
    assert all(page["origin"] == "ocr" for page in created["pages"])
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=8)
    parser.add_argument("--workers", type=int, default=None, help="default: one per core")
    parser.add_argument("--full", action="store_true", help="also time the whole import_sources()")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "scan.pdf"
        path.write_bytes(scanned_pdf(args.pages))
        start = time.perf_counter()
        serial_pytesseract(path)
        baseline = time.perf_counter() - start
        ours = curator_reader(path, args.workers)
        print(f"pages: {args.pages}  cores: {cores}  workers: {args.workers or cores}")
        print(f"serial pytesseract loop: {baseline:.2f} s")
        print(f"curator PDF reader (parallel OCR): {ours:.2f} s")
        print(
            f"speed-up: {baseline / ours:.2f}x  (target >= {0.85 * cores:.2f}x = 0.85 x {cores} "
            "cores)"
        )
        if args.full:
            from curator.errors import CuratorError

            try:
                full = curator_import(path, args.workers)
            except CuratorError as error:  # the anonymiser refusing is a result, not a crash
                print(f"curator import_sources failed: {error}")
                return
            print(
                f"curator import_sources (OCR, suggestions, anonymisation): {full:.2f} s "
                f"(speed-up {baseline / full:.2f}x)"
            )


if __name__ == "__main__":
    main()
