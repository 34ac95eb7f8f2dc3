"""PDFs: each page's text from pdfplumber's text layer (curator/ingest/documents.py decides
which pages to OCR instead).

A PDF is checked before its pages are read: its header, that it opens, that it is not
encrypted, and its page count against [limits] max_pages (counted by pdfium from the page
tree, before pdfplumber builds a page object for each); and before a page is rendered for
OCR, the images on it against [limits] max_image_mb.
"""

from __future__ import annotations

import io
import re

from curator.errors import CuratorError
from curator.ingest.source import RawSource
from curator.limits import DEFAULT, hint, too_big
from curator.model import MIB, LimitSettings
from curator.workers import forked_map, forked_workers

IMPORTER = "pdf"
# A text layer with fewer letters/digits than this is treated as absent (a scan's stray marks).
MIN_USABLE_CHARS = 20
# Letters closer than this share of the font size are one word. pdfplumber's default, a fixed
# 3 pt, glues the small tightly set columns of real reports into one word ("BAIN,JMATTHEW" in
# the corpus's senate expenditures), where no detector can find the name; among the corpus's
# PDFs only that one reads differently at 0.15.
WORD_GAP = 0.15
# A text layer is parsed in forked workers from this many pages per core: parsing a page of a
# real report takes pdfplumber a good part of a second, forking one worker about 30 ms.
PAGES_PER_WORKER = 4
_CID = re.compile(r"\(cid:\d+\)")


def usable_text(text: str) -> bool:
    """True when a text layer holds real text, not nothing or unmapped glyphs "(cid:12)"."""
    unmapped = len(_CID.findall(text))
    visible = _CID.sub("", text)
    alnum = sum(ch.isalnum() for ch in visible)
    return alnum >= MIN_USABLE_CHARS and unmapped * 5 < alnum


def open_pdf(source: RawSource, limits: LimitSettings = DEFAULT):  # noqa: ANN201 - pdfplumber.PDF, imported lazily
    """pdfplumber's PDF, or one clear line saying why this is not a readable PDF."""
    if b"%PDF-" not in source.data[:1024]:
        raise CuratorError(f"{source.name}: not a PDF (no %PDF header)")
    _check_page_count(source, limits)
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
        # The parser's message is not shown: it can quote the file's own bytes.
        raise CuratorError(f"{source.name}: corrupt PDF ({type(cause).__name__})") from None
    if count == 0:
        pdf.close()
        raise CuratorError(f"{source.name}: the PDF has no pages")
    return pdf


def _check_page_count(source: RawSource, limits: LimitSettings) -> None:
    import pypdfium2 as pdfium

    try:
        document = pdfium.PdfDocument(source.data)
    except pdfium.PdfiumError:
        return  # pdfplumber says why, in its words
    try:
        count = len(document)
    finally:
        document.close()
    if count > limits.max_pages:
        raise CuratorError(
            f"{source.name}: {count} pages is over the limit of {limits.max_pages} "
            f"({hint('max_pages')})"
        )


def check_page_images(source: RawSource, pages: list[int], limits: LimitSettings = DEFAULT) -> None:
    """Refuse (one line) before rendering when an image on one of `pages` (0-based) would
    take more memory decoded than [limits] max_image_mb: rendering decodes it whole, however
    small the page is drawn. Sizes come from the image dictionaries; nothing is decoded."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_raw

    limit = limits.max_image_mb * MIB
    document = pdfium.PdfDocument(source.data)
    try:
        for index in pages:
            for image in document[index].get_objects(filter=(pdfium_raw.FPDF_PAGEOBJ_IMAGE,)):
                width, height = image.get_px_size()
                bits = image.get_metadata().bits_per_pixel  # 0: pdfium cannot tell without decoding
                cost = (
                    width * height * (bits if 0 < bits <= 8 else 32) // 8
                )  # colour is held as 4 bytes
                if cost > limit:
                    raise CuratorError(
                        f"{source.name}: page {index + 1} holds a {width} x {height} image that "
                        f"decodes to {too_big(cost, limit, 'max_image_mb')}"
                    )
    finally:
        document.close()


def text_layer(
    source: RawSource, limits: LimitSettings = DEFAULT, workers: int | None = None
) -> list[str]:
    """Each page's text layer (may be empty or garbage). A long PDF is parsed in forked
    workers, one per core (`workers` at most), each reading every n-th page of its copy of
    the opened PDF."""
    pdf = open_pdf(source, limits)
    try:
        count = len(pdf.pages)
        parts = forked_workers(workers, count // PAGES_PER_WORKER)
        if parts < 2:
            return _pages_text(pdf, source.name, range(count))
        texts = [""] * count
        for k, part in enumerate(
            forked_map(
                lambda pages: _pages_text(pdf, source.name, pages),
                [range(k, count, parts) for k in range(parts)],
            )
        ):
            texts[k::parts] = part
        return texts
    finally:
        pdf.close()


def _pages_text(pdf, name: str, pages: range) -> list[str]:  # noqa: ANN001 - pdfplumber.PDF, imported lazily
    texts = []
    for index in pages:
        page = pdf.pages[index]
        try:
            texts.append(page.extract_text(x_tolerance_ratio=WORD_GAP) or "")
        except Exception as error:  # a damaged content stream on one page
            raise CuratorError(
                f"{name}: corrupt PDF page {page.page_number} ({type(error).__name__})"
            ) from None
        page.close()  # frees its parsed objects; long PDFs stay small in memory
    return texts


def check_pdf(source: RawSource, limits: LimitSettings = DEFAULT) -> None:
    """Fail fast on unreadable PDFs (before any slow OCR of other sources)."""
    open_pdf(source, limits).close()
