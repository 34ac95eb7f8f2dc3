"""Synthetic fixtures for the review tests (Faker, seeded: never real people)."""

from __future__ import annotations

import hashlib

from faker import Faker

from curator import clock
from curator.labels import locate
from curator.model import (
    DocumentContent,
    FieldLabel,
    Fixture,
    Kind,
    LabelRevision,
    Page,
    Provenance,
    Rubric,
    ThreadContent,
    ThreadExport,
)
from curator.store import Store, fixture_id


def _provenance(key: str, importer: str) -> Provenance:
    return Provenance(
        source_sha256=hashlib.sha256(key.encode()).hexdigest(),
        source_name=f"{key}.pdf",
        importer=importer,
        imported_at=clock.now_iso(),
    )


def add_lease(store: Store, seed: int, *, pages: int = 2) -> str:
    """A synthetic two-page lease with suggested labels pointing at their evidence."""
    fake = Faker("en_US")
    fake.seed_instance(seed)
    tenant, landlord = fake.name(), fake.name()
    rent = f"${fake.random_int(900, 3000):,}.00"
    start = fake.date_between_dates(
        clock.now().date().replace(year=2024, month=1, day=1),
        clock.now().date().replace(year=2024, month=12, day=1),
    )
    first = (
        f"RESIDENTIAL LEASE AGREEMENT 🏠\nTenant: {tenant}\nLandlord: {landlord}\n"
        f"Premises Address: {fake.street_address()}, {fake.city()}\n"
        f"Lease Start Date: {start:%B %d, %Y}\n"
    )
    second = f"Monthly Rent: {rent}\nSecurity Deposit: none agreed\nSigned by both parties.\n"
    texts = [first, second][:pages]
    content = DocumentContent(
        pages=[
            Page(number=i, text=t, origin="text-layer", language="en")
            for i, t in enumerate(texts, start=1)
        ]
    )
    title = f"lease {tenant}"
    fid = fixture_id(title, f"lease-{seed}".encode())
    fields = {}
    for name, type_, value in [
        ("tenant", "person", tenant),
        ("landlord", "person", landlord),
        ("lease_start_date", "date", f"{start:%B %d, %Y}"),
        ("monthly_rent", "money", rent),
    ]:
        fields[name] = FieldLabel(type=type_, value=value, evidence=locate(content, value))
    fields["security_deposit"] = FieldLabel(type="money", value=None, expected_absent=True)
    revision = LabelRevision(
        rev=1, time=clock.now_iso(), author="importer", source="import-suggestion", fields=fields
    )
    fixture = Fixture(
        id=fid,
        kind=Kind.document,
        doc_type="lease",
        category="clean",
        title=title,
        created_at=clock.now_iso(),
        provenance=_provenance(f"lease-{seed}", "pdf"),
    )
    store.create_fixture(fixture, content, [revision])
    return fid


def add_thread(store: Store, seed: int, rubrics: list[str]) -> str:
    fake = Faker("en_US")
    fake.seed_instance(seed)
    users = {f"u{i}": {"id": f"u{i}", "username": fake.user_name()} for i in range(2)}
    posts = {}
    for i in range(3):
        posts[f"p{i}"] = {
            "id": f"p{i}",
            "create_at": 1000 + i,
            "user_id": f"u{i % 2}",
            "root_id": "" if i == 0 else "p0",
            "message": fake.sentence(nb_words=8),
        }
    content = ThreadContent(export=ThreadExport.model_validate({"posts": posts, "users": users}))
    title = f"thread {fake.word()} {seed}"
    fid = fixture_id(title, f"thread-{seed}".encode())
    revision = LabelRevision(
        rev=1,
        time=clock.now_iso(),
        author="importer",
        source="import-suggestion",
        rubrics=[Rubric(text=t) for t in rubrics],
    )
    fixture = Fixture(
        id=fid,
        kind=Kind.thread,
        category="clean",
        title=title,
        created_at=clock.now_iso(),
        provenance=_provenance(f"thread-{seed}", "mattermost"),
    )
    store.create_fixture(fixture, content, [revision])
    return fid
