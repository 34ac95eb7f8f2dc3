"""Helpers for promote tests: synthetic texts (Faker) and fixtures written the normal way."""

from __future__ import annotations

import hashlib

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
        f"Premises Address: {fake.address().replace(chr(10), ', ')}\nMonthly Rent: $1,{seed % 900 + 100}.00\n"
        + fake.text(max_nb_chars=words * 7)
    )


def document(text: str) -> DocumentContent:
    return DocumentContent(pages=[Page(number=1, text=text, origin="text-layer")])


def thread(messages: list[str]) -> ThreadContent:
    posts = {
        f"p{i}": {"id": f"p{i}", "create_at": 1000 + i, "message": m, "user_id": "u1",
                  "root_id": "" if i == 0 else "p0"}
        for i, m in enumerate(messages)
    }
    return ThreadContent(export=ThreadExport.model_validate({"posts": posts, "users": {"u1": {"id": "u1"}}}))


def add_fixture(store: Store, content, *, title: str = "lease", trace_id: str | None = None,
                importer: str = "pdf") -> str:
    key = content.model_dump_json().encode()
    new_id = fixture_id(title, key)
    kind = Kind(content.kind)
    store.create_fixture(
        Fixture(
            id=new_id, kind=kind, doc_type="lease" if kind is Kind.document else None,
            category="clean", created_at="2026-01-01T00:00:00Z",
            provenance=Provenance(source_sha256=hashlib.sha256(key).hexdigest(), source_name="x",
                                  importer=importer, imported_at="2026-01-01T00:00:00Z",
                                  trace_id=trace_id),
        ),
        content,
        [],
    )
    return new_id
