"""Builders for scoring tests: real curator.model objects, small enough to score by hand."""

from __future__ import annotations

from typing import Any

from curator.model import (
    DocumentContent,
    FieldLabel,
    Fixture,
    LabelRevision,
    Page,
    Prediction,
    Rubric,
    ThreadContent,
    ThreadExport,
)
from curator.score.scoring import SimpleCase

LEASE_TEXT = (
    "Residential Lease. Landlord: Maria Jensen. Tenant: Oliver Grant. "
    "Premises Address: 12 Harbour Road, Springfield. Lease Start Date: January 15, 2024. "
    "Monthly Rent: $1,250.00. Amendment: the Monthly Rent of $1,100.00 is replaced. "
    "Signed on March 3, 2024."
)

LEASE_FIELDS: dict[str, dict[str, Any]] = {
    "landlord": {"type": "person", "value": "Maria Jensen"},
    "tenant": {"type": "person", "value": "Oliver Grant"},
    "premises_address": {"type": "address", "value": "12 Harbour Road, Springfield"},
    "lease_start_date": {"type": "date", "value": "2024-01-15", "variants": ["15/01/2024"]},
    "monthly_rent": {"type": "money", "value": "$1,250.00"},
    "security_deposit": {"type": "money", "value": None, "expected_absent": True},
}


def fixture(
    fixture_id: str = "lease-a-0000000a",
    *,
    category: str = "clean",
    kind: str = "document",
    mutations: tuple[str, ...] = (),
    importer: str = "pdf",
) -> Fixture:
    data: dict[str, Any] = {
        "id": fixture_id,
        "kind": kind,
        "doc_type": "lease" if kind == "document" else None,
        "category": category,
        "status": "active",
        "created_at": "2026-01-01T00:00:00Z",
        "provenance": {
            "source_sha256": "0" * 64,
            "source_name": "x.pdf",
            "importer": importer,
            "imported_at": "2026-01-01T00:00:00Z",
        },
    }
    if mutations:
        data["lineage"] = {
            "parent": "lease-p-0000000f",
            "parent_label_rev": 1,
            "mutations": [{"name": name, "seed": 1} for name in mutations],
        }
    return Fixture.model_validate(data)


def labels(
    fields: dict[str, dict[str, Any]] | None = None, rubrics: tuple[str, ...] = ()
) -> LabelRevision:
    return LabelRevision(
        rev=1,
        time="2026-01-01T00:00:00Z",
        author="t",
        source="manual",
        fields={name: FieldLabel.model_validate(spec) for name, spec in (fields or {}).items()},
        rubrics=[Rubric(text=text) for text in rubrics],
    )


def document_case(
    fixture_id: str = "lease-a-0000000a",
    *,
    text: str = LEASE_TEXT,
    fields: dict[str, dict[str, Any]] | None = None,
    **kwargs: Any,
) -> SimpleCase:
    content = DocumentContent(pages=[Page(number=1, text=text, origin="text-layer")])
    return SimpleCase(
        fixture(fixture_id, **kwargs), content, labels(LEASE_FIELDS if fields is None else fields)
    )


def thread_case(fixture_id: str, rubrics: tuple[str, ...], **kwargs: Any) -> SimpleCase:
    export = ThreadExport.model_validate(
        {"posts": {"p1": {"id": "p1", "message": "@ana I will be ready by Friday"}}}
    )
    return SimpleCase(
        fixture(fixture_id, kind="thread", **kwargs),
        ThreadContent(export=export),
        labels(rubrics=rubrics),
    )


def prediction(
    fixture_id: str = "lease-a-0000000a",
    metrics: dict[str, float] | None = None,
    rubrics: list[dict[str, Any]] | None = None,
    **fields: Any,
) -> Prediction:
    """fields: name=value or name=(value, confidence)."""
    as_fields = {}
    for name, given in fields.items():
        value, confidence = given if isinstance(given, tuple) else (given, None)
        as_fields[name] = {"value": value, "confidence": confidence}
    return Prediction.model_validate(
        {
            "fixture_id": fixture_id,
            "fields": as_fields,
            "rubrics": rubrics or [],
            "metrics": metrics,
        }
    )


def all_right(confidence: float | None = None) -> dict[str, Any]:
    """Keyword arguments for prediction(): every LEASE_FIELDS field right."""
    values = {
        "landlord": "Maria Jensen",
        "tenant": "Oliver Grant",
        "premises_address": "12 Harbour Road, Springfield",
        "lease_start_date": "January 15, 2024",
        "monthly_rent": "1250",
        "security_deposit": None,
    }
    return {name: (value, confidence) for name, value in values.items()}
