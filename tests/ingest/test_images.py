"""Scanned images import as documents through the same OCR as PDFs, and pages too large for
Tesseract are read smaller instead of failing. Real files from ../shared/corpus."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from curator.errors import CuratorError
from curator.ingest import import_sources
from curator.ingest.documents import parse_document
from curator.ingest.image import _greyscale, frame_sizes
from curator.ingest.source import RawSource, read_source
from curator.limits import DEFAULT, DOCUMENT_MEMORY_MB
from tests.conftest import subprocess_env
from tests.corpus import CORPUS_DIR as CORPUS
from tests.hostile.conftest import PEAK_RSS

TYPEWRITER = CORPUS / "images" / "ocrmypdf-typewriter.png"  # a typed recipe, in Dutch
BAIONA = CORPUS / "images" / "ocrmypdf-baiona_color.jpg"  # a colour map of Bayonne's transport
HUGEMONO = CORPUS / "pdfs" / "ocrmypdf-hugemono.pdf"  # one 35000 x 35000 monochrome image


def words(text: str) -> set[str]:
    return {w.strip(".,:;|").casefold() for w in text.split()}


@pytest.mark.parametrize(
    "path, expected",
    [
        (TYPEWRITER, {"linzensoep", "water", "uien"}),
        (BAIONA, {"baiona", "trenbideak"}),
    ],
)
def test_a_corpus_image_imports_as_a_one_page_scanned_document(store, path, expected):
    [created] = import_sources(store, [path]).created
    assert created["kind"] == "document" and [p["origin"] for p in created["pages"]] == ["ocr"]
    record = store.load(created["id"])
    assert record.fixture.provenance.importer == "image"
    assert expected <= words(record.content.pages[0].text)


def test_a_multi_page_tiff_imports_as_pages(store, tmp_path):
    from PIL import Image

    frames = [Image.open(TYPEWRITER).convert("L"), Image.open(BAIONA).convert("RGB")]
    scan = tmp_path / "scan.tiff"
    frames[0].save(scan, save_all=True, append_images=frames[1:], compression="tiff_lzw")
    assert frame_sizes(read_source(scan)) == [frames[0].size, frames[1].size]
    [created] = import_sources(store, [scan], workers=2).created
    pages = store.load(created["id"]).content.pages
    assert [p.number for p in pages] == [1, 2] and {p.origin for p in pages} == {"ocr"}
    assert "linzensoep" in words(pages[0].text) and "baiona" in words(pages[1].text)


def test_an_image_over_the_pixel_budget_is_decoded_smaller_and_still_read(tmp_path):
    """A JPEG scan 3 times the typewriter page's size a side (100 million pixels): JPEG's
    draft mode decodes it at a fraction, the text is still read, and the page says so."""
    from PIL import Image

    big = Image.open(TYPEWRITER).convert("L")
    big = big.resize((big.width * 3, big.height * 3))
    path = tmp_path / "big.jpg"
    big.save(path, quality=90)
    parsed = parse_document(read_source(path), workers=1)
    assert "linzensoep" in words(parsed.content.pages[0].text)
    assert any("too large to OCR whole; read at" in w for w in parsed.warnings), parsed.warnings


@pytest.mark.slow
def test_a_page_too_large_for_tesseract_is_downscaled_within_the_memory_bound(tmp_path):
    """hugemono: 35000 x 35000 pixels, over Tesseract's 32767 a side and 34 times the pixel
    budget. Read in a child process whose peak memory is measured (OCR included), started
    through tests/hostile/peak_rss.py: a child of pytest itself would start with the pytest
    worker's peak as its own (729 MB, once 1,025 MB, where the reading alone peaks at 527 MB)."""
    script = (
        "import sys, json\nfrom pathlib import Path\n"
        "from curator.ingest.documents import parse_document\n"
        "from curator.ingest.source import read_source\n"
        "p = parse_document(read_source(Path(sys.argv[1])), workers=1)\n"
        "print(json.dumps({'text': p.content.pages[0].text, 'warnings': p.warnings}))"
    )
    peak = tmp_path / "peak"
    with open(tmp_path / "out", "w+b") as out:
        child = subprocess.run(
            [sys.executable, str(PEAK_RSS), str(peak), sys.executable, "-c", script, str(HUGEMONO)],
            env=subprocess_env(),
            stdout=out,
        )
        out.seek(0)
        result = json.loads(out.read())
    assert child.returncode == 0
    assert "very big image" in result["text"]
    assert result["warnings"] == [
        "page 1: too large to OCR whole; read at 17.1% of 300 dpi ([limits] max_page_pixels)"
    ]
    assert int(peak.read_text()) / 1024 < DOCUMENT_MEMORY_MB


def test_an_image_cannot_be_read_without_ocr(tmp_path):
    with pytest.raises(CuratorError, match="an image is read by OCR only"):
        parse_document(read_source(TYPEWRITER), ocr="never")


@pytest.mark.parametrize("mode", ["RGBA", "LA", "I;16", "I", "F", "1", "P", "CMYK"])
def test_every_common_image_mode_becomes_8_bit_grey_with_ink_dark(mode):
    from PIL import Image

    page = Image.new("L", (40, 20), 255)
    page.paste(0, (10, 5, 30, 15))  # ink
    image = (
        page.convert(mode)
        if mode not in ("I;16", "I", "F")
        else Image.fromarray(
            __import__("numpy")
            .asarray(page)
            .astype({"I;16": "uint16", "I": "int32", "F": "float32"}[mode])
            * 200
        )
    )
    grey = _greyscale(image)
    assert grey.mode == "L" and grey.getpixel((20, 10)) < 64 and grey.getpixel((2, 2)) > 192


def test_an_image_is_checked_from_its_header_only(tmp_path):
    """frame_sizes reads no pixel: a PNG whose pixel data is cut off still gives its size."""
    data = TYPEWRITER.read_bytes()
    cut = RawSource(Path("cut.png"), data[:4096])
    assert frame_sizes(cut, DEFAULT) == [(4000, 2864)]
