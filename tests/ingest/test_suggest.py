"""Suggested labels: the value next to each field's label phrase, with evidence."""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.config import load_config
from curator.ingest.documents import parse_document
from curator.ingest.source import read_source
from curator.ingest.suggest import guess_doc_type, suggest_fields, suggest_revision
from curator.labels import truth_problems
from curator.model import DocumentContent, Page
from tests.conftest import REPO
from tests.ingest.conftest import EXAMPLES, TRUTH

CONFIG = load_config(REPO / "curator" / "data" / "curator.toml")


def page(text: str) -> DocumentContent:
    return DocumentContent(pages=[Page(number=1, text=text, origin="text-layer")])


@pytest.mark.parametrize("name", ["pdfs/lease-maple.pdf", "pdfs/invoice-harbor.pdf"])
def test_text_layer_examples_get_every_true_field_suggested(name):
    parsed = parse_document(read_source(EXAMPLES / name))
    truth = TRUTH[name]
    assert guess_doc_type(parsed.content, CONFIG) == truth["doc_type"]
    revision = suggest_revision(parsed.content, CONFIG.doc_types[truth["doc_type"]])
    assert revision.source == "import-suggestion" and revision.rev == 1
    assert {k: v.value for k, v in revision.fields.items()} == truth["fields"]
    assert truth_problems(parsed.content, revision) == []


def test_longest_label_phrase_wins_and_values_must_parse():
    spec = CONFIG.doc_types["lease"]
    content = page(
        "Rent is due monthly.\nMonthly Rent: $900.00\nDeposit: two months\n"
        "Security Deposit: $1,800.00\nPremises Address: 1 Elm St, Springfield\n"
    )
    fields = suggest_fields(content, spec)
    assert fields["monthly_rent"].value == "$900.00"
    assert fields["security_deposit"].value == "$1,800.00"  # "two months" is no amount
    assert fields["premises_address"].value == "1 Elm St, Springfield"
    start, end = fields["premises_address"].evidence.start, fields["premises_address"].evidence.end
    assert content.pages[0].text[start:end] == "1 Elm St, Springfield"


def test_value_stops_at_a_column_gap():
    fields = suggest_fields(
        page("Invoice Date: March 3, 2024      Due Date: April 2, 2024\n"),
        CONFIG.doc_types["invoice"],
    )
    assert fields["invoice_date"].value == "March 3, 2024"


def test_a_form_field_named_with_underscores_is_its_label_phrase():
    """A PDF form's field line spells the name as the form does (curator/ingest/forms.py)."""
    fields = suggest_fields(
        page("Security_Deposit: $1,800.00\nmonthly_rent: $900.00\nMonthly_Rental: $1\n"),
        CONFIG.doc_types["lease"],
    )
    assert {name: label.value for name, label in fields.items()} == {
        "security_deposit": "$1,800.00",
        "monthly_rent": "$900.00",
    }


def test_unrelated_text_guesses_no_doc_type():
    assert guess_doc_type(page("Dear team, lunch is at noon on Friday.\nThanks"), CONFIG) is None
    assert suggest_revision(page("nothing here"), CONFIG.doc_types["lease"]) is None


def test_examples_truth_covers_every_example():
    files = {
        str(p.relative_to(EXAMPLES))
        for p in Path(EXAMPLES).rglob("*")
        if p.suffix in {".pdf", ".json", ".jsonl"} and p.parent.name != "failures"
    }
    assert files - {"truth.json"} == set(TRUTH)
