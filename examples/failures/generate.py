"""Write the sample production failure records from Faker data (fixed seed).

    python examples/failures/generate.py     # writes failure.json and failures.jsonl here

failures.jsonl   a batch: a PDF extraction that took the landlord for the tenant (input:
                 ../pdfs/lease-maple.pdf, every field corrected), a thread summary that
                 blamed the wrong person (Mattermost export input, rubric corrections), and a
                 lease extraction that invented a security deposit (plain-text input)
failure.json     that last lease seen again under another trace, one word different: a
                 near-duplicate that `curator promote` reports as already covered
sample-summary.json  a thread summary with the wrong amount, date and sender; the sample
                 store promotes it, so its bundles carry a known-bad answer to calibrate judges on
Everything is synthetic; nothing names a real person. People are drawn from Faker's
Indonesian name lists, leaving out any name also in its en_US lists: pseudonyms are drawn
from the en_US lists, and a new original that happens to equal a pseudonym already in the
vault is something the anonymiser's audit cannot tell from a leak.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from faker import Faker

SEED = 808
HERE = Path(__file__).resolve().parent
BASE_MS = 1_735_725_600_000  # 2025-01-01T10:00:00Z
ID_CHARS = "abcdefghijkmnopqrstuwxyz13456789"


def mm_id(rng: random.Random) -> str:
    return "".join(rng.choice(ID_CHARS) for _ in range(26))


_NAMES: tuple[list[str], list[str]] | None = None


def person(rng: random.Random) -> tuple[str, str]:
    """A synthetic (first, last) name that no en_US pseudonym can equal."""
    global _NAMES
    if _NAMES is None:
        from faker.providers.person.en_US import Provider as Pseudonyms
        from faker.providers.person.id_ID import Provider as Names

        taken = set(Pseudonyms.first_names) | set(Pseudonyms.last_names)
        _NAMES = (sorted(set(Names.first_names) - taken), sorted(set(Names.last_names) - taken))
    return rng.choice(_NAMES[0]), rng.choice(_NAMES[1])


def full_name(rng: random.Random) -> str:
    return " ".join(person(rng))


def lease_text(fake: Faker, rng: random.Random) -> tuple[str, dict[str, str]]:
    facts = {
        "landlord": full_name(rng),
        "tenant": full_name(rng),
        "premises_address": fake.street_address()
        + ", "
        + fake.city()
        + ", "
        + fake.state_abbr()
        + " "
        + fake.zipcode(),
        "lease_start_date": "March 1, 2025",
        "lease_end_date": "February 28, 2026",
        "monthly_rent": "$1,875.00",
    }
    email = f"{facts['tenant'].split()[0].lower()}@example.net"
    text = (
        "RESIDENTIAL LEASE AGREEMENT\n"
        f"This lease is made between Landlord: {facts['landlord']} and Tenant: {facts['tenant']}.\n"
        f"Premises Address: {facts['premises_address']}\n"
        f"Lease Start Date: {facts['lease_start_date']}\n"
        f"Lease End Date: {facts['lease_end_date']}\n"
        f"Monthly Rent: {facts['monthly_rent']}, payable on the first day of each month.\n"
        "No security deposit is required under this agreement. The tenant may keep one cat.\n"
        f"Notices to the tenant go to {email} or {fake.numerify('555-###-####')}.\n"
        "Both parties signed this agreement on the date first written above."
    )
    return text, facts


def hallucinated_deposit(fake: Faker, rng: random.Random) -> tuple[dict[str, Any], str]:
    text, facts = lease_text(fake, rng)
    record = {
        "trace_id": "trace-7f3a9c01",
        "observed_at": "2025-02-11T09:42:17Z",
        "failure_mode": "hallucination",
        "note": f"Extractor reported a deposit for {facts['tenant']}'s lease; the lease says "
        "there is none.",
        "doc_type": "lease",
        "input": {"text": text},
        "output": {
            "fields": {
                "tenant": {"value": facts["tenant"], "confidence": 0.97},
                "landlord": {"value": facts["landlord"], "confidence": 0.95},
                "monthly_rent": {"value": facts["monthly_rent"], "confidence": 0.93},
                "security_deposit": {"value": "$3,750.00", "confidence": 0.88},
            }
        },
        "corrections": {"fields": {"security_deposit": None}},
    }
    return record, text


def wrong_attribution(fake: Faker, rng: random.Random) -> dict[str, Any]:
    people = [person(rng) for _ in range(3)]
    users = {}
    for first, last in people:
        uid = mm_id(rng)
        users[uid] = {
            "id": uid,
            "username": f"{first.lower()}.{last.lower()}",
            "first_name": first,
            "last_name": last,
            "nickname": "",
            "email": f"{first.lower()}.{last.lower()}@example.com",
            "position": "Property manager",
            "roles": "system_user",
            "locale": "en",
        }
    ids = list(users)
    channel = mm_id(rng)
    (a_first, _), (b_first, b_last), (c_first, _) = people
    lines = [
        (
            0,
            "The boiler at the Elm Court building failed again overnight. "
            f"@{b_first.lower()}.{b_last.lower()} can you look?",
        ),
        (1, f"On it. {c_first} reported the same thing last week, it is the pressure valve."),
        (2, "I ordered the replacement valve this morning; the plumber comes Thursday."),
        (1, "Thanks. I will tell the tenants heating is back by Thursday evening."),
        (0, f"Great, {b_first}. Please log the cost against the Elm Court maintenance budget."),
    ]
    posts, root = {}, ""
    for minute, (who, message) in enumerate(lines):
        pid = mm_id(rng)
        posts[pid] = {
            "id": pid,
            "create_at": BASE_MS + minute * 60_000,
            "update_at": BASE_MS + minute * 60_000,
            "edit_at": 0,
            "delete_at": 0,
            "user_id": ids[who],
            "channel_id": channel,
            "root_id": root,
            "message": message,
            "type": "",
            "props": {},
            "metadata": {},
        }
        root = root or pid
    export = {
        "posts": posts,
        "users": users,
        "channel": {
            "id": channel,
            "name": "building-maintenance",
            "display_name": "Building maintenance",
        },
        "team": {"id": mm_id(rng), "name": "property-ops"},
    }
    return {
        "trace_id": "trace-2b81d4e6",
        "observed_at": "2025-02-12T16:05:00Z",
        "failure_mode": "field_targeting",
        "note": f"Summary says {a_first} ordered the valve; it was {c_first}.",
        "input": {"thread": export},
        "output": {
            "text": f"{a_first} ordered a replacement pressure valve and {b_first} will inform "
            "the tenants."
        },
        "corrections": {
            "rubrics": [
                f"Says that {c_first} ordered the replacement valve",
                f"Says that {b_first} will tell the tenants heating is back by Thursday evening",
                "Mentions that the plumber comes on Thursday",
            ]
        },
    }


def swapped_parties() -> dict[str, Any]:
    truth = json.loads((HERE.parent / "truth.json").read_text(encoding="utf-8"))[
        "pdfs/lease-maple.pdf"
    ]["fields"]
    output = {name: {"value": value, "confidence": 0.9} for name, value in truth.items()}
    output["tenant"] = {"value": truth["landlord"], "confidence": 0.61}
    return {
        "trace_id": "trace-c94e0a55",
        "observed_at": "2025-02-13T11:20:44Z",
        "failure_mode": "confidence_mismatch",
        "note": "Tenant extracted from the landlord line, with low confidence that nobody acted "
        "on.",
        "doc_type": "lease",
        "input": {"pdf": "../pdfs/lease-maple.pdf"},
        "output": {"fields": output},
        "corrections": {"fields": dict(truth)},
    }


def wrong_figures(rng: random.Random) -> dict[str, Any]:
    """A rent-increase summary with the wrong amount, date and sender: the sample store's
    known-bad answer, on which a judge's calibration must fail every rubric."""
    (a_first, a_last), (b_first, b_last), (c_first, c_last) = (person(rng) for _ in range(3))
    handles = [
        f"{first.lower()}.{last.lower()}"
        for first, last in ((a_first, a_last), (b_first, b_last), (c_first, c_last))
    ]
    users = {}
    for (first, last), handle in zip(
        ((a_first, a_last), (b_first, b_last), (c_first, c_last)), handles, strict=True
    ):
        uid = mm_id(rng)
        users[uid] = {
            "id": uid,
            "username": handle,
            "first_name": first,
            "last_name": last,
            "roles": "system_user",
        }
    ids = list(users)
    channel = mm_id(rng)
    lines = [
        (
            0,
            f"@{handles[1]} the owners of Birch Court want to raise the rent. What is the new "
            "figure?",
        ),
        (1, "The new monthly rent is $2,050.00, starting on March 1, 2025."),
        (2, "I will send the letter about it to the tenants on Friday."),
        (0, f"Thanks @{handles[2]}, and thanks {b_first}."),
    ]
    posts, root = {}, ""
    for minute, (who, message) in enumerate(lines):
        pid = mm_id(rng)
        posts[pid] = {
            "id": pid,
            "create_at": BASE_MS + 86_400_000 + minute * 60_000,
            "user_id": ids[who],
            "channel_id": channel,
            "root_id": root,
            "message": message,
            "type": "",
        }
        root = root or pid
    export = {
        "posts": posts,
        "users": users,
        "channel": {"id": channel, "name": "rent-reviews", "display_name": "Rent reviews"},
        "team": {"id": mm_id(rng), "name": "property-ops", "display_name": "Property Ops"},
    }
    return {
        "trace_id": "trace-5d20e7b3",
        "observed_at": "2025-02-15T10:30:00Z",
        "failure_mode": "hallucination",
        "note": "The summary invented the amount and the date and named the wrong sender.",
        "input": {"thread": export},
        "output": {
            "text": f"@{handles[1]} says the rent goes up to $2,500.00 from April 1, 2025, "
            f"and @{handles[0]} will write to the tenants."
        },
        "corrections": {
            "rubrics": [
                "States the new monthly rent of $2,050.00.",
                "Says that the new rent starts on March 1, 2025.",
                f"Says that @{handles[2]} sends the letter to the tenants.",
            ]
        },
    }


def main() -> None:
    fake = Faker("en_US")
    fake.seed_instance(SEED)
    rng = random.Random(SEED)
    lease, text = hallucinated_deposit(fake, rng)
    batch = [swapped_parties(), wrong_attribution(fake, rng), lease]
    near = json.loads(json.dumps(lease))
    near["trace_id"] = "trace-7f3a9c02"
    near["observed_at"] = "2025-02-14T08:00:00Z"
    near["input"]["text"] = text.replace("keep one cat", "keep one dog")
    (HERE / "failure.json").write_text(
        json.dumps(near, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    (HERE / "failures.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in batch),
        encoding="utf-8",
    )
    # Its own generator, so the files above stay byte-identical: promoted into the sample store.
    summary = wrong_figures(random.Random(SEED + 1))
    (HERE / "sample-summary.json").write_text(
        json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
