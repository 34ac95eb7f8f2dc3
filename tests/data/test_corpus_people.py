"""The corpus people lists are complete and real: one entry per corpus file, and every
listed name is really in that file (a misspelt name would make "no person survives" pass
without anonymising anything)."""

from __future__ import annotations

import pytest

from tests.corpus import CORPUS_DIR as CORPUS
from tests.data.corpus_people import CORPUS_METADATA_PEOPLE, CORPUS_PEOPLE, mentioned

FILES = {p.name: p for folder in ("pdfs", "images") for p in sorted((CORPUS / folder).glob("*"))}
# scans whose people only OCR can read: file -> 0-based page to OCR
OCR_PAGES = {"ocrmypdf-3small.pdf": 2, "ocrmypdf-epson.pdf": 0, "ocrmypdf-typewriter.png": None}


def test_every_corpus_file_has_a_list():
    assert set(CORPUS_PEOPLE) == set(FILES)
    assert set(CORPUS_METADATA_PEOPLE) <= set(FILES)


@pytest.mark.parametrize(
    "name", sorted(n for n, people in CORPUS_PEOPLE.items() if people and n not in OCR_PAGES)
)
def test_listed_people_are_in_the_text_layer(name):
    import pdfplumber

    with pdfplumber.open(FILES[name]) as pdf:
        text = "\n".join(page.extract_text() or "" for page in pdf.pages)
    missing = [person for person in CORPUS_PEOPLE[name] if not mentioned(person, text)]
    assert not missing


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(OCR_PAGES))
def test_listed_people_are_in_the_scans(name):
    import pdfplumber
    import pytesseract
    from PIL import Image

    if name.endswith(".pdf"):
        with pdfplumber.open(FILES[name]) as pdf:
            image = pdf.pages[OCR_PAGES[name]].to_image(resolution=300).original
    else:
        image = Image.open(FILES[name])
    text = pytesseract.image_to_string(image.convert("L"))
    missing = [person for person in CORPUS_PEOPLE[name] if not mentioned(person, text)]
    assert not missing


@pytest.mark.parametrize("name", sorted(CORPUS_METADATA_PEOPLE))
def test_metadata_people_are_in_the_metadata(name):
    import pdfplumber

    with pdfplumber.open(FILES[name]) as pdf:
        fields = [str(v) for v in pdf.metadata.values()]
        fields += [str(a.get("title") or "") for page in pdf.pages for a in page.annots]
    assert all(any(mentioned(person, f) for f in fields) for person in CORPUS_METADATA_PEOPLE[name])
