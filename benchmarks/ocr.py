"""OCR speed: curator's parallel OCR import vs a serial pytesseract loop, same scanned PDF.

    python benchmarks/ocr.py [--pages 8] [--workers N]

Builds an image-only PDF of synthetic lease pages, then in one run times
  baseline: render each page at 300 dpi and call pytesseract.image_to_string, one by one;
  curator:  import_sources() into a fresh store (OCR in parallel processes, one Tesseract
            thread each, plus text-layer check, language, suggestions and anonymisation).
It prints both times and the speed-up (target: at least 0.85 x the number of cores).
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
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "scan.pdf"
        path.write_bytes(scanned_pdf(args.pages))
        start = time.perf_counter()
        serial_pytesseract(path)
        baseline = time.perf_counter() - start
        ours = curator_import(path, args.workers)
    speedup = baseline / ours
    print(f"pages: {args.pages}  cores: {cores}  workers: {args.workers or cores}")
    print(f"serial pytesseract loop: {baseline:.2f} s")
    print(f"curator import (parallel OCR): {ours:.2f} s")
    print(f"speed-up: {speedup:.2f}x  (target >= {0.85 * cores:.2f}x = 0.85 x {cores} cores)")


if __name__ == "__main__":
    main()
