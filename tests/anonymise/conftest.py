"""Fixtures for the anonymiser tests: synthetic threads and documents, a vault, a network guard."""

from __future__ import annotations

import hashlib
import socket

import pytest

from curator.anonymise import Vault
from curator.model import (
    DocumentContent,
    FieldLabel,
    Fixture,
    LabelRevision,
    Page,
    Provenance,
    Rubric,
    Span,
    ThreadContent,
)
from tests.anonymise.synth import thread_export


@pytest.fixture
def vault() -> Vault:
    return Vault(hashlib.sha256(b"test vault key").digest())


@pytest.fixture(scope="session")
def export() -> dict:
    return thread_export()


@pytest.fixture
def thread(export) -> ThreadContent:
    return ThreadContent.model_validate({"kind": "thread", "export": export})


LEASE_TEXT = (
    "RESIDENTIAL LEASE AGREEMENT\n"
    "Landlord: Margaret Okafor\nTenant: Claudio Costa\n"
    "Premises Address: 4411 Birchwood Lane, Springfield, IL 62704\n"
    "Monthly Rent: $1,250.00\n"
    "The Tenant, Mr. Costa, may reach the Landlord at m.okafor@okafor-rentals.com or (217) "
    "482-7731.\n"
    "Rent is paid to IBAN DE89 3704 0044 0532 0130 00.\n"
    "Signed by Claudio\nCosta on January 15, 2024."
)


def lease() -> tuple[DocumentContent, list[LabelRevision]]:
    content = DocumentContent(
        pages=[Page(number=1, text=LEASE_TEXT, origin="text-layer", language="en")]
    )

    def field(field_type: str, value: str) -> FieldLabel:
        start = LEASE_TEXT.index(value)
        return FieldLabel(
            type=field_type, value=value, evidence=Span(page=1, start=start, end=start + len(value))
        )

    revision = LabelRevision(
        rev=1,
        time="2026-01-01T00:00:00Z",
        author="tester",
        source="import-suggestion",
        fields={
            "tenant": field("person", "Claudio Costa"),
            "landlord": field("person", "Margaret Okafor"),
            "premises_address": field("address", "4411 Birchwood Lane, Springfield, IL 62704"),
            "monthly_rent": field("money", "$1,250.00"),
        },
        rubrics=[Rubric(text="names Claudio Costa as the tenant and Ms. Okafor as landlord")],
    )
    return content, [revision]


def fixture_record(fixture_id: str, kind: str, title: str = "sample") -> Fixture:
    return Fixture(
        id=fixture_id,
        kind=kind,
        doc_type="lease" if kind == "document" else None,
        category="clean",
        title=title,
        created_at="2026-01-01T00:00:00Z",
        provenance=Provenance(
            source_sha256="0" * 64,
            source_name="source.json",
            importer="test",
            imported_at="2026-01-01T00:00:00Z",
        ),
    )


class NetworkAttempt(AssertionError):
    pass


@pytest.fixture
def no_network(monkeypatch):
    """Fault injection: any attempt to open a network connection fails the test."""
    attempts: list[object] = []

    def refuse(*args, **kwargs):
        attempts.append(args)
        raise NetworkAttempt(f"network access attempted: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    return attempts
