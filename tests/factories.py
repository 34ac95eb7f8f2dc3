"""Small synthetic fixtures for tests (Faker-style names, no real people)."""

from __future__ import annotations

from curator.labels import revise
from curator.model import DocumentContent, Fixture, Page, Provenance, ThreadContent, ThreadExport
from curator.store import Store, fixture_id

LEASE_TEXT = (
    "RESIDENTIAL LEASE AGREEMENT\n"
    "Tenant: Dana Whitfield\n"
    "Landlord: Oakridge Holdings LLC\n"
    "Premises Address: 42 Quill Lane, Springfield\n"
    "Lease Start Date: January 15, 2024\n"
    "Lease End Date: January 14, 2025\n"
    "Monthly Rent: $1,250.00\n"
    "Security Deposit: $2,500.00\n"
)
LEASE_VALUES = {
    "tenant": "Dana Whitfield",
    "premises_address": "42 Quill Lane, Springfield",
    "lease_start_date": "January 15, 2024",
    "lease_end_date": "January 14, 2025",
    "monthly_rent": "$1,250.00",
    "security_deposit": "$2,500.00",
}


def provenance(name: str, raw: bytes) -> Provenance:
    import hashlib

    return Provenance(
        source_sha256=hashlib.sha256(raw).hexdigest(),
        source_name=name,
        importer="test",
        imported_at="2026-01-01T00:00:00Z",
    )


def add_lease(
    store: Store,
    text: str = LEASE_TEXT,
    values: dict[str, str] | None = None,
    status: str = "active",
) -> str:
    content = DocumentContent(pages=[Page(number=1, text=text, origin="text-layer", language="en")])
    new_id = fixture_id("lease " + text[:20], text.encode())
    fixture = Fixture(
        id=new_id,
        kind="document",
        doc_type="lease",
        category="clean",
        status=status,
        created_at="2026-01-01T00:00:00Z",
        provenance=provenance("lease.pdf", text.encode()),
    )
    revision = revise(
        store.config,
        "lease",
        content,
        None,
        assignments=values or LEASE_VALUES,
        author="tester",
        source="manual",
    )
    store.create_fixture(fixture, content, [revision])
    return new_id


def thread_export() -> ThreadExport:
    return ThreadExport.model_validate(
        {
            "posts": {
                "p1": {
                    "id": "p1",
                    "create_at": 1,
                    "user_id": "u1",
                    "root_id": "",
                    "message": "Deploy is red again",
                },
                "p2": {
                    "id": "p2",
                    "create_at": 2,
                    "user_id": "u2",
                    "root_id": "p1",
                    "message": "@ana.silva I'll look",
                    "extra_member": True,
                },
            },
            "users": {
                "u1": {"id": "u1", "username": "ana.silva"},
                "u2": {"id": "u2", "username": "bo.chen"},
            },
            "channel": {"id": "c1", "name": "town-square"},
        }
    )


def add_thread(
    store: Store, rubrics: tuple[str, ...] = ("mentions that the deploy is red",)
) -> str:
    content = ThreadContent(export=thread_export())
    raw = content.model_dump_json().encode()
    new_id = fixture_id("thread deploy", raw)
    fixture = Fixture(
        id=new_id,
        kind="thread",
        category="clean",
        status="active",
        created_at="2026-01-01T00:00:00Z",
        provenance=provenance("thread.json", raw),
    )
    revision = revise(store.config, None, content, None, add_rubrics=rubrics, author="tester")
    store.create_fixture(fixture, content, [revision])
    return new_id
