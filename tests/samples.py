"""Synthetic fixtures (Faker, no real people) to mutate in tests, benchmarks and demos.

`lease` and `invoice` write documents whose field values sit behind the label phrases of
the default curator.toml; `thread` writes a Mattermost-shaped thread with rubrics that
name their evidence posts. The same seed gives the same fixture.
"""

from __future__ import annotations

import hashlib
import random
from datetime import date, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING

from curator import clock
from curator.labels import revise
from curator.model import (
    Content,
    DocumentContent,
    Fixture,
    Kind,
    LabelRevision,
    Page,
    Post,
    Provenance,
    Rubric,
    Status,
    ThreadContent,
    ThreadExport,
    User,
)
from curator.normalise import format_date
from curator.store import Store, dump_content, fixture_id

if TYPE_CHECKING:
    from faker import Faker

_BOILERPLATE = [
    "The Tenant shall keep the premises in good repair and return them in the same condition.",
    "Rent is payable in advance on the first day of each calendar month without deduction.",
    "The Landlord may enter the premises with reasonable notice to carry out inspections.",
    "Utilities, including water, electricity and internet, are the responsibility of the Tenant.",
    "No alterations may be made to the premises without the prior written consent of the Landlord.",
    "Either party may terminate this agreement by giving sixty days written notice to the other.",
    "The premises shall be used solely as a private residence and for no other purpose.",
    "Pets are not permitted on the premises unless agreed in writing by both parties.",
    "This agreement is governed by the laws of the state in which the premises are located.",
    "Any notice under this agreement must be delivered in writing to the address given above.",
]


def _faker(seed: int) -> Faker:
    from faker import Faker

    fake = Faker("en_US")
    fake.seed_instance(seed)
    return fake


def format_money(amount: Decimal) -> str:
    return f"${amount:,.2f}"


