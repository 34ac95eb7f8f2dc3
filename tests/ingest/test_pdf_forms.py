"""PDF form fields (AcroForm) through real pdfplumber and pdfminer: a filled lease
application's fields become lines of its page, anonymised, kept where nothing in them is
personal, offered to label suggestions; what cannot be read is said in a warning."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curator.ingest import import_sources
from curator.ingest.documents import parse_document
from curator.ingest.forms import read_form
from curator.ingest.source import RawSource, read_source
from curator.labels import truth_problems
from tests.conftest import run_cli, secrets_left_in, snapshot
from tests.corpus import CORPUS_DIR
from tests.ingest.pdf_forms import (
    FORM_LINES,
    KEPT_LINES,
    PRINTED,
    SECRETS,
    TENANT,
    edited,
    form_pdf,
    widget,
)

VAULT_KEY = "Zm9ybXMtdGVzdC1vbmx5LW5vdC1hLXNlY3JldC0wMDAwMDAwMDAwMDA="


def parsed_form(data: bytes, folder: Path, **options):
    """The PDF parsed from a real file (OCR workers read pages from its path)."""
    path = folder / "application.pdf"
    path.write_bytes(data)
    return parse_document(read_source(path), **options)


def test_field_values_follow_the_page_text_in_reading_order(tmp_path):
    parsed = parsed_form(form_pdf(), tmp_path)
    [page] = parsed.content.pages
    assert page.origin == "text-layer" and parsed.warnings == []
    assert page.text == "\n".join(PRINTED) + "\n\n" + "\n".join(FORM_LINES)
    # the same PDF, the same text
    assert parsed_form(form_pdf(), tmp_path).content == parsed.content


def test_import_anonymises_the_people_keeps_the_rest_and_suggests_the_fields(store):
    source = store.root.parent / "lease-application.pdf"
    source.write_bytes(form_pdf())
    result = run_cli("import", source, "--doc-type", "lease", "--json", store=store.root)
    assert result.exit_code == 0, result.stderr
    [created] = json.loads(result.stdout)["created"]
    assert created["warnings"] == []
    assert secrets_left_in(store.root, SECRETS) == []
    audit = run_cli("audit", store=store.root)
    assert audit.exit_code == 0, audit.stdout + audit.stderr
    record = store.load(created["id"])
    [page] = record.content.pages
    lines = page.text.splitlines()
    assert all(line in lines for line in KEPT_LINES)
    # the field names stay; the values after them are rewritten
    tenant, phone, ssn = (
        next(line for line in lines if line.startswith(f"{name}: "))
        for name in ("Tenant", "Phone", "SSN")
    )
    assert tenant != f"Tenant: {TENANT}" and phone and ssn
    [suggestion] = record.revisions
    values = {name: label.value for name, label in suggestion.fields.items()}
    assert values["tenant"] == tenant.removeprefix("Tenant: ")
    assert values["monthly_rent"] == "$1,450.00"
    assert values["lease_start_date"] == "March 1, 2026"
    assert truth_problems(record.content, suggestion) == []
    assert sorted(created["suggested_fields"]) == ["lease_start_date", "monthly_rent", "tenant"]


def test_the_same_form_imports_to_byte_identical_fixtures(tmp_path, monkeypatch):
    from curator.store import Store

    monkeypatch.setenv("CURATOR_VAULT_KEY", VAULT_KEY)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    source = tmp_path / "lease-application.pdf"
    source.write_bytes(form_pdf())
    stores = [Store.init(tmp_path / name) for name in ("one", "two")]
    for store in stores:
        import_sources(store, [source], doc_type="lease")
    one, two = (
        {name: data for name, data in snapshot(store.root).items() if name.startswith("goldens/")}
        for store in stores
    )
    assert one and one == two


@pytest.mark.parametrize("algorithm", ["RC4-128", "AES-128"])
def test_a_form_locked_only_against_editing_is_read(tmp_path, algorithm):
    """Filled forms often come with an owner password only: they open without one, and
    their field strings are encrypted like every other string."""

    def lock(writer):
        writer.encrypt(user_password="", owner_password="owner-only", algorithm=algorithm)

    parsed = parsed_form(edited(form_pdf(), lock), tmp_path)
    assert parsed.warnings == []
    assert parsed.content.pages[0].text.endswith("\n\n" + "\n".join(FORM_LINES))


def test_a_scanned_page_with_a_form_is_ocred_and_keeps_its_fields_after_the_scan_text(tmp_path):
    parsed = parsed_form(form_pdf(scanned=True), tmp_path, workers=1)
    [page] = parsed.content.pages
    assert page.origin == "ocr"
    scan_text, form_block = page.text.rsplit("\n\n", 1)
    assert "RESIDENTIAL LEASE APPLICATION" in scan_text
    assert TENANT not in scan_text  # a page is rendered for OCR without its fields
    assert form_block.splitlines() == FORM_LINES


def test_options_are_written_as_the_form_shows_them(tmp_path):
    """PDF 32000-1, 12.7.4.4: a choice's /Opt pairs an export value with the text shown, and
    a multiple choice's /V is an array; 12.7.4.2.4: a radio group's /Opt names the options
    its buttons' states number."""
    from pypdf.generic import ArrayObject, NameObject, TextStringObject

    def options(writer):
        parking = widget(writer, "parking")
        parking[NameObject("/Opt")] = ArrayObject(
            ArrayObject([TextStringObject(export), TextStringObject(shown)])
            for export, shown in [("none", "No parking"), ("garage", "Garage"), ("st", "Street")]
        )
        parking[NameObject("/V")] = ArrayObject(
            [TextStringObject("st"), TextStringObject("garage")]
        )
        payment = next(  # the radio group: its buttons' /Parent
            annotation.get_object()["/Parent"].get_object()
            for annotation in writer.pages[0]["/Annots"]
            if "/Parent" in annotation.get_object()
        )
        assert payment["/T"] == "payment"
        payment[NameObject("/Opt")] = ArrayObject(
            [TextStringObject("Every month"), TextStringObject("Every quarter")]
        )
        payment[NameObject("/V")] = NameObject("/1")

    lines = parsed_form(edited(form_pdf(), options), tmp_path).content.pages[0].text.splitlines()
    assert lines[-2:] == ["payment: Every quarter", "parking: Street, Garage"]


