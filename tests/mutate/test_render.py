"""--ocr-noise --render: the real path through Pillow and Tesseract, re-located by alignment."""

from __future__ import annotations

import random

import pytest

from curator.labels import evidence_text, truth_problems
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


def test_render_variant_through_tesseract_is_calibrated_and_keeps_values(samples_store):
    result = run_cli(
        "mutate",
        samples_store.invoice,
        "--ocr-noise",
        "0.05",
        "--render",
        "--json",
        store=samples_store.root,
    )
    assert result.exit_code == 0, result.stderr
    info = variant_of(result.stdout)
    step = info["mutations"][0]
    assert step["name"] == "ocr-render" and info["category"] == "ocr-noise"
    parent = samples_store.store.load(samples_store.invoice)
    variant = samples_store.store.load(info["id"])
    clean, read = parent.content.pages[0].text, variant.content.pages[0].text
    true_cer = levenshtein(clean, read) / len(clean)
    assert step["measured"]["cer"] == round(true_cer, 4)  # what is recorded is what happened
    assert abs(true_cer - 0.05) <= 0.25 * 0.05, true_cer  # the search reached the request
    assert step["measured"]["requested_cer"] == 0.05 and step["measured"]["trials"] >= 1
    page = variant.content.pages[0]
    assert page.origin == "ocr" and page.ocr_confidence is not None
    assert truth_problems(variant.content, variant.labels) == []
    for name, label in variant.labels.fields.items():  # Tesseract's misreadings spared every value
        assert label.value == parent.labels.fields[name].value
        assert evidence_text(variant.content, label.evidence) == label.value
    assert step["measured"]["lost_fields"] == []


def test_render_with_noise_values_records_what_tesseract_left(samples_store):
    result = run_cli(
        "mutate",
        samples_store.invoice,
        "--ocr-noise",
        "0.2",
        "--render",
        "--noise-values",
        "--json",
        store=samples_store.root,
    )
    assert result.exit_code == 0, result.stderr
    info = variant_of(result.stdout)
    assert info["mutations"][0]["params"] == {"cer": 0.2, "noise_values": True}
    variant = samples_store.store.load(info["id"])
    parent = samples_store.store.load(samples_store.invoice)
    assert truth_problems(variant.content, variant.labels) == []
    for name, label in variant.labels.fields.items():
        if label.expected_absent:
            assert name in info["mutations"][0]["measured"]["lost_fields"]
        else:
            assert label.value == parent.labels.fields[name].value
