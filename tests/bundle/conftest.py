"""A small store of active fixtures (lease documents and a thread) for bundle tests."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from curator.model import (
    DocumentContent,
    FieldLabel,
    Fixture,
    KnownBadAnswer,
    LabelRevision,
    Lineage,
    MutationStep,
    Page,
    Provenance,
    Rubric,
    Span,
    ThreadContent,
    ThreadExport,
)
from curator.store import Store, fixture_id

TIME = "2026-01-01T00:00:00Z"


def provenance(name: str, importer: str = "pdf") -> Provenance:
    return Provenance(
        source_sha256=hashlib.sha256(name.encode()).hexdigest(),
        source_name=name,
        importer=importer,
        imported_at=TIME,
    )


def lease_text(tenant: str, rent: str, note: str = "") -> str:
    return (
        f"RESIDENTIAL LEASE\nTenant: {tenant}\nLandlord: Maple Court LLC\nMonthly Rent: {rent}\n"
        f"{note}"
    )


def add_lease(
    store: Store,
    title: str,
    tenant: str,
    rent: str,
    *,
    status: str = "active",
    category: str = "clean",
    parent: str | None = None,
    time: str = TIME,
    note: str = "",
) -> str:
    text = lease_text(tenant, rent, note)
    fid = fixture_id(title, text.encode())
    start = text.index(rent)
    labels = LabelRevision(
        rev=1,
        time=time,
        author="tester",
        source="manual",
        fields={
            "tenant": FieldLabel(
                type="person",
                value=tenant,
                evidence=Span(
                    page=1, start=text.index(tenant), end=text.index(tenant) + len(tenant)
                ),
            ),
            "monthly_rent": FieldLabel(
                type="money",
                value=rent,
                variants=["USD " + rent.lstrip("$")],
                evidence=Span(page=1, start=start, end=start + len(rent)),
            ),
            "security_deposit": FieldLabel(type="money", value=None, expected_absent=True),
        },
    )
    lineage = None
    if parent:
        lineage = Lineage(
            parent=parent,
            parent_label_rev=1,
            mutations=[MutationStep(name="truncate", params={"fraction": 0.5}, seed=7)],
        )
    fixture = Fixture(
        id=fid,
        kind="document",
        doc_type="lease",
        category=category,
        status=status,
        title=title,
        created_at=TIME,
        provenance=provenance(f"{title}.pdf"),
        lineage=lineage,
        known_bad=[
            KnownBadAnswer(failure_mode="hallucination", fields={"security_deposit": "$500"})
        ]
        if parent
        else [],
    )
    content = DocumentContent(pages=[Page(number=1, text=text, origin="text-layer", language="en")])
    store.create_fixture(fixture, content, [labels])
    return fid


THREAD = {
    "posts": {
        "p1": {
            "id": "p1",
            "create_at": 1000,
            "user_id": "u1",
            "message": "The deploy failed again @sam.lee",
            "channel_id": "c1",
        },
        "p2": {
            "id": "p2",
            "create_at": 2000,
            "user_id": "u2",
            "root_id": "p1",
            "message": "I will roll back now",
            "custom_member": {"kept": True},
        },
    },
    "users": {
        "u1": {"id": "u1", "username": "alex.doe"},
        "u2": {"id": "u2", "username": "sam.lee"},
    },
    "channel": {"id": "c1", "name": "town-square"},
    "extra_top_level": [1, 2],
}


def add_thread(store: Store, title: str = "deploy rollback", status: str = "active") -> str:
    export = ThreadExport.model_validate(THREAD)
    fid = fixture_id(title, title.encode())
    fixture = Fixture(
        id=fid,
        kind="thread",
        category="clean",
        status=status,
        title=title,
        created_at=TIME,
        provenance=provenance("thread.json", "mattermost"),
    )
    labels = LabelRevision(
        rev=1,
        time=TIME,
        author="tester",
        source="manual",
        rubrics=[Rubric(text="mentions that @sam.lee will roll back", evidence_posts=["p2"])],
    )
    store.create_fixture(fixture, ThreadContent(export=export), [labels])
    return fid


@pytest.fixture
def sample(store: Store) -> Store:
    parent = add_lease(store, "maple lease", "Jordan Blake", "$1,250.00")
    add_lease(store, "oak lease", "Casey Morgan", "$980.00")
    add_lease(
        store,
        "maple lease truncated",
        "Jordan Blake",
        "$1,250.00",
        category="truncated",
        parent=parent,
        time="2026-01-02T00:00:00Z",
    )
    add_lease(store, "draft lease", "Riley Stone", "$700.00", status="draft")
    add_thread(store)
    return store


def files_of(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }
