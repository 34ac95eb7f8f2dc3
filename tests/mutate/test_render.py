"""--ocr-noise --render: the real path through Pillow and Tesseract, re-located by alignment."""

from __future__ import annotations

import random

import pytest

from curator.labels import truth_problems
from curator.mutate._measure import levenshtein
from curator.mutate.render import align, degrade, draw, ocr
from curator.spans import apply_edits
from tests.conftest import run_cli
from tests.mutate.conftest import variant_of

pytestmark = pytest.mark.slow


def test_alignment_edits_rebuild_the_ocr_text():
    clean = "Tenant: Jon Cole\nMonthly Rent: $1,400.00"
    read = "Tenant; J0n Cole\nMonthIy Rent $l,400.0O"
    rebuilt, offsets = apply_edits(clean, align(clean, read))
    assert rebuilt == read
    start = clean.index("Jon Cole")
    new_start, new_end = offsets.span(start, start + len("Jon Cole"))
    assert read[new_start:new_end] == "J0n Cole"


def test_clean_render_reads_back_nearly_exactly():
    text = "Invoice Number: INV-2024-1234\nTotal Amount: $1,250.00"
    read, confidence = ocr(degrade(draw(text), 0.1, random.Random(0)))
    assert levenshtein(text, read) / len(text) < 0.1
    assert confidence > 60


def test_render_variant_through_tesseract(samples_store):
    result = run_cli("mutate", samples_store.invoice, "--ocr-noise", "0.05", "--render", "--json",
                     store=samples_store.root)
    assert result.exit_code == 0, result.stderr
    info = variant_of(result.stdout)
    step = info["mutations"][0]
    assert step["name"] == "ocr-render" and info["category"] == "ocr-noise"
    parent = samples_store.store.load(samples_store.invoice)
    variant = samples_store.store.load(info["id"])
    clean, read = parent.content.pages[0].text, variant.content.pages[0].text
    assert step["measured"]["cer"] == round(levenshtein(clean, read) / len(clean), 4)
    assert step["measured"]["requested_cer"] == 0.05
    page = variant.content.pages[0]
    assert page.origin == "ocr" and page.ocr_confidence is not None
    assert truth_problems(variant.content, variant.labels) == []
    for name, label in variant.labels.fields.items():
        if not label.expected_absent:
            assert label.value == parent.labels.fields[name].value  # the truth stays clean
            assert label.evidence is not None
    assert set(step["measured"]["lost_fields"]) == {n for n, f in variant.labels.fields.items() if f.expected_absent}
