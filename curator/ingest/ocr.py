"""OCR of document pages (PDF pages, scanned images): fix orientation and skew, Tesseract
with per-page confidence.

Pages run in parallel across processes, each worker limited to one Tesseract thread
(OMP_THREAD_LIMIT=1): Tesseract's own OpenMP threads fight each other on a busy machine,
while one page per core scales. Workers read their own pages from the file path so no
images cross process boundaries.

No page costs more than the pixel budget ([limits] max_page_pixels): a larger page is
rendered (or decoded) smaller, which is also what keeps it under Tesseract's 32767-pixel
side. Workers never outlive the import: each one and each Tesseract it starts gets the
Linux parent-death signal (SIGKILL), so a killed import leaves no process behind, and an
import stopped by SIGTERM or Ctrl-C kills its workers before it exits.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from curator.errors import CuratorError
from curator.ingest.pixels import fitted_scale
from curator.workers import available_cores, die_with_parent, start_worker

DPI = 300
# Below this mean word confidence a page is retried after orientation and skew correction.
RETRY_CONFIDENCE = 80.0
MAX_SKEW_DEGREES = 5.0


@dataclass(frozen=True)
class PageJob:
    """One page to OCR: page `index` (0-based) of the PDF or image file at `path`."""

    path: str
    index: int
    image: bool  # a scanned image file (PNG, JPEG, TIFF), else a PDF
    max_pixels: int


@dataclass(frozen=True)
class OcrResult:
    text: str
    confidence: float
    rotation: int = 0  # degrees the page image was turned (clockwise) before OCR
    skew: float = 0.0  # degrees of deskew applied
    # The share of each side's pixels the page was read at (of 300 dpi for a PDF page, of
    # the scan for an image): below 1 when it was over the pixel budget.
    kept: float = 1.0


def render_page(path: str, index: int, max_pixels: int, dpi: int = DPI) -> tuple[Any, float]:
    """A greyscale PIL image of PDF page `index` (0-based), at `dpi` or less when the page
    is too large for the pixel budget (the scale is chosen before rendering); and the share
    of `dpi` it was rendered at."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(path)
    try:
        page = document[index]
        width, height = page.get_size()  # points
        scale = fitted_scale(width, height, dpi / 72, max_pixels)
        bitmap = page.render(scale=scale, grayscale=True)
        return bitmap.to_pil().convert("L"), min(1.0, scale * 72 / dpi)
    finally:
        document.close()


def page_image(job: PageJob) -> tuple[Any, float]:
    if job.image:
        from curator.ingest.image import load_frame

        return load_frame(job.path, job.index, job.max_pixels)
    return render_page(job.path, job.index, job.max_pixels)


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


def ocr_page(job: PageJob) -> OcrResult:
    """Worker entry point: render (or decode) and OCR one page."""
    image, kept = page_image(job)
    result = ocr_image(image)
    return (
        result
        if kept >= 1
        else OcrResult(result.text, result.confidence, result.rotation, result.skew, round(kept, 3))
    )


def _checked(
    run: Callable[[], OcrResult], job: PageJob, keep_going: bool
) -> OcrResult | CuratorError:
    """A page's result, or one clear line naming the file and page whose OCR failed (raised,
    or with `keep_going` returned)."""
    try:
        return run()
    except CuratorError as error:
        failure = error
    except Exception as error:  # Tesseract missing or crashing, a worker killed, a bad image
        detail = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        failure = CuratorError(
            f"{os.path.basename(job.path)}: OCR of page {job.index + 1} failed: {detail}"
        )
    if not keep_going:
        raise failure
    return failure


def ocr_pages(
    jobs: list[PageJob],
    *,
    workers: int | None = None,
    progress: bool = False,
    keep_going: bool = False,
) -> list[OcrResult | CuratorError]:
    """OCR pages in parallel across processes; results in job order.

    Pages of several files share one pool, so an import of many one-page scans uses every core.
    A failed page raises; with `keep_going` its error takes its place.
    """
    if not jobs:
        return []
    workers = max(1, min(workers or available_cores(), len(jobs)))
    results: list[OcrResult | CuratorError | None] = [None] * len(jobs)
    bar = _progress_bar(len(jobs), progress)
    try:
        if workers == 1:
            _tesseract_dies_with_us()
            for n, job in enumerate(jobs):
                results[n] = _checked(functools.partial(ocr_page, job), job, keep_going)
                bar.update(1)
        else:
            _in_pool(jobs, workers, results, bar, keep_going)
    finally:
        bar.close()
    return [r for r in results if r is not None]


def _in_pool(
    jobs: list[PageJob],
    workers: int,
    results: list[OcrResult | CuratorError | None],
    bar: Any,
    keep_going: bool,
) -> None:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    before = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(
        max_workers=workers, initializer=_start_worker, initargs=(os.getpid(),)
    )
    try:
        futures = {pool.submit(ocr_page, job): n for n, job in enumerate(jobs)}
        for future in as_completed(futures):
            n = futures[future]
            results[n] = _checked(future.result, jobs[n], keep_going)
            bar.update(1)
    except BaseException:
        # A failed page, Ctrl-C or SIGTERM (see curator.cli.main): the pages still running
        # are not worth waiting for. Their Tesseracts die with them (parent-death signal).
        for worker in set(multiprocessing.active_children()) - before:
            worker.kill()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def _start_worker(parent: int) -> None:
    """Worker initializer: one Tesseract thread, and no life after the import's."""
    os.environ["OMP_THREAD_LIMIT"] = "1"
    start_worker(parent)
    _tesseract_dies_with_us()


def _tesseract_dies_with_us() -> None:
    """Every Tesseract pytesseract starts from this process gets the parent-death signal too,
    so killing a worker (or an inline import) never leaves a Tesseract running."""
    import pytesseract.pytesseract as engine

    if getattr(engine.subprocess_args, "dies_with_parent", False):
        return
    plain = engine.subprocess_args

    def subprocess_args(include_stdout: bool = True) -> dict[str, Any]:
        parent = os.getpid()
        return {**plain(include_stdout), "preexec_fn": lambda: die_with_parent(parent)}

    subprocess_args.dies_with_parent = True  # type: ignore[attr-defined]
    engine.subprocess_args = subprocess_args


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
