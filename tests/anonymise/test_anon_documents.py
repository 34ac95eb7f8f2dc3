"""Documents: labelled person/organisation/address values and free-text PII, spans kept."""

from __future__ import annotations

from curator.anonymise import anonymise, anonymise_text
from curator.config import load_config
from curator.labels import evidence_problems
from tests.anonymise.conftest import LEASE_TEXT, lease


def test_lease_values_are_replaced_everywhere_and_labels_still_point_at_them(store, vault):
    content, revisions = lease()
    spec = load_config(store.root / "curator.toml").doc_types["lease"]
    result = anonymise(content, vault, revisions=revisions, doc_spec=spec)
    text = result.content.pages[0].text
    assert content.pages[0].text == LEASE_TEXT, "inputs must not be mutated"
    for original in ("Claudio", "Costa", "Margaret", "Okafor", "Birchwood", "Springfield", "62704",
                     "m.okafor@okafor-rentals.com", "482-7731", "DE89 3704"):
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
    assert evidence_problems(result.content, result.revisions[0]) == []


def test_free_text_uses_the_same_mapping(vault):
    content, revisions = lease()
    anonymise(content, vault, revisions=revisions)
    note = "Model said the tenant is CLAUDIO COSTA; mail claudio@costa-family.org, card 4111 1111 1111 1111."
    out = anonymise_text(note, vault)
    assert vault.lookup("Claudio Costa", "person").upper() in out
    assert "claudio" not in out.casefold() and "4111 1111 1111 1111" not in out
    assert anonymise_text(out, vault) == out
