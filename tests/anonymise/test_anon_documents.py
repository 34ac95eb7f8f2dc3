"""Documents: labelled person/organisation/address values and free-text PII, spans kept."""

from __future__ import annotations

from curator.anonymise import anonymise, anonymise_text
from curator.config import load_config
from curator.labels import truth_problems
from tests.anonymise.conftest import LEASE_TEXT, lease


def test_lease_values_are_replaced_everywhere_and_labels_still_point_at_them(store, vault):
    content, revisions = lease()
    spec = load_config(store.root / "curator.toml").doc_types["lease"]
    result = anonymise(content, vault, revisions=revisions, doc_spec=spec)
    text = result.content.pages[0].text
    assert content.pages[0].text == LEASE_TEXT, "inputs must not be mutated"
    for original in (
        "Claudio",
        "Costa",
        "Margaret",
        "Okafor",
        "Birchwood",
        "Springfield",
        "62704",
        "m.okafor@okafor-rentals.com",
        "482-7731",
        "DE89 3704",
    ):
        assert original.casefold() not in text.casefold(), original
    assert "Monthly Rent: $1,250.00" in text and "January 15, 2024" in text
    fields = result.revisions[0].fields
    tenant = vault.lookup("Claudio Costa", "person")
    assert fields["tenant"].value == tenant
    assert f"Tenant: {tenant}" in text
    assert f"Mr. {tenant.split()[-1]}" in text  # the surname alone follows the same mapping
    assert f"Signed by {tenant.replace(' ', chr(10))} on" in text  # line breaks survive
    assert fields["monthly_rent"].value == "$1,250.00"
    for name, label in fields.items():
        page = result.content.pages[label.evidence.page - 1].text
        assert page[label.evidence.start : label.evidence.end] == label.value, name
    assert result.revisions[0].rubrics[0].text.startswith(f"names {tenant} as the tenant and Ms. ")
    assert "Okafor" not in result.revisions[0].rubrics[0].text
    assert result.leaks == []
    assert truth_problems(result.content, result.revisions[0]) == []


def test_free_text_uses_the_same_mapping(vault):
    content, revisions = lease()
    anonymise(content, vault, revisions=revisions)
    note = (
        "Model said the tenant is CLAUDIO COSTA; mail claudio@costa-family.org, card 4111 1111 "
        "1111 1111."
    )
    out = anonymise_text(note, vault)
    assert vault.lookup("Claudio Costa", "person").upper() in out
    assert "claudio" not in out.casefold() and "4111 1111 1111 1111" not in out
    assert anonymise_text(out, vault) == out


def test_invoice_organisations_are_replaced_and_amounts_kept(store, vault):
    from curator.model import DocumentContent, FieldLabel, LabelRevision, Page, Span

    text = (
        "INVOICE\nInvoice Number: INV-2024-0042\nVendor: Globex Industries Inc.\n"
        "Bill To: Initech Holdings LLC, attn. Dr. Peter Gibbons\nTotal Amount: $12,400.00\n"
        "Questions? billing@globex-industries.com\nThank you, Globex Industries Inc."
    )

    def field(field_type: str, value: str) -> FieldLabel:
        start = text.index(value)
        return FieldLabel(
            type=field_type, value=value, evidence=Span(page=1, start=start, end=start + len(value))
        )

    revision = LabelRevision(
        rev=1,
        time="2026-01-01T00:00:00Z",
        author="tester",
        source="import-suggestion",
        fields={
            "invoice_number": field("text", "INV-2024-0042"),
            "vendor": field("organisation", "Globex Industries Inc."),
            "customer": field("organisation", "Initech Holdings LLC"),
            "total_amount": field("money", "$12,400.00"),
        },
    )
    content = DocumentContent(pages=[Page(number=1, text=text, origin="ocr", ocr_confidence=91.0)])
    spec = store.config.doc_types["invoice"]
    result = anonymise(content, vault, revisions=[revision], doc_spec=spec)
    new = result.content.pages[0].text
    fields = result.revisions[0].fields
    for gone in ("Globex", "Initech", "Gibbons", "globex-industries"):
        assert gone.casefold() not in new.casefold(), gone
    assert fields["vendor"].value.endswith(" Inc.") and new.count(fields["vendor"].value) == 2
    assert fields["customer"].value.endswith(" LLC")
    assert (
        fields["invoice_number"].value == "INV-2024-0042"
        and fields["total_amount"].value == "$12,400.00"
    )
    assert truth_problems(result.content, result.revisions[0]) == []
    assert result.content.pages[0].ocr_confidence == 91.0 and result.leaks == []


def test_a_surname_labelled_alone_keeps_pointing_at_the_surname(vault):
    from curator.model import DocumentContent, FieldLabel, LabelRevision, Page, Span

    text = "Tenant: Claudio Costa. Costa pays on the first."
    start = text.index("Costa")
    revision = LabelRevision(
        rev=1,
        time="2026-01-01T00:00:00Z",
        author="t",
        source="manual",
        fields={
            "tenant": FieldLabel(
                type="person", value="Costa", evidence=Span(page=1, start=start, end=start + 5)
            )
        },
    )
    content = DocumentContent(pages=[Page(number=1, text=text, origin="text-layer")])
    result = anonymise(content, vault, revisions=[revision])
    new = result.content.pages[0].text
    label = result.revisions[0].fields["tenant"]
    assert "Claudio" not in new and "Costa" not in new
    assert new[label.evidence.start : label.evidence.end] == label.value
    assert new.endswith(f"{label.value} pays on the first.")
    assert result.leaks == []


def test_an_initial_and_a_surname_the_vault_once_gave_as_a_pseudonym_are_still_rewritten(vault):
    # an earlier import made "Drummond" someone's pseudonym; "K DRUMMOND" here is a real person
    assert vault.assign("Quillon Vasquez-Orr", "last_name", "Drummond") == "Drummond"
    text = anonymise_text("AIRFARE FOR K DRUMMOND KANSAS CITY TO DENVER AND RETURN", vault)
    assert (
        "DRUMMOND" not in text
        and text.startswith("AIRFARE FOR ")
        and text.endswith(" KANSAS CITY TO DENVER AND RETURN")
    )
