"""Documents: PDFs and scanned images become pages of text.

A PDF page's text comes from its text layer (curator/ingest/pdf.py); a page without a
usable one, and every page of a scanned image (curator/ingest/image.py), is read by OCR
(curator/ingest/ocr.py). The OCR pages of every document of an import share one pool of
workers. `ocr` is "auto" (OCR only pages whose text layer is missing or garbage), "always"
or "never". Every page records its origin, OCR confidence and detected language. A PDF
form's filled fields (curator/ingest/forms.py) follow their page's text, however it was
read, as "name: value" lines after a blank line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import TYPE_CHECKING, TypeVar

from curator.errors import CuratorError
from curator.ingest import forms, image, pdf
from curator.ingest.language import detect_language
from curator.ingest.source import Parsed, RawSource
from curator.limits import DEFAULT
from curator.model import DocumentContent, LimitSettings, Page

if TYPE_CHECKING:
    from curator.ingest.ocr import OcrResult

T = TypeVar("T")
OCR_MODES = ("auto", "always", "never")
LOW_CONFIDENCE = 60.0


@dataclass
class DocumentPlan:
    """A document's pages as read so far, and which of them (0-based) need OCR."""

    source: RawSource
    importer: str
    texts: list[str]  # each page's text layer; "" for an image's pages
    to_ocr: list[int]
    form: forms.FormText = field(default_factory=lambda: forms.FormText([]))


def is_image(path: PurePath) -> bool:
    return path.suffix.lower() in image.SUFFIXES


def check_document(source: RawSource, limits: LimitSettings = DEFAULT) -> None:
    """Fail fast on an unreadable or oversized document (before any slow OCR of others)."""
    if is_image(source.path):
        image.frame_sizes(source, limits)
    else:
        pdf.check_pdf(source, limits)


def plan_document(
    source: RawSource,
    ocr: str = "auto",
    limits: LimitSettings = DEFAULT,
    workers: int | None = None,
) -> DocumentPlan:
    if ocr not in OCR_MODES:
        raise CuratorError(f"--ocr must be one of {', '.join(OCR_MODES)}, got {ocr!r}")
    if is_image(source.path):
        if ocr == "never":
            raise CuratorError(
                f"{source.name}: an image is read by OCR only; --ocr never leaves it nothing"
            )
        pages = len(image.frame_sizes(source, limits))
        return DocumentPlan(source, image.IMPORTER, [""] * pages, list(range(pages)))
    texts = pdf.text_layer(source, limits, workers)
    to_ocr = [
        i
        for i, text in enumerate(texts)
        if ocr == "always" or (ocr == "auto" and not pdf.usable_text(text))
    ]
    pdf.check_page_images(source, to_ocr, limits)
    return DocumentPlan(source, pdf.IMPORTER, texts, to_ocr, forms.read_form(source, len(texts)))


def parse_documents(
    sources: list[RawSource],
    *,
    ocr: str = "auto",
    workers: int | None = None,
    progress: bool = False,
    limits: LimitSettings = DEFAULT,
    keep_going: bool = False,
) -> list[Parsed | CuratorError]:
    """Several documents, their OCR pages sharing one worker pool; one Parsed each, in order.

    The first bad document raises; with `keep_going` its error takes its place instead.
    """
    plans = [
        _attempt(lambda source=source: plan_document(source, ocr, limits, workers), keep_going)  # type: ignore[misc]
        for source in sources
    ]
    ready = [plan for plan in plans if isinstance(plan, DocumentPlan)]
    results: list[OcrResult | CuratorError] = []
    if any(plan.to_ocr for plan in ready):
        from curator.ingest.ocr import PageJob, ocr_pages

        jobs = [
            PageJob(
                str(plan.source.path),
                index,
                plan.importer == image.IMPORTER,
                limits.max_page_pixels,
            )
            for plan in ready
            for index in plan.to_ocr
        ]
        results = ocr_pages(jobs, workers=workers, progress=progress, keep_going=keep_going)
    pages = iter(results)
    parsed: list[Parsed | CuratorError] = []
    for plan in plans:
        if isinstance(plan, CuratorError):
            parsed.append(plan)
            continue
        read = {index: next(pages) for index in plan.to_ocr}
        failed = [result for result in read.values() if isinstance(result, CuratorError)]
        parsed.append(failed[0] if failed else finish(plan, read))  # type: ignore[arg-type]
    return parsed


def parse_document(
    source: RawSource,
    *,
    ocr: str = "auto",
    workers: int | None = None,
    progress: bool = False,
    limits: LimitSettings = DEFAULT,
) -> Parsed:
    """One PDF or image: text layer per page, OCR where `ocr` says, language per page."""
    [parsed] = parse_documents([source], ocr=ocr, workers=workers, progress=progress, limits=limits)
    assert isinstance(parsed, Parsed)  # without keep_going an error is raised
    return parsed


def _attempt(step: Callable[[], T], keep_going: bool) -> T | CuratorError:
    try:
        return step()
    except CuratorError as error:
        if not keep_going:
            raise
        return error


def finish(plan: DocumentPlan, results: dict[int, OcrResult]) -> Parsed:
    """Pages from the text layer or their OCR result, each with its language; warnings."""
    pages, warnings = [], []
    for index, text in enumerate(plan.texts):
        number = index + 1
        if index in results:
            result = results[index]
            page = Page(
                number=number, text=result.text, origin="ocr", ocr_confidence=result.confidence
            )
            warnings += _ocr_warnings(number, result, plan.importer)
        else:
            page = Page(number=number, text=text, origin="text-layer")
            if not pdf.usable_text(text):
                warnings.append(f"page {number}: no usable text layer and --ocr never; kept as is")
        if index < len(plan.form.lines) and plan.form.lines[index]:
            page.text = "\n\n".join(filter(None, [page.text, "\n".join(plan.form.lines[index])]))
        page.language = detect_language(page.text)
        pages.append(page)
    warnings += plan.form.warnings
    return Parsed(DocumentContent(pages=pages), plan.importer, warnings=warnings)


def _ocr_warnings(number: int, result: OcrResult, importer: str) -> list[str]:
    warnings = []
    if result.confidence < LOW_CONFIDENCE:
        warnings.append(f"page {number}: low OCR confidence {result.confidence:.0f}")
    if result.rotation:
        warnings.append(f"page {number}: scanned sideways, turned {result.rotation} degrees")
    if result.kept < 1:
        of = "its size" if importer == image.IMPORTER else "300 dpi"
        warnings.append(
            f"page {number}: too large to OCR whole; read at {result.kept:.1%} of {of} "
            "([limits] max_page_pixels)"
        )
    return warnings