def lease(seed: int, *, pages: int = 2) -> tuple[DocumentContent, dict[str, str]]:
    """A lease of `pages` pages and the values of its fields."""
    rng = random.Random(seed)
    fake = _faker(seed)
    style = rng.randrange(4)
    start = date(2023, 1, 1) + timedelta(days=rng.randrange(700))
    end = start + timedelta(days=365 * rng.choice([1, 1, 2]) - 1)
    signed = start - timedelta(days=rng.randrange(5, 40))
    rent = Decimal(rng.randrange(80, 400) * 10)
    values = {
        "landlord": fake.name(),
        "tenant": fake.name(),
        "premises_address": fake.address().replace("\n", ", "),
        "lease_start_date": format_date(start, style),
        "lease_end_date": format_date(end, style),
        "monthly_rent": format_money(rent),
        "security_deposit": format_money(rent * rng.choice([1, 2])),
    }
    clauses = [
        "RESIDENTIAL LEASE AGREEMENT\n\n"
        f"This Lease Agreement is made on {format_date(signed, style)} between the parties below.",
        f"1. PARTIES\nLandlord: {values['landlord']}\nTenant: {values['tenant']}",
        f"2. PREMISES\nPremises Address: {values['premises_address']}",
        f"3. TERM\nLease Start Date: {values['lease_start_date']}\n"
        f"Lease End Date: {values['lease_end_date']}",
    ]
    other = [b for i, b in enumerate(_BOILERPLATE) if i != 1]
    rng.shuffle(other)
    for number, sentence in enumerate(other[: 2 + 2 * pages], start=4):
        clauses.append(f"{number}. GENERAL\n{sentence} {rng.choice(_BOILERPLATE)}")
    number = len(clauses)
    clauses += [
        f"{number}. RENT\nMonthly Rent: {values['monthly_rent']}\n{_BOILERPLATE[1]}",
        f"{number + 1}. DEPOSIT\nSecurity Deposit: {values['security_deposit']}\n"
        "The deposit is returned within thirty days after the end of the term, less any damage.",
        f"SIGNED by the Landlord, {values['landlord']}, and the Tenant, {values['tenant']}.",
    ]
    # Page 1 ends after the term; rent and deposit come last, so a cut or a page limit loses them.
    rest = clauses[4:]
    per_page = max(1, -(-len(rest) // max(1, pages - 1)))
    groups = (
        [clauses[:4]] + [rest[i : i + per_page] for i in range(0, len(rest), per_page)]
        if pages > 1
        else [clauses]
    )
    texts = ["\n\n".join(group) for group in groups]
    content = DocumentContent(
        pages=[
            Page(number=n, text=t, origin="text-layer", language="en")
            for n, t in enumerate(texts, start=1)
        ]
    )
    return content, values


def invoice(seed: int) -> tuple[DocumentContent, dict[str, str]]:
    """A one-page supplier invoice and the values of its fields."""
    rng = random.Random(seed)
    fake = _faker(seed)
    style = rng.randrange(4)
    issued = date(2023, 1, 1) + timedelta(days=rng.randrange(700))
    total = Decimal(rng.randrange(10000, 900000)) / 100
    values = {
        "invoice_number": f"INV-{issued.year}-{rng.randrange(1000, 9999)}",
        "vendor": fake.company(),
        "customer": fake.company(),
        "invoice_date": format_date(issued, style),
        "due_date": format_date(issued + timedelta(days=30), style),
        "total_amount": format_money(total),
    }
    text = (
        f"INVOICE\n\nInvoice Number: {values['invoice_number']}\nVendor: {values['vendor']}\n"
        f"Bill To: {values['customer']}\nInvoice Date: {values['invoice_date']}\n"
        f"Due Date: {values['due_date']}\n\nConsulting services rendered during the period.\n"
        f"Total Amount: {values['total_amount']}\n\nPlease pay by bank transfer within thirty days."
    )
    return DocumentContent(
        pages=[Page(number=1, text=text, origin="text-layer", language="en")]
    ), values


def thread(seed: int, *, posts: int = 5) -> tuple[ThreadContent, list[Rubric]]:
    """A support thread of `posts` posts and rubrics that cite their evidence posts."""
    rng = random.Random(seed)
    fake = _faker(seed)
    users = {f"u{i}": User(id=f"u{i}", username=fake.user_name()) for i in range(2)}
    lines = [
        "The nightly export job failed again with a timeout.",
        "I see it too, it started after the database upgrade.",
        "Could we raise the timeout to ten minutes as a stopgap?",
        "Raised it, the job finished in seven minutes.",
        "Let's keep the higher timeout and open a ticket for the slow query.",
        "Ticket filed, closing this thread.",
    ]
    base = 1_700_000_000_000 + rng.randrange(10**9)
    export_posts = {}
    for i in range(posts):
        post_id = f"p{seed}x{i}"
        export_posts[post_id] = Post(
            id=post_id,
            create_at=base + i * 60_000,
            user_id=f"u{i % 2}",
            root_id="" if i == 0 else f"p{seed}x0",
            message=lines[i % len(lines)],
        )
    ids = list(export_posts)
    rubrics = [
        Rubric(text="The summary names the failing job.", evidence_posts=[ids[0]]),
        Rubric(text="The summary says what fixed it.", evidence_posts=ids[2:4] or ids[-1:]),
    ]
    return ThreadContent(export=ThreadExport(posts=export_posts, users=users)), rubrics


def add(store: Store, kind: str, seed: int, **options: int) -> str:
    """Write a synthetic fixture (`lease`, `invoice` or `thread`) with labels; return its id."""
    content: Content
    values: dict[str, str]
    if kind == "thread":
        content, rubrics = thread(seed, **options)
        doc_type, values = None, {}
    else:
        content, values = lease(seed, **options) if kind == "lease" else invoice(seed)
        doc_type, rubrics = kind, []
    title = f"{kind} sample {seed}"
    raw = dump_content(content).encode()
    now = clock.now_iso()
    fixture = Fixture(
        id=fixture_id(title, raw),
        kind=Kind.thread if kind == "thread" else Kind.document,
        doc_type=doc_type,
        category="clean",
        status=Status.active,
        title=title,
        created_at=now,
        provenance=Provenance(
            source_sha256=hashlib.sha256(raw).hexdigest(),
            source_name=f"{kind}-{seed}.{'json' if kind == 'thread' else 'pdf'}",
            importer="synthetic",
            imported_at=now,
        ),
    )
    revision = revise(
        store.config,
        doc_type,
        content,
        None,
        assignments=values,
        author="samples",
        reason="synthetic sample",
    )
    revision = LabelRevision(
        **{**revision.model_dump(), "rubrics": [r.model_dump() for r in rubrics]}
    )
    store.create_fixture(fixture, content, [revision])
    return fixture.id
