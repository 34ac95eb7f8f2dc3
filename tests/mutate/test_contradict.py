"""--contradict FIELD: a later amendment changes one field; the truth follows the amendment."""

from __future__ import annotations

import re
from datetime import date

import pytest

from curator.labels import set_labels, truth_problems
from curator.normalise import parse_amount, parse_date
from tests.conftest import run_cli, snapshot
from tests.mutate.conftest import variant_of


def _contradict(samples_store, field, *extra):
    result = run_cli(
        "mutate",
        samples_store.lease,
        "--contradict",
        field,
        *extra,
        "--json",
        store=samples_store.root,
    )
    assert result.exit_code == 0, result.stderr
    info = variant_of(result.stdout)
    return info, samples_store.store.load(samples_store.lease), samples_store.store.load(info["id"])


def test_rent_amended_by_a_realistic_amount(samples_store):
    info, parent, variant = _contradict(samples_store, "monthly_rent")
    old = parse_amount(parent.labels.fields["monthly_rent"].value)
    label = variant.labels.fields["monthly_rent"]
    new = parse_amount(label.value)
    assert new != old and 0.03 <= abs(new - old) / old <= 0.17
    assert label.value.startswith("$") and re.fullmatch(r"\$[\d,]+\.\d\d", label.value)
    last = variant.content.pages[-1].text
    assert last.startswith(parent.content.pages[-1].text)  # appended after the base text
    amendment = last[len(parent.content.pages[-1].text) :]
    assert "AMENDMENT No. 1" in amendment and f"Monthly Rent: {label.value}" in amendment
    assert re.search(r"Clause \d+ \(RENT\)", amendment)  # cites the clause
    measured = info["mutations"][0]["measured"]
    assert parse_date(measured["amendment_date"]) > parse_date(measured["document_date"])
    assert (
        label.authority
        and measured["amendment_date"] in label.authority
        and "later-dated" in label.authority
    )
    assert label.evidence.page == len(variant.content.pages)
    assert truth_problems(variant.content, variant.labels) == []
    for name, other in parent.labels.fields.items():
        if name != "monthly_rent":
            assert variant.labels.fields[name] == other  # nothing else moves
    assert variant.fixture.category == "contradictory"
    assert variant.labels.source == "mutation:contradict"


def test_end_date_moves_later(samples_store):
    _, parent, variant = _contradict(samples_store, "lease_end_date")
    assert parse_date(variant.labels.fields["lease_end_date"].value) > parse_date(
        parent.labels.fields["lease_end_date"].value
    )


def test_tenant_becomes_another_person(samples_store):
    _, parent, variant = _contradict(samples_store, "tenant")
    new = variant.labels.fields["tenant"].value
    assert new != parent.labels.fields["tenant"].value and len(new.split()) >= 2
    assert truth_problems(variant.content, variant.labels) == []


def test_amendment_first_takes_authority_from_dates(samples_store):
    info, parent, variant = _contradict(samples_store, "monthly_rent", "--amendment-first")
    first = variant.content.pages[0].text
    assert first.startswith("AMENDMENT No. 1") and first.endswith(parent.content.pages[0].text)
    label = variant.labels.fields["monthly_rent"]
    assert label.evidence.page == 1 and label.evidence.start < len(first) - len(
        parent.content.pages[0].text
    )
    assert "not its position" in label.authority
    assert info["mutations"][0]["params"] == {"field": "monthly_rent", "amendment_first": True}
    # every other span moved with the inserted text
    assert truth_problems(variant.content, variant.labels) == []
    assert (
        variant.labels.fields["tenant"].evidence.start
        > parent.labels.fields["tenant"].evidence.start
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--contradict", "rent_amount"], "unknown field 'rent_amount'"),
        (["--contradict", "security_deposit"], "no value for 'security_deposit'"),
        (["--amendment-first"], "--amendment-first goes with --contradict"),
    ],
)
def test_refusals_write_nothing(samples_store, args, message):
    set_labels(
        samples_store.store, samples_store.lease, assignments={"security_deposit": ""}, author="t"
    )
    before = snapshot(samples_store.root)
    result = run_cli("mutate", samples_store.lease, *args, store=samples_store.root)
    assert result.exit_code == 2
    assert message in result.stderr
    assert snapshot(samples_store.root) == before


def test_thread_is_refused(samples_store):
    result = run_cli(
        "mutate", samples_store.thread, "--contradict", "tenant", store=samples_store.root
    )
    assert result.exit_code == 2 and "documents with a doc type" in result.stderr


@pytest.mark.parametrize("field", ["total_amount", "invoice_number", "due_date", "vendor"])
def test_invoice_fields_amended_in_the_original_style(samples_store, field):
    result = run_cli(
        "mutate", samples_store.invoice, "--contradict", field, "--json", store=samples_store.root
    )
    assert result.exit_code == 0, result.stderr
    measured = variant_of(result.stdout)["mutations"][0]["measured"]
    old, new = measured["old_value"], measured["new_value"]
    assert new != old
    if field == "total_amount":
        assert re.fullmatch(r"\$(\d{1,3}(,\d{3})*)\.\d\d", new)
    elif field == "invoice_number":
        assert new.rsplit("-", 1)[0] == old.rsplit("-", 1)[0]  # same series, new number
    elif field == "due_date":
        assert parse_date(new) > parse_date(old)


