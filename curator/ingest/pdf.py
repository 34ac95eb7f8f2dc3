"""PDFs: text per page from pdfplumber's text layer; pages without usable text are OCRed.

`ocr` is "auto" (OCR only pages whose text layer is missing or garbage), "always" or
"never". Every page records its origin, OCR confidence and detected language.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from curator.errors import CuratorError
from curator.ingest.language import detect_language
from curator.ingest.source import Parsed, RawSource
from curator.model import DocumentContent, Page

if TYPE_CHECKING:
    from curator.ingest.ocr import OcrResult

IMPORTER = "pdf"
OCR_MODES = ("auto", "always", "never")
LOW_CONFIDENCE = 60.0
# A text layer with fewer letters/digits than this is treated as absent (a scan's stray marks).
MIN_USABLE_CHARS = 20
# Letters closer than this share of the font size are one word. pdfplumber's default, a fixed
# 3 pt, glues the small tightly set columns of real reports into one word ("BAIN,JMATTHEW" in
# the corpus's senate expenditures), where no detector can find the name; among the corpus's
# PDFs only that one reads differently at 0.15.
WORD_GAP = 0.15
_CID = re.compile(r"\(cid:\d+\)")


def usable_text(text: str) -> bool:
    """True when a text layer holds real text, not nothing or unmapped glyphs "(cid:12)"."""
    unmapped = len(_CID.findall(text))
    visible = _CID.sub("", text)
    alnum = sum(ch.isalnum() for ch in visible)
    return alnum >= MIN_USABLE_CHARS and unmapped * 5 < alnum


def open_pdf(source: RawSource):  # noqa: ANN201 - pdfplumber.PDF, imported lazily
    """pdfplumber's PDF, or one clear line saying why this is not a readable PDF."""
    if b"%PDF-" not in source.data[:1024]:
        raise CuratorError(f"{source.name}: not a PDF (no %PDF header)")
    import pdfplumber
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect

    try:
        pdf = pdfplumber.open(io.BytesIO(source.data))
        count = len(pdf.pages)
    except Exception as error:  # pdfminer raises many types for damaged files
        # pdfplumber wraps pdfminer's error; the original is its first argument.
        cause = error.args[0] if error.args and isinstance(error.args[0], Exception) else error
        if isinstance(cause, (PDFPasswordIncorrect, PDFEncryptionError)):
            raise CuratorError(f"{source.name}: password-protected PDF; decrypt it first") from None
        detail = str(cause) or type(cause).__name__
        raise CuratorError(f"{source.name}: corrupt PDF ({detail})") from None
    if count == 0:
        pdf.close()
        raise CuratorError(f"{source.name}: the PDF has no pages")
    return pdf


def text_layer(source: RawSource) -> list[str]:
    """Each page's text layer (may be empty or garbage)."""
    pdf = open_pdf(source)
    texts = []
    try:
        for page in pdf.pages:
            try:
                texts.append(page.extract_text(x_tolerance_ratio=WORD_GAP) or "")
            except Exception as error:  # a damaged content stream on one page
                raise CuratorError(
                    f"{source.name}: corrupt PDF page {page.page_number} ({type(error).__name__})"
                ) from None
            page.close()  # frees its parsed objects; long PDFs stay small in memory
    finally:
        pdf.close()
    return texts


def check_pdf(source: RawSource) -> None:
    """Fail fast on unreadable PDFs (before any slow OCR of other sources)."""
    open_pdf(source).close()


@dataclass
class PdfPlan:
    """A PDF's text layer read, and which of its pages (0-based) need OCR."""

    source: RawSource
    texts: list[str]
    to_ocr: list[int]


def plan_pdf(source: RawSource, ocr: str = "auto") -> PdfPlan:
    if ocr not in OCR_MODES:
        raise CuratorError(f"--ocr must be one of {', '.join(OCR_MODES)}, got {ocr!r}")
    texts = text_layer(source)
    to_ocr = [i for i, text in enumerate(texts)
              if ocr == "always" or (ocr == "auto" and not usable_text(text))]
    return PdfPlan(source, texts, to_ocr)


def parse_pdfs(sources: list[RawSource], *, ocr: str = "auto", workers: int | None = None,
               progress: bool = False) -> list[Parsed]:
    """Several PDFs, their OCR pages sharing one worker pool; one Parsed per PDF, in order."""
    plans = [plan_pdf(source, ocr) for source in sources]
    jobs = [(str(plan.source.path), index) for plan in plans for index in plan.to_ocr]
    results: Iterator[OcrResult] = iter([])
    if jobs:
        from curator.ingest.ocr import ocr_pages

        results = iter(ocr_pages(jobs, workers=workers, progress=progress))
    return [finish_pdf(plan, {index: next(results) for index in plan.to_ocr}) for plan in plans]


def parse_pdf(source: RawSource, *, ocr: str = "auto", workers: int | None = None,
              progress: bool = False) -> list[Parsed]:
    """One PDF: text layer per page, OCR where `ocr` says, language per page."""
    return parse_pdfs([source], ocr=ocr, workers=workers, progress=progress)


def finish_pdf(plan: PdfPlan, results: dict[int, OcrResult]) -> Parsed:
    """Pages from the text layer or their OCR result, each with its language; warnings."""
    pages, warnings = [], []
    for index, text in enumerate(plan.texts):
        number = index + 1
        if index in results:
            result = results[index]
            page = Page(number=number, text=result.text, origin="ocr", ocr_confidence=result.confidence)
            if result.confidence < LOW_CONFIDENCE:
                warnings.append(f"page {number}: low OCR confidence {result.confidence:.0f}")
            if result.rotation:
                warnings.append(f"page {number}: scanned sideways, turned {result.rotation} degrees")
        else:
            page = Page(number=number, text=text, origin="text-layer")
            if not usable_text(text):
                warnings.append(f"page {number}: no usable text layer and --ocr never; kept as is")
        page.language = detect_language(page.text)
        pages.append(page)
    return Parsed(DocumentContent(pages=pages), IMPORTER, warnings=warnings)
