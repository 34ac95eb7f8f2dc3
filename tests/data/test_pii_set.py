"""The labelled PII set is sound: spans point at their text, values pass their checksums,
both splits cover every type, language and context, and the files match their sources."""

from __future__ import annotations

import ast
import ipaddress
import re
from collections import Counter
from pathlib import Path

import pytest

from tests.data.pii import make_values, scoring

SPLITS = ("dev", "test")
PII_DIR = Path(make_values.__file__).resolve().parent
RECORDS = {split: scoring.load(split) for split in SPLITS}
EMAIL = re.compile(r"^[\w.+-]+@[\w-]+(\.[\w-]+)+$")
# Least number of labelled spans of each type per split (username is a side type).
MIN_SPANS = {
    "person": 250,
    "street_address": 40,
    "email": 35,
    "phone": 40,
    "credit_card": 40,
    "iban": 40,
    "ip": 40,
    "ssn": 15,
    "username": 10,
}


def spans(split: str, kind: str | None = None):
    for record in RECORDS[split]:
        for span in record["spans"]:
            if kind is None or span["type"] == kind:
                yield record, span


@pytest.mark.parametrize("split", SPLITS)
def test_files_are_what_the_sources_render(split):
    """Nobody edits the JSONL by hand: it is make_values.py's output for the sources."""
    assert (PII_DIR / f"{split}.jsonl").read_text(encoding="utf-8") == make_values.dump(
        make_values.build(split)
    )


@pytest.mark.parametrize("split", SPLITS)
def test_records_are_well_formed(split):
    records = RECORDS[split]
    assert len({r["id"] for r in records}) == len(records)
    for record in records:
        assert set(record) == {"id", "lang", "context", "text", "spans"}
        assert record["id"].startswith(split + "-")
        assert record["lang"] in make_values.LANGS and record["context"] in make_values.CONTEXTS
        previous_end = 0
        for span in record["spans"]:
            assert span["type"] in scoring.TYPES, span
            assert record["text"][span["start"] : span["end"]] == span["value"], (
                record["id"],
                span,
            )
            assert span["value"] == span["value"].strip() and span["value"], (record["id"], span)
            assert span["start"] >= previous_end, f"{record['id']}: overlapping or unsorted spans"
            previous_end = span["end"]


def test_ids_are_unique_across_splits():
    assert not {r["id"] for r in RECORDS["dev"]} & {r["id"] for r in RECORDS["test"]}


@pytest.mark.parametrize("split", SPLITS)
def test_values_pass_their_checks(split):
    for record, span in spans(split):
        value, kind = span["value"], span["type"]
        digits = re.sub(r"\D", "", value)
        if kind == "credit_card":
            assert make_values.luhn_valid(value) and 12 <= len(digits) <= 19, value
            assert re.fullmatch(r"[\d -]+", value), value
        elif kind == "iban":
            assert make_values.iban_valid(value), value
        elif kind == "ssn":
            assert len(digits) == 9 and digits[:3] not in ("000", "666") and digits[0] != "9", value
            assert digits[3:5] != "00" and digits[5:] != "0000", value
        elif kind == "ip":
            ipaddress.ip_address(value)
        elif kind == "email":
            assert EMAIL.match(value), value
        elif kind == "phone":
            assert 7 <= len(digits) <= 16, value
        elif kind == "username":
            assert record["text"][span["start"] - 1] == "@" and re.fullmatch(r"[\w.-]+", value), (
                value
            )


@pytest.mark.parametrize("split", SPLITS)
def test_no_value_lies_in_a_range_reserved_for_examples(split):
    """curator treats example.com mail, 555-01XX phones, documentation IPs, 9XX SSNs and its
    400000 test cards as its own pseudonyms: a labelled value there would be skipped, not missed."""
    for _, span in spans(split):
        value, digits = span["value"].lower(), re.sub(r"\D", "", span["value"])
        assert not re.search(
            r"example\.(com|org|net)$|\.(example|test|invalid|localhost)$", value
        ), value
        assert not value.startswith(("192.0.2.", "198.51.100.", "203.0.113.", "2001:db8")), value
        if span["type"] == "phone":
            assert "55501" not in digits and "7700900" not in digits and "2079460" not in digits, (
                value
            )
        if span["type"] == "credit_card":
            assert not digits.startswith("400000"), value


@pytest.mark.parametrize("split", SPLITS)
def test_every_type_language_and_context_is_covered(split):
    by_type = Counter(span["type"] for _, span in spans(split))
    for kind, least in MIN_SPANS.items():
        assert by_type[kind] >= least, f"{split}: only {by_type[kind]} {kind} spans"
    records = RECORDS[split]
    for lang in make_values.LANGS:
        mine = [r for r in records if r["lang"] == lang]
        assert len(mine) >= 50, f"{split}/{lang}: {len(mine)} records"
        kinds = Counter(s["type"] for r in mine for s in r["spans"])
        for kind in (
            "person",
            "street_address",
            "email",
            "phone",
            "credit_card",
            "iban",
            "ip",
            "username",
        ):
            assert kinds[kind] >= 1, f"{split}/{lang}: no {kind}"
        assert kinds["person"] >= 30, f"{split}/{lang}: {kinds['person']} person spans"
        for context in make_values.CONTEXTS:
            assert sum(r["context"] == context for r in mine) >= 15, f"{split}/{lang}/{context}"
    negatives = [r for r in records if not r["spans"]]
    assert len(negatives) >= 50, f"{split}: {len(negatives)} records without personal data"


@pytest.mark.parametrize("split", SPLITS)
def test_the_hard_cases_are_there(split):
    """The phenomena issue 12 lists: lowercase, capitals with initials, titles kept outside,
    names across line breaks, possessives, every card length, IBANs in every case and layout,
    phones with extensions and without separators, multi-line addresses."""
    persons = [(r, s) for r, s in spans(split, "person")]
    values = [s["value"] for _, s in persons]
    assert sum(v.islower() for v in values) >= 15
    assert sum(v.isupper() and len(v) > 3 for v in values) >= 15
    assert sum(bool(re.search(r"\b[A-Z]\.", v)) for v in values) >= 10
    assert sum("\n" in v for v in values) >= 4
    assert sum(r["text"][s["end"] : s["end"] + 2] == "'s" for r, s in persons) >= 3
    titled = sum(
        bool(
            re.search(
                r"(Mr|Ms|Mrs|Dr|Mme|M|Herr|Herrn|Frau|Sr|Sra|Dña|D|Prof)\.? $",
                r["text"][: s["start"]],
            )
        )
        for r, s in persons
    )
    assert titled >= 20
    card_lengths = {len(re.sub(r"\D", "", s["value"])) for _, s in spans(split, "credit_card")}
    assert card_lengths == set(range(12, 20)), sorted(card_lengths)
    ibans = [s["value"] for _, s in spans(split, "iban")]
    assert {i[:2].upper() for i in ibans} >= {"DE", "FR", "ES", "GB", "NL", "IT"}
    assert any(i.islower() and " " in i for i in ibans) and any(
        i.isupper() and " " not in i for i in ibans
    )
    phones = [s["value"] for _, s in spans(split, "phone")]
    assert any(re.search(r"\b(x|ext\.?|poste)\s*\d", p) for p in phones)
    assert any(re.fullmatch(r"\+?\d{9,}", p) for p in phones)
    assert any("(0)" in p for p in phones) and any(
        re.search(r"\d\d\.\d\d\.\d\d", p) for p in phones
    )
    addresses = [s["value"] for _, s in spans(split, "street_address")]
    assert sum("\n" in a for a in addresses) >= 5
    assert any(s["value"].count(":") >= 2 for _, s in spans(split, "ip"))


def test_the_splits_name_different_people():
    """The held-out split is not the dev split again: few full names are shared."""

    def full_names(split):
        return {s["value"] for _, s in spans(split, "person") if " " in s["value"]}

    shared = full_names("dev") & full_names("test")
    assert len(shared) <= 5, sorted(shared)


def test_the_set_is_not_built_from_curator_or_name_lists():
    """An evaluation drawn from the detector's own sources would flatter it."""
    tree = ast.parse((PII_DIR / "make_values.py").read_text(encoding="utf-8"))
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    imported |= {
        (node.module or "").split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
    }
    assert not imported & {
        "curator",
        "faker",
        "names",
        "names_dataset",
        "presidio_analyzer",
        "tests",
    }
