"""PDFs through real pdfplumber and Tesseract: text layer, OCR fallback, rotation, language."""

from __future__ import annotations

import pytest

from curator.errors import CuratorError
from curator.ingest.documents import parse_document
from curator.ingest.language import detect_language
from curator.ingest.pdf import usable_text
from curator.ingest.source import RawSource, read_source
from curator.ingest.suggest import suggest_fields
from tests.ingest.conftest import EXAMPLES, TRUTH, cer, generate

CER_LIMIT = 0.03


def test_text_layer_pages_are_not_ocred():
    parsed = parse_document(read_source(EXAMPLES / "pdfs" / "lease-maple.pdf"))
    pages = parsed.content.pages
    assert [p.origin for p in pages] == ["text-layer", "text-layer"]
    assert all(p.ocr_confidence is None and p.language == "en" for p in pages)
    assert TRUTH["pdfs/lease-maple.pdf"]["fields"]["tenant"] in pages[0].text


def test_clean_300dpi_scan_ocr_is_under_3_percent_cer(clean_scan):
    path, truth = clean_scan
    parsed = parse_document(read_source(path), workers=1)
    [page] = parsed.content.pages
    assert page.origin == "ocr" and page.ocr_confidence > 80
    rate = cer(page.text, truth)
    print(f"CER on clean 300 dpi scan: {rate:.4f}")
    assert rate < CER_LIMIT


def test_ocr_never_keeps_an_empty_page_and_warns(clean_scan):
    path, _ = clean_scan
    parsed = parse_document(read_source(path), ocr="never")
    [page] = parsed.content.pages
    assert page.origin == "text-layer" and not usable_text(page.text) and page.language is None
    assert parsed.warnings == ["page 1: no usable text layer and --ocr never; kept as is"]


def test_ocr_always_reads_text_pages_too(tmp_path):
    path = tmp_path / "short.pdf"
    path.write_bytes(
        generate.text_pdf(
            [["INVOICE", "Invoice Number: INV-2024-0001", "Total Amount: $12.50"]], font_size=16
        )
    )
    parsed = parse_document(read_source(path), ocr="always", workers=1)
    [page] = parsed.content.pages
    assert page.origin == "ocr" and page.ocr_confidence is not None
    assert "INV-2024-0001" in page.text


def test_skewed_noisy_multipage_scan_is_read_in_parallel_and_fields_found():
    name = "pdfs/lease-scanned.pdf"
    parsed = parse_document(read_source(EXAMPLES / name), workers=2)
    assert [p.origin for p in parsed.content.pages] == ["ocr", "ocr"]
    fields = suggest_fields(parsed.content, _spec("lease"))
    assert {k: v.value for k, v in fields.items()} == TRUTH[name]["fields"]


def test_sideways_scan_is_turned_upright():
    name = "pdfs/invoice-sideways-scan.pdf"
    parsed = parse_document(read_source(EXAMPLES / name), workers=1)
    [page] = parsed.content.pages
    assert page.ocr_confidence > 80
    assert any("turned 90 degrees" in w for w in parsed.warnings)
    fields = suggest_fields(parsed.content, _spec("invoice"))
    assert {k: v.value for k, v in fields.items()} == TRUTH[name]["fields"]


def test_language_is_detected_per_page_and_deterministically(tmp_path):
    french = [
        "CONTRAT DE BAIL",
        "Le locataire paie le loyer mensuel le premier jour de chaque mois.",
        "Le dépôt de garantie est restitué dans un délai de deux mois après la fin du bail.",
    ]
    english = [
        "LEASE",
        "The tenant pays the monthly rent on the first day of each month to the landlord.",
    ]
    path = tmp_path / "bilingual.pdf"
    path.write_bytes(generate.text_pdf([english, french]))
    parsed = parse_document(read_source(path))
    assert [p.language for p in parsed.content.pages] == ["en", "fr"]
    text = parsed.content.pages[1].text
    assert {detect_language(text) for _ in range(5)} == {"fr"}
    assert detect_language("ok 12") is None


def test_unmapped_glyph_text_layer_is_not_usable():
    assert not usable_text("(cid:12)(cid:13)(cid:14) " * 20 + "ab")
    assert not usable_text("  \n 3 \n")
    assert usable_text("Monthly Rent: $1,250.00 payable in advance")


def test_unknown_ocr_mode_is_bad_usage():
    with pytest.raises(CuratorError, match="--ocr must be one of"):
        parse_document(RawSource(EXAMPLES / "pdfs" / "lease-maple.pdf", b"%PDF-"), ocr="sometimes")


def _spec(doc_type: str):
    from curator.config import load_config
    from tests.conftest import REPO

    return load_config(REPO / "curator" / "data" / "curator.toml").doc_types[doc_type]


def test_several_pdfs_share_one_ocr_pool_and_keep_their_own_pages(clean_scan, tmp_path):
    from curator.ingest.documents import parse_documents

    path, truth = clean_scan
    text = EXAMPLES / "pdfs" / "invoice-harbor.pdf"
    other = tmp_path / "copy-scan.pdf"
    other.write_bytes(path.read_bytes() + b"\n")  # another file, same page
    first, middle, last = parse_documents(
        [read_source(path), read_source(text), read_source(other)], workers=2
    )
    assert [p.origin for p in middle.content.pages] == ["text-layer"]
    for parsed in (first, last):
        [page] = parsed.content.pages
        assert page.origin == "ocr" and cer(page.text, truth) < CER_LIMIT


def _corpus_pdf(name: str) -> RawSource:
    from tests.corpus import CORPUS_DIR

    return read_source(CORPUS_DIR / "pdfs" / name)


def test_a_long_text_layer_is_parsed_in_forked_workers_page_for_page(monkeypatch):
    """A real two-page report, with workers from two pages on: the same text, page by page."""
    from curator.ingest import pdf

    source = _corpus_pdf("pdfplumber-150109DSP-Milw-505-90D.pdf")
    alone = pdf.text_layer(source, workers=1)
    parts: list[int] = []
    real_forked_map = pdf.forked_map
    monkeypatch.setattr(
        pdf,
        "forked_map",
        lambda task, shares: parts.append(len(shares)) or real_forked_map(task, shares),
    )
    monkeypatch.setattr(pdf, "PAGES_PER_WORKER", 1)
    assert pdf.text_layer(source, workers=2) == alone
    assert parts == [2]
    assert len(alone) == 2 and all(pdf.usable_text(text) for text in alone)


def test_a_page_a_worker_cannot_parse_is_one_error_line(monkeypatch):
    """Fault injection: pdfplumber fails on page 2, which a forked worker reads."""
    import pdfplumber.page

    from curator.ingest import pdf

    real_extract = pdfplumber.page.Page.extract_text

    def extract_text(page: pdfplumber.page.Page, **options: object) -> str:
        if page.page_number == 2:
            raise ValueError("damaged content stream")
        return real_extract(page, **options)

    monkeypatch.setattr(pdfplumber.page.Page, "extract_text", extract_text)
    monkeypatch.setattr(pdf, "PAGES_PER_WORKER", 1)
    with pytest.raises(
        CuratorError,
        match=r"^pdfplumber-150109DSP-Milw-505-90D.pdf: corrupt PDF page 2 \(ValueError\)$",
    ):
        pdf.text_layer(_corpus_pdf("pdfplumber-150109DSP-Milw-505-90D.pdf"), workers=2)
