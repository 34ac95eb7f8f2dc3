"""A real built bundle (curator.bundle.build_bundle over a small store) for end-to-end tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.model import (
    DocumentContent,
    FieldLabel,
    Fixture,
    LabelRevision,
    Lineage,
    MutationStep,
    Page,
    Rubric,
    Span,
    ThreadContent,
    ThreadExport,
)
from curator.store import Store, fixture_id
from tests.bundle.conftest import TIME, provenance


def _add_lease(
    store: Store,
    title: str,
    tenant: str,
    rent: str,
    start: str,
    *,
    category: str = "clean",
    parent: str | None = None,
    mutation: str = "truncate",
) -> str:
    text = (
        f"RESIDENTIAL LEASE\nTenant: {tenant}\nLandlord: Maple Court LLC\n"
        f"Lease Start Date: {start}\nMonthly Rent: {rent}\n"
    )

    def span(value: str) -> Span:
        return Span(page=1, start=text.index(value), end=text.index(value) + len(value))

    labels = LabelRevision(
        rev=1,
        time=TIME,
        author="tester",
        source="manual",
        fields={
            "tenant": FieldLabel(type="person", value=tenant, evidence=span(tenant)),
            "landlord": FieldLabel(
                type="organisation", value="Maple Court LLC", evidence=span("Maple Court LLC")
            ),
            "lease_start_date": FieldLabel(type="date", value=start, evidence=span(start)),
            "monthly_rent": FieldLabel(
                type="money", value=rent, variants=["USD " + rent.lstrip("$")], evidence=span(rent)
            ),
            "security_deposit": FieldLabel(type="money", value=None, expected_absent=True),
        },
    )
    lineage = None
    if parent:
        lineage = Lineage(
            parent=parent, parent_label_rev=1, mutations=[MutationStep(name=mutation, seed=7)]
        )
    fid = fixture_id(title, text.encode())
    fixture = Fixture(
        id=fid,
        kind="document",
        doc_type="lease",
        category=category,
        status="active",
        title=title,
        created_at=TIME,
        provenance=provenance(f"{title}.pdf"),
        lineage=lineage,
    )
    store.create_fixture(
        fixture, DocumentContent(pages=[Page(number=1, text=text, origin="text-layer")]), [labels]
    )
    return fid


def _add_thread(store: Store) -> str:
    export = ThreadExport.model_validate(
        {
            "posts": {
                "p1": {
                    "id": "p1",
                    "create_at": 1,
                    "user_id": "u1",
                    "message": "The deploy failed again @sam.lee",
                },
                "p2": {
                    "id": "p2",
                    "create_at": 2,
                    "user_id": "u2",
                    "root_id": "p1",
                    "message": "I will roll back now",
                },
            }
        }
    )
    fid = fixture_id("deploy rollback", b"deploy rollback")
    fixture = Fixture(
        id=fid,
        kind="thread",
        category="clean",
        status="active",
        title="deploy rollback",
        created_at=TIME,
        provenance=provenance("thread.json", "mattermost"),
    )
    labels = LabelRevision(
        rev=1,
        time=TIME,
        author="tester",
        source="manual",
        rubrics=[
            Rubric(text="mentions that @sam.lee will roll back", evidence_posts=["p2"]),
            Rubric(text="says the deploy failed", evidence_posts=["p1"]),
        ],
    )
    store.create_fixture(fixture, ThreadContent(export=export), [labels])
    return fid


@pytest.fixture(scope="session")
def built_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """bundles/1.0.0 of a store with 3 golden leases, 3 adversarial variants and a thread."""
    from curator.bundle.build import build_bundle

    store = Store.init(tmp_path_factory.mktemp("gate") / "store")
    maple = _add_lease(store, "maple lease", "Jordan Blake", "$1,250.00", "January 15, 2024")
    oak = _add_lease(store, "oak lease", "Casey Morgan", "$980.00", "2024-03-01")
    _add_lease(store, "elm lease", "Riley Stone", "$700.00", "1 June 2024")
    _add_lease(
        store,
        "maple lease truncated",
        "Jordan Blake",
        "$1,250.00",
        "January 15, 2024",
        category="truncated",
        parent=maple,
    )
    _add_lease(
        store,
        "oak lease noisy",
        "Casey Morgan",
        "$980.00",
        "2024-03-01",
        category="ocr-noise",
        parent=oak,
        mutation="ocr-noise",
    )
    _add_lease(
        store,
        "oak lease bilingual",
        "Casey Morgan",
        "$980.00",
        "2024-03-01",
        category="bilingual",
        parent=oak,
        mutation="bilingual",
    )
    _add_thread(store)
    return build_bundle(store, "1.0.0", formats="jsonl").path