def test_a_value_that_cannot_be_decoded_is_a_warning_and_the_rest_imports(store):
    from pypdf.generic import ByteStringObject, NameObject

    def break_phone(writer):
        # a UTF-16 text string holding half a surrogate pair: no text in any reading
        widget(writer, "Phone")[NameObject("/V")] = ByteStringObject(b"\xfe\xff\xd8\x3d\x00A")

    source = store.root.parent / "lease-application.pdf"
    source.write_bytes(edited(form_pdf(), break_phone))
    report = import_sources(store, [source], doc_type="lease")
    [created] = report.created
    assert created["warnings"] == [
        "page 1: form field 2 (in reading order) cannot be read (not valid utf-16-be text); "
        "its value is left out"
    ]
    [page] = store.load(created["id"]).content.pages
    assert not any(line.startswith("Phone:") for line in page.text.splitlines())
    assert all(line in page.text.splitlines() for line in KEPT_LINES)
    assert secrets_left_in(store.root, SECRETS) == []


def test_a_field_of_a_group_is_named_after_its_parent_and_a_password_gives_no_line(store):
    """PDF 32000-1, 12.7.3.2: a field's full name joins its ancestors' /T; kept as the form
    spells it while the value is rewritten (joined by " / ": "applicant.name" reads as a
    host, ".name" being a top-level domain)."""
    from pypdf.generic import (
        ArrayObject,
        DictionaryObject,
        NameObject,
        NumberObject,
        TextStringObject,
    )

    def group_and_hide(writer):
        tenant = widget(writer, "Tenant")
        parent = DictionaryObject(
            {NameObject("/T"): TextStringObject("applicant"), NameObject("/FT"): NameObject("/Tx")}
        )
        parent_ref = writer._add_object(parent)
        parent[NameObject("/Kids")] = ArrayObject([tenant.indirect_reference])
        tenant[NameObject("/T")] = TextStringObject("name")
        tenant[NameObject("/Parent")] = parent_ref
        fields = writer._root_object["/AcroForm"]["/Fields"]
        fields[[f.get_object().get("/T") for f in fields].index("name")] = parent_ref
        widget(writer, "Phone")[NameObject("/Ff")] = NumberObject(1 << 13)  # a password

    source = store.root.parent / "lease-application.pdf"
    source.write_bytes(edited(form_pdf(), group_and_hide))
    [created] = import_sources(store, [source], doc_type="lease").created
    assert created["warnings"] == []
    [page] = store.load(created["id"]).content.pages
    lines = page.text.splitlines()
    [name] = [line for line in lines if line.startswith("applicant / name: ")]
    assert name != f"applicant / name: {TENANT}"
    assert not any(line.startswith("Phone") for line in lines)
    assert all(line in lines for line in KEPT_LINES)
    assert secrets_left_in(store.root, SECRETS) == []


