"""OCR of PDF pages: render, fix orientation and skew, Tesseract with per-page confidence.

Pages run in parallel across processes, each worker limited to one Tesseract thread
(OMP_THREAD_LIMIT=1): Tesseract's own OpenMP threads fight each other on a busy machine,
while one page per core scales. Workers render their own pages from the file path so no
images cross process boundaries.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Any

DPI = 300
# Below this mean word confidence a page is retried after orientation and skew correction.
RETRY_CONFIDENCE = 80.0
MAX_SKEW_DEGREES = 5.0


@dataclass(frozen=True)
class OcrResult:
    text: str
    confidence: float
    rotation: int = 0  # degrees the page image was turned (clockwise) before OCR
    skew: float = 0.0  # degrees of deskew applied


def render_page(path: str, index: int, dpi: int = DPI) -> Any:
    """A PIL image of page `index` (0-based) at `dpi`, greyscale."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(path)
    try:
        bitmap = document[index].render(scale=dpi / 72, grayscale=True)
        return bitmap.to_pil().convert("L")
    finally:
        document.close()


def recognise(image: Any) -> tuple[str, float]:
    """Tesseract text and mean word confidence (0-100) from a single Tesseract run."""
    import pytesseract

    text, tsv = pytesseract.run_and_get_multiple_output(image, extensions=["txt", "tsv"])
    return text.replace("\f", "").strip(), mean_confidence(tsv)


def mean_confidence(tsv: str) -> float:
    scores = []
    for row in tsv.splitlines()[1:]:
        columns = row.split("\t")
        if len(columns) == 12 and columns[11].strip():
            try:
                score = float(columns[10])
            except ValueError:
                continue
            if score >= 0:
                scores.append(score)
    return round(sum(scores) / len(scores), 2) if scores else 0.0


def orientation(image: Any) -> int:
    """Clockwise degrees that make the page upright, from Tesseract's OSD (0 when unsure)."""
    import pytesseract

    try:
        osd = pytesseract.image_to_osd(image, output_type=pytesseract.Output.DICT)
    except pytesseract.TesseractError:
        return 0  # too little text to tell
    return int(osd.get("rotate", 0)) % 360


def skew_angle(image: Any) -> float:
    """Small-angle skew by projection profile: the angle whose text rows are sharpest."""
    import numpy as np

    small = image.copy()
    small.thumbnail((900, 900))
    small = small.point(lambda v: 255 if v < 160 else 0)  # ink white on black for rotation fill

    def sharpness(angle: float) -> float:
        rows = np.asarray(small.rotate(angle, fillcolor=0), dtype=np.float32).sum(axis=1)
        return float(np.var(np.diff(rows)))

    coarse = [a / 2 for a in range(int(-2 * MAX_SKEW_DEGREES), int(2 * MAX_SKEW_DEGREES) + 1)]
    best = max(coarse, key=sharpness)
    fine = [best + a / 10 for a in range(-5, 6)]
    sharpest: float = max(fine, key=sharpness)
    return round(sharpest, 2)


def straighten(image: Any) -> tuple[Any, int, float]:
    from PIL import Image

    rotation = orientation(image)
    if rotation:
        image = image.rotate(-rotation, expand=True, fillcolor=255)
    skew = skew_angle(image)
    if abs(skew) >= 0.2:
        image = image.rotate(skew, expand=True, fillcolor=255, resample=Image.Resampling.BICUBIC)
    return image, rotation, skew


def ocr_image(image: Any) -> OcrResult:
    """OCR as is; when confidence is low, straighten the page and keep the better reading."""
    text, confidence = recognise(image)
    if confidence >= RETRY_CONFIDENCE and text:
        return OcrResult(text, confidence)
    fixed, rotation, skew = straighten(image)
    if not rotation and abs(skew) < 0.2:
        return OcrResult(text, confidence)
    text2, confidence2 = recognise(fixed)
    if confidence2 > confidence:
        return OcrResult(text2, confidence2, rotation, skew)
    return OcrResult(text, confidence)


def ocr_page(path: str, index: int) -> OcrResult:
    """Worker entry point: render and OCR one page (0-based index)."""
    return ocr_image(render_page(path, index))


def _checked(run: Any, job: tuple[str, int]) -> OcrResult:
    """A page's result, or one clear line naming the file and page whose OCR failed."""
    from curator.errors import CuratorError

    try:
        return run()
    except Exception as error:  # Tesseract missing or crashing, a worker killed, a bad image
        detail = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise CuratorError(f"{os.path.basename(job[0])}: OCR of page {job[1] + 1} failed: {detail}") from None


def _one_tesseract_thread() -> None:
    os.environ["OMP_THREAD_LIMIT"] = "1"


def ocr_pages(jobs: list[tuple[str, int]], *, workers: int | None = None,
              progress: bool = False) -> list[OcrResult]:
    """OCR (pdf path, 0-based page index) jobs, in parallel across processes; results in job order.

    Pages of several PDFs share one pool, so an import of many one-page scans uses every core.
    """
    from concurrent.futures import ProcessPoolExecutor, as_completed

    if not jobs:
        return []
    workers = max(1, min(workers or os.cpu_count() or 1, len(jobs)))
    results: list[OcrResult | None] = [None] * len(jobs)
    bar = _progress_bar(len(jobs), progress)
    try:
        if workers == 1:
            for n, (path, index) in enumerate(jobs):
                results[n] = _checked(lambda path=path, index=index: ocr_page(path, index), jobs[n])
                bar.update(1)
        else:
            with ProcessPoolExecutor(max_workers=workers, initializer=_one_tesseract_thread) as pool:
                futures = {pool.submit(ocr_page, path, index): n for n, (path, index) in enumerate(jobs)}
                for future in as_completed(futures):
                    n = futures[future]
                    results[n] = _checked(future.result, jobs[n])
                    bar.update(1)
    finally:
        bar.close()
    return [r for r in results if r is not None]


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress_bar(total: int, shown: bool) -> Any:
    if not shown:
        return _NoBar()
    import click

    bar = click.progressbar(length=total, label="OCR", file=sys.stderr)
    bar.__enter__()

    class _Bar:
        def update(self, n: int) -> None:
            bar.update(n)

        def close(self) -> None:
            bar.__exit__(None, None, None)

    return _Bar()
