"""Build the sample golden store shipped in this repo from synthetic (Faker) data.

Every value is generated, so the ground truth is known by construction: each label's
evidence span is located in the text and checked by `curator validate`.
Usage: SOURCE_DATE_EPOCH=1767225600 python scripts/build_sample_store.py [STORE]
"""

from __future__ import annotations

import hashlib
import random
import sys
from datetime import date, timedelta
from pathlib import Path

from faker import Faker

from curator.labels import revise
from curator.model import (
    DocumentContent,
    Fixture,
    Page,
    Provenance,
    ThreadContent,
    ThreadExport,
)
from curator.store import Store, fixture_id

SEED = 20260101
CREATED = "2026-01-01T00:00:00Z"


def lease_text(fake: Faker, rng: random.Random) -> tuple[str, dict[str, str]]:
    start = date(2024, 1, 1) + timedelta(days=rng.randrange(0, 700))
    end = start.replace(year=start.year + 1) - timedelta(days=1)
    rent = rng.randrange(900, 4200, 25)
    values = {
        "tenant": fake.name(),
        "landlord": fake.name(),
        "premises_address": f"{fake.street_address()}, {fake.city()}",
        "lease_start_date": start.strftime("%B %d, %Y").replace(" 0", " "),
        "lease_end_date": end.strftime("%B %d, %Y").replace(" 0", " "),
        "monthly_rent": f"${rent:,}.00",
        "security_deposit": f"${rent * 2:,}.00",
    }
    text = (
        "RESIDENTIAL LEASE AGREEMENT\n\n"
        f"This Lease is made between the Landlord and the Tenant named below.\n"
        f"Landlord: {values['landlord']}\n"
        f"Tenant: {values['tenant']}\n"
        f"Premises Address: {values['premises_address']}\n\n"
        "1. TERM. The term of this Lease begins and ends on the dates below.\n"
        f"Lease Start Date: {values['lease_start_date']}\n"
        f"Lease End Date: {values['lease_end_date']}\n\n"
        "2. RENT. Rent is payable in advance on the first day of each month.\n"
        f"Monthly Rent: {values['monthly_rent']}\n\n"
        "3. DEPOSIT. The deposit is returned within 30 days of the end of the term.\n"
        f"Security Deposit: {values['security_deposit']}\n\n"
        "4. UTILITIES. The Tenant is responsible for electricity and internet.\n"
        f"Signed by {values['landlord']} and {values['tenant']}.\n"
    )
    return text, values


def thread(fake: Faker, rng: random.Random, topic: str) -> tuple[ThreadExport, list[str]]:
    users = {}
    for _ in range(3):
        first, last = fake.first_name(), fake.last_name()
        user_id = "".join(rng.choice("abcdefghijkmnopqrstuwxyz13456789") for _ in range(26))
        users[user_id] = {
            "id": user_id,
            "username": f"{first}.{last}".lower(),
            "first_name": first,
            "last_name": last,
            "email": f"{first}.{last}@example.com".lower(),
            "position": fake.job(),
        }
    ids = list(users)
    names = [users[i]["username"] for i in ids]
    channel_id = "".join(rng.choice("abcdefghijkmnopqrstuwxyz13456789") for _ in range(26))
    lines = [
        (ids[0], f"The {topic} check failed again on main, can someone look?"),
        (ids[1], f"@{names[0]} I see it too. Looks like the {topic} config changed yesterday."),
        (ids[2], f"I'll be ready to roll back the {topic} change after lunch."),
        (ids[0], f"Thanks @{names[2]}! @{names[1]} can you confirm the fix once it lands?"),
        (ids[1], "Confirmed, green again. Nice work on the quick react."),
    ]
    posts = {}
    root_id = ""
    for number, (user_id, message) in enumerate(lines):
        post_id = "".join(rng.choice("abcdefghijkmnopqrstuwxyz13456789") for _ in range(26))
        root_id = root_id or post_id
        posts[post_id] = {
            "id": post_id,
            "create_at": 1735732800000 + number * 60000,
            "user_id": user_id,
            "channel_id": channel_id,
            "root_id": "" if post_id == root_id else root_id,
            "message": message,
            "type": "",
            "props": {},
        }
    export = ThreadExport.model_validate(
        {"posts": posts, "users": users, "channel": {"id": channel_id, "name": "eng-ops", "display_name": "Eng Ops"},
         "team": {"id": "team" + channel_id[4:], "name": "platform"}, "file_infos": {}, "files": {}}
    )
    rubrics = [
        f"mentions that @{names[2]} said they will be ready to roll back",
        f"says the {topic} check is green again",
        f"contains the usernames involved as @mentions if referenced (@{names[0]}, @{names[1]})",
    ]
    return export, rubrics


def provenance(name: str, raw: bytes) -> Provenance:
    return Provenance(source_sha256=hashlib.sha256(raw).hexdigest(), source_name=name,
                      importer="sample", imported_at=CREATED)


def build(store: Store) -> list[str]:
    fake = Faker("en_US")
    fake.seed_instance(SEED)
    rng = random.Random(SEED)
    made = []
    with store.transaction() as txn:
        for number in range(5):
            text, values = lease_text(fake, rng)
            content = DocumentContent(pages=[Page(number=1, text=text, origin="text-layer", language="en")])
            new_id = fixture_id(f"lease {values['premises_address']}", text.encode())
            fixture = Fixture(id=new_id, kind="document", doc_type="lease", category="clean",
                              status="active", title=f"Lease {number + 1}", created_at=CREATED,
                              provenance=provenance(f"lease-{number + 1}.pdf", text.encode()))
            labels = revise(store.config, "lease", content, None, assignments=values,
                            author="sample-builder", reason="synthetic: values known by construction")
            txn.create_fixture(fixture, content, [labels])
            made.append(new_id)
        for topic in ("deploy", "lint", "billing"):
            export, rubrics = thread(fake, rng, topic)
            content = ThreadContent(export=export)
            raw = content.model_dump_json().encode()
            new_id = fixture_id(f"thread {topic} check failed", raw)
            fixture = Fixture(id=new_id, kind="thread", category="clean", status="active",
                              title=f"{topic} check thread", created_at=CREATED,
                              provenance=provenance(f"{topic}-thread.json", raw))
            labels = revise(store.config, None, content, None, add_rubrics=rubrics,
                            author="sample-builder", reason="synthetic: rubrics written with the thread")
            txn.create_fixture(fixture, content, [labels])
            made.append(new_id)
    return made


if __name__ == "__main__":
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent
    for made_id in build(Store(root)):
        print(made_id)