def test_each_doc_type_contradicts_with_its_own_template(samples_store):
    """A lease is amended, an invoice corrected: the words come from curator.toml, per doc type."""
    lease = variant_of(
        run_cli(
            "mutate",
            samples_store.lease,
            "--contradict",
            "tenant",
            "--json",
            store=samples_store.root,
        ).stdout
    )
    invoice = variant_of(
        run_cli(
            "mutate",
            samples_store.invoice,
            "--contradict",
            "total_amount",
            "--json",
            store=samples_store.root,
        ).stdout
    )
    lease_text = samples_store.store.load(lease["id"]).content.pages[-1].text
    invoice_text = samples_store.store.load(invoice["id"]).content.pages[-1].text
    assert "AMENDMENT No. 1 TO THE LEASE AGREEMENT" in lease_text and "CORRECTION" not in lease_text
    assert "CORRECTION No. 1 TO THE INVOICE" in invoice_text and "AMENDMENT" not in invoice_text
    assert f"Total Amount: {invoice['mutations'][0]['measured']['new_value']}" in invoice_text
    # a second contradiction of the same document is numbered after the first
    second = variant_of(
        run_cli(
            "mutate",
            lease["id"],
            "--contradict",
            "monthly_rent",
            "--json",
            store=samples_store.root,
        ).stdout
    )
    assert (
        "AMENDMENT No. 2 TO THE LEASE AGREEMENT"
        in samples_store.store.load(second["id"]).content.pages[-1].text
    )


def test_a_doc_type_without_a_template_is_refused_in_one_line(samples_store):
    config = samples_store.root / "curator.toml"
    text = config.read_text()
    start = text.index('amendment = """AMENDMENT')
    config.write_text(
        text[:start] + text[text.index('prevails."""', start) + len('prevails."""') :]
    )
    before = snapshot(samples_store.root)
    result = run_cli(
        "mutate", samples_store.lease, "--contradict", "monthly_rent", store=samples_store.root
    )
    assert result.exit_code == 2
    assert (
        result.stderr.count("\n") == 1
        and "doc type 'lease' has no amendment template" in result.stderr
    )
    assert snapshot(samples_store.root) == before


def test_a_template_with_an_unknown_placeholder_is_a_config_error(samples_store):
    config = samples_store.root / "curator.toml"
    config.write_text(config.read_text().replace("dated {document_date}.", "dated {signed_on}.", 1))
    result = run_cli(
        "mutate", samples_store.lease, "--contradict", "monthly_rent", store=samples_store.root
    )
    assert result.exit_code == 2 and "unknown placeholder {signed_on}" in result.stderr


GERMAN_LEASE = (
    "RESIDENTIAL LEASE AGREEMENT\n"
    "Tenant: Dana Whitfield\n"
    "Landlord: Oakridge Holdings LLC\n"
    "Premises Address: 42 Quill Lane, Springfield\n"
    "Lease Start Date: 03/04/2024\n"
    "Lease End Date: 02/04/2025\n"
    "Monthly Rent: 1.250 €\n"
    "Security Deposit: 2.500 €\n"
)


def test_a_german_lease_is_contradicted_in_its_own_reading(store):
    """In a de_DE store "1.250 €" is twelve hundred and fifty and "02/04/2025" the 2nd of
    April: the amendment moves them from there and writes them the same way."""
    from curator.reading import Reading
    from curator.store import Store
    from tests.factories import add_lease

    config = store.root / "curator.toml"
    config.write_text(config.read_text().replace('locale = "en_US"', 'locale = "de_DE"'))
    german = Store.open(store.root)
    values = {"monthly_rent": "1.250 €", "lease_end_date": "02/04/2025"}
    lease = add_lease(german, GERMAN_LEASE, values)
    reading = Reading("de_DE")
    for field, extra in (("monthly_rent", ()), ("lease_end_date", ("--seed", "3"))):
        result = run_cli(
            "mutate", lease, "--contradict", field, *extra, "--json", store=german.root
        )
        assert result.exit_code == 0, result.stderr
        variant = german.load(variant_of(result.stdout)["id"])
        assert variant.labels.locale == "de_DE"
        assert truth_problems(variant.content, variant.labels) == []
        new = variant.labels.fields[field].value
        if field == "monthly_rent":
            amount = parse_amount(new, reading)
            assert re.fullmatch(r"\d\.\d{3} €", new) and 0.03 <= abs(amount - 1250) / 1250 <= 0.17
        else:
            assert re.fullmatch(r"\d\d/\d\d/\d{4}", new)
            moved = (parse_date(new, reading) - date(2025, 4, 2)).days
            assert moved % 30 == 0 and 90 <= moved <= 360  # moved by whole "months", day first
