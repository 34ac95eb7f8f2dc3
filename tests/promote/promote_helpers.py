"""Helpers for promote tests: synthetic texts (Faker) and fixtures written the normal way."""

from __future__ import annotations

import hashlib
import importlib.util
import random
from pathlib import Path

from faker import Faker

from curator.model import (
    DocumentContent,
    Fixture,
    Kind,
    Page,
    Provenance,
    ThreadContent,
    ThreadExport,
)
from curator.store import Store, fixture_id


def lease_text(seed: int, words: int = 120) -> str:
    fake = Faker("en_US")
    fake.seed_instance(seed)
    return (
        f"RESIDENTIAL LEASE AGREEMENT\nLandlord: {fake.name()}\nTenant: {fake.name()}\n"
        f"Premises Address: {fake.address().replace(chr(10), ', ')}\n"
        f"Monthly Rent: $1,{seed % 900 + 100}.00\n" + fake.text(max_nb_chars=words * 7)
    )


def document(text: str) -> DocumentContent:
    return DocumentContent(pages=[Page(number=1, text=text, origin="text-layer")])


def thread(messages: list[str]) -> ThreadContent:
    posts = {
        f"p{i}": {
            "id": f"p{i}",
            "create_at": 1000 + i,
            "message": m,
            "user_id": "u1",
            "root_id": "" if i == 0 else "p0",
        }
        for i, m in enumerate(messages)
    }
    return ThreadContent(
        export=ThreadExport.model_validate({"posts": posts, "users": {"u1": {"id": "u1"}}})
    )


def add_fixture(
    store: Store,
    content,
    *,
    title: str = "lease",
    trace_id: str | None = None,
    importer: str = "pdf",
) -> str:
    key = content.model_dump_json().encode()
    new_id = fixture_id(title, key)
    kind = Kind(content.kind)
    store.create_fixture(
        Fixture(
            id=new_id,
            kind=kind,
            doc_type="lease" if kind is Kind.document else None,
            category="clean",
            created_at="2026-01-01T00:00:00Z",
            provenance=Provenance(
                source_sha256=hashlib.sha256(key).hexdigest(),
                source_name="x",
                importer=importer,
                imported_at="2026-01-01T00:00:00Z",
                trace_id=trace_id,
            ),
        ),
        content,
        [],
    )
    return new_id


def _sample_generator():
    path = Path(__file__).resolve().parents[2] / "examples" / "failures" / "generate.py"
    spec = importlib.util.spec_from_file_location("failures_generate", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


samples = _sample_generator()


def lease_failure(seed: int, trace: str, **extra) -> tuple[dict, dict[str, str]]:
    """A lease extraction failure on a plain-text input, and the originals it contains.

    Names come from the sample generator's `person`: never equal to an en_US pseudonym.
    """
    fake = Faker("en_US")
    fake.seed_instance(seed)
    rng = random.Random(seed)
    people = {role: samples.full_name(rng) for role in ("tenant", "landlord")}
    email = f"{people['tenant'].split()[-1].lower()}.home@{fake.domain_word()}.test"
    phone = fake.numerify("(555) ###-####")
    text = (
        "RESIDENTIAL LEASE AGREEMENT\n"
        f"Landlord: {people['landlord']}\nTenant: {people['tenant']}\n"
        "Lease Start Date: March 1, 2025\nLease End Date: February 28, 2026\n"
        "Monthly Rent: $1,875.00\nNo security deposit is required under this agreement.\n"
        f"Notices to the tenant go to {email} or {phone}.\n" + fake.paragraph(nb_sentences=6)
    )
    record = {
        "trace_id": trace,
        "observed_at": "2025-02-11T09:42:17Z",
        "failure_mode": "hallucination",
        "note": f"Invented a deposit for {people['tenant']}; call {phone} to confirm.",
        "doc_type": "lease",
        "input": {"text": text},
        "output": {
            "fields": {
                "tenant": {"value": people["tenant"], "confidence": 0.97},
                "landlord": {"value": people["landlord"], "confidence": 0.95},
                "monthly_rent": {"value": "$1,875.00", "confidence": 0.9},
                "security_deposit": {"value": "$3,750.00", "confidence": 0.88},
            }
        },
        "corrections": {"fields": {"security_deposit": None}},
    }
    record.update(extra)
    originals = {**people, "email": email, "phone": phone}
    return record, originals


def store_text(root) -> str:
    """Everything in the store that is committed or exported (not .curator/), as one text."""
    return "\n".join(
        p.read_text(encoding="utf-8", errors="replace")
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".curator" not in p.relative_to(root).parts
    )