def test_a_filled_field_on_no_page_is_said_not_silently_dropped(tmp_path):
    from pypdf.generic import ArrayObject, NameObject

    def hide_parking(writer):
        annotations = writer.pages[0]["/Annots"]
        kept = [a for a in annotations if a.get_object().get("/T") != "parking"]
        writer.pages[0][NameObject("/Annots")] = ArrayObject(kept)

    parsed = parsed_form(edited(form_pdf(), hide_parking), tmp_path)
    assert parsed.warnings == ["1 filled form field has no place on any page; left out"]
    assert not parsed.content.pages[0].text.endswith("parking: garage")


def test_a_hostile_form_never_stops_the_import(tmp_path):
    """A /Parent loop and a widget whose /Rect is no rectangle: the import goes on, the loop
    named once round, the widget's field said to have no place."""
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject, TextStringObject

    def damage(writer):
        one, two = (
            DictionaryObject({NameObject("/T"): TextStringObject(name)}) for name in ("a", "b")
        )
        one_ref, two_ref = writer._add_object(one), writer._add_object(two)
        one[NameObject("/Parent")], two[NameObject("/Parent")] = two_ref, one_ref
        widget(writer, "monthly_rent")[NameObject("/Parent")] = one_ref
        widget(writer, "parking")[NameObject("/Rect")] = ArrayObject([NameObject("/Zero")] * 4)

    parsed = parsed_form(edited(form_pdf(), damage), tmp_path)
    assert parsed.warnings == ["1 filled form field has no place on any page; left out"]
    lines = parsed.content.pages[0].text.splitlines()
    assert "b / a / monthly_rent: $1,450.00" in lines
    assert not any(line.startswith("parking") for line in lines)


def test_an_xfa_form_without_readable_fields_says_so(tmp_path):
    from pypdf.generic import ArrayObject, NameObject

    def only_xfa(writer):
        form = writer._root_object["/AcroForm"]
        form[NameObject("/XFA")] = ArrayObject()
        form[NameObject("/Fields")] = ArrayObject()
        del writer.pages[0][NameObject("/Annots")]

    parsed = parsed_form(edited(form_pdf(), only_xfa), tmp_path)
    assert parsed.warnings == [
        "the PDF holds an XFA form, which curator does not read; values only it holds are left out"
    ]
    assert parsed.content.pages[0].text == "\n".join(PRINTED)


def test_fields_of_a_turned_page_are_read_as_the_page_is_shown():
    """/Rotate 90: what was the left edge is the top, so the rows are the columns."""

    def turn(writer):
        writer.pages[0].rotate(90)

    lines = read_form(RawSource(Path("turned.pdf"), edited(form_pdf(), turn)), 1).lines[0]
    assert sorted(lines) == sorted(FORM_LINES)
    # The left column (x = 140) first, bottom to top, then the right column.
    assert lines[:3] == ["parking: garage", "payment: quarterly", "pets_allowed: Yes"]


@pytest.mark.parametrize("path", sorted((CORPUS_DIR / "pdfs").glob("*.pdf")), ids=lambda p: p.name)
def test_corpus_pdfs_without_a_form_get_no_form_text(path):
    """None of the real-world corpus PDFs is a form (pdfplumber-annotations.pdf has links and
    notes, no widgets): reading their forms adds nothing and warns of nothing."""
    form = read_form(RawSource(path, path.read_bytes()), 1)
    assert form.warnings == [] and not any(form.lines)
