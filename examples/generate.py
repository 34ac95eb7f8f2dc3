"""Write curator's sample raw inputs from Faker data (fixed seed): run it to regenerate.

    python examples/generate.py            # writes into examples/

Mattermost exports (a thread, and a whole-channel export with orphan replies), a chat
JSONL log, lease and invoice PDFs with a text layer, image-only scans made by rendering
and degrading pages (one skewed, one sideways), and truth.json with each example's true
field values and rubrics. Everything is synthetic; nothing names a real person.
"""

from __future__ import annotations

import base64
import io
import json
import random
import sys
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from faker import Faker

SEED = 4242
HERE = Path(__file__).resolve().parent
BASE_MS = 1_704_103_200_000  # 2024-01-01T10:00:00Z: fixed, so output is byte-identical
ID_CHARS = "abcdefghijkmnopqrstuwxyz13456789"


def money(amount: int) -> str:
    return f"${amount:,.2f}"


def long_date(day: date) -> str:
    return f"{day:%B} {day.day}, {day.year}"


# ---------------------------------------------------------------- documents


def lease_facts(fake: Faker) -> dict[str, str]:
    start = fake.date_between_dates(date(2024, 1, 1), date(2025, 6, 30))
    rent = fake.random_int(9, 40) * 50
    return {
        "landlord": fake.name(),
        "tenant": fake.name(),
        "premises_address": f"{fake.street_address()}, {fake.city()}, {fake.state_abbr()} "
        f"{fake.zipcode()}",
        "lease_start_date": long_date(start),
        "lease_end_date": long_date(start + timedelta(days=364)),
        "monthly_rent": money(rent),
        "security_deposit": money(rent * 2),
    }


def lease_pages(facts: dict[str, str]) -> list[list[str]]:
    return [
        [
            "RESIDENTIAL LEASE AGREEMENT",
            "",
            "This agreement is made between the parties named below for the",
            "rental of the premises described in this lease.",
            "",
            f"Landlord: {facts['landlord']}",
            f"Tenant: {facts['tenant']}",
            f"Premises Address: {facts['premises_address']}",
            f"Lease Start Date: {facts['lease_start_date']}",
            f"Lease End Date: {facts['lease_end_date']}",
            f"Monthly Rent: {facts['monthly_rent']}",
            f"Security Deposit: {facts['security_deposit']}",
        ],
        [
            "TERMS AND CONDITIONS",
            "",
            "1. Rent is payable in advance on the first day of each month.",
            "2. The deposit is returned within thirty days after the lease ends,",
            "less the cost of repairing any damage beyond normal wear and tear.",
            "3. The tenant may not sublet the premises without written consent.",
            "4. Either party may end this lease with sixty days written notice.",
            "",
            f"Signed by the landlord, {facts['landlord']}",
            f"Signed by the tenant, {facts['tenant']}",
        ],
    ]


def invoice_facts(fake: Faker) -> dict[str, str]:
    issued = fake.date_between_dates(date(2024, 1, 1), date(2025, 6, 30))
    return {
        "invoice_number": f"INV-{issued.year}-{fake.random_int(1000, 9999)}",
        "vendor": fake.company(),
        "customer": fake.company(),
        "invoice_date": long_date(issued),
        "due_date": long_date(issued + timedelta(days=30)),
    }


def invoice_pages(fake: Faker, facts: dict[str, str]) -> list[list[str]]:
    items = [
        (fake.bs().capitalize(), fake.random_int(1, 9), fake.random_int(20, 400)) for _ in range(3)
    ]
    total = sum(qty * price for _, qty, price in items)
    facts["total_amount"] = money(total)
    return [
        [
            "INVOICE",
            "",
            f"Invoice Number: {facts['invoice_number']}",
            f"Invoice Date: {facts['invoice_date']}",
            f"Due Date: {facts['due_date']}",
            f"Vendor: {facts['vendor']}",
            f"Bill To: {facts['customer']}",
            "",
            *[
                f"{qty} x {name[:40]} at {money(price)} = {money(qty * price)}"
                for name, qty, price in items
            ],
            "",
            f"Total Amount: {facts['total_amount']}",
            "Payment by bank transfer within thirty days of the invoice date.",
        ]
    ]


def text_pdf(pages: list[list[str]], font_size: int = 12) -> bytes:
    """A PDF with a real text layer; invariant=1 keeps the bytes reproducible."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=letter, invariant=1)
    for lines in pages:
        y = letter[1] - 72
        for line in lines:
            pdf.setFont("Helvetica-Bold" if line.isupper() else "Helvetica", font_size)
            pdf.drawString(72, y, line)
            y -= font_size * 1.6
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def scanned_pdf(
    source_pdf: bytes,
    *,
    dpi: int,
    skew: float = 0.0,
    rotate: int = 0,
    noise: float = 0.0,
    seed: int = SEED,
    quality: int = 75,
) -> bytes:
    """Image-only PDF: each page rendered, turned/skewed, noised, JPEG'd, embedded as a scan."""
    import numpy as np
    import pypdfium2 as pdfium
    from PIL import Image, ImageFilter
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    rng = np.random.default_rng(seed)
    document = pdfium.PdfDocument(source_pdf)
    buffer = io.BytesIO()
    out = canvas.Canvas(buffer, invariant=1)
    for page in document:
        width, height = page.get_size()
        image = page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
        if skew:
            image = image.rotate(skew, expand=False, fillcolor=255, resample=Image.BICUBIC)
        if noise:
            pixels = np.asarray(image, dtype=np.float32)
            pixels += rng.normal(0, noise, pixels.shape)
            image = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8)).filter(
                ImageFilter.GaussianBlur(0.6)
            )
        if rotate:
            image = image.rotate(rotate, expand=True)
            width, height = height, width
        jpeg = io.BytesIO()
        image.save(jpeg, format="JPEG", quality=quality)
        jpeg.seek(0)
        out.setPageSize((width, height))
        out.drawImage(ImageReader(jpeg), 0, 0, width=width, height=height)
        out.showPage()
    document.close()
    out.save()
    return buffer.getvalue()


# ---------------------------------------------------------------- Mattermost


class Ids:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def new(self) -> str:
        return "".join(self.rng.choice(ID_CHARS) for _ in range(26))


def mm_user(fake: Faker, ids: Ids) -> dict[str, Any]:
    first, last = fake.first_name(), fake.last_name()
    return {
        "id": ids.new(),
        "create_at": BASE_MS - 86_400_000,
        "update_at": BASE_MS - 86_400_000,
        "delete_at": 0,
        "username": f"{first}.{last}".lower(),
        "auth_data": "",
        "auth_service": "",
        "email": f"{first}.{last}@{fake.free_email_domain()}".lower(),
        "nickname": first,
        "first_name": first,
        "last_name": last,
        "position": fake.job(),
        "roles": "system_user",
        "props": {},
        "notify_props": {"desktop": "mention", "email": "true", "push": "mention"},
        "locale": "en",
        "timezone": {"automaticTimezone": "", "manualTimezone": "", "useAutomaticTimezone": "true"},
        "is_bot": False,
    }


def mm_post(
    ids: Ids,
    channel_id: str,
    user_id: str,
    minute: int,
    message: str,
    *,
    root_id: str = "",
    post_type: str = "",
    props: dict[str, Any] | None = None,
) -> dict[str, Any]:
    at = BASE_MS + minute * 60_000
    return {
        "id": ids.new(),
        "create_at": at,
        "update_at": at,
        "edit_at": 0,
        "delete_at": 0,
        "is_pinned": False,
        "user_id": user_id,
        "channel_id": channel_id,
        "root_id": root_id,
        "original_id": "",
        "message": message,
        "type": post_type,
        "props": props or {},
        "hashtags": "",
        "pending_post_id": "",
        "reply_count": 0,
        "last_reply_at": 0,
        "participants": None,
        "metadata": {},
    }


def react(post: dict[str, Any], user_id: str, emoji: str) -> None:
    post["has_reactions"] = True
    post["metadata"].setdefault("reactions", []).append(
        {
            "user_id": user_id,
            "post_id": post["id"],
            "emoji_name": emoji,
            "create_at": post["create_at"] + 30_000,
        }
    )


def attach(export: dict[str, Any], post: dict[str, Any], name: str, text: str) -> None:
    data = text.encode("utf-8")
    file_id = Ids(random.Random(post["id"])).new()
    info = {
        "id": file_id,
        "user_id": post["user_id"],
        "post_id": post["id"],
        "create_at": post["create_at"],
        "update_at": post["create_at"],
        "delete_at": 0,
        "name": name,
        "extension": name.rsplit(".", 1)[-1],
        "size": len(data),
        "mime_type": "text/plain",
        "width": 0,
        "height": 0,
        "has_preview_image": False,
    }
    post["file_ids"] = [file_id]
    post["metadata"]["files"] = [info]
    export.setdefault("file_infos", {})[file_id] = info
    export.setdefault("files", {})[file_id] = base64.b64encode(data).decode("ascii")


def channel_info(fake: Faker, ids: Ids, name: str, team_id: str) -> dict[str, Any]:
    return {
        "id": ids.new(),
        "create_at": BASE_MS - 7 * 86_400_000,
        "update_at": BASE_MS,
        "delete_at": 0,
        "team_id": team_id,
        "type": "O",
        "display_name": name.replace("-", " ").title(),
        "name": name,
        "header": "",
        "purpose": fake.catch_phrase(),
        "last_post_at": BASE_MS,
        "total_msg_count": 0,
        "creator_id": "",
    }


def thread_export(fake: Faker, ids: Ids, lease: dict[str, str]) -> tuple[dict[str, Any], list[str]]:
    """One thread: a question about a lease, answers, a join, reactions, a bot card, a file."""
    team = {"id": ids.new(), "name": "property-ops", "display_name": "Property Ops", "type": "O"}
    channel = channel_info(fake, ids, "leasing-questions", team["id"])
    agent, manager, newcomer = (mm_user(fake, ids) for _ in range(3))
    deleted_user = ids.new()  # author of a post whose account was deleted: not in users
    cid = channel["id"]
    root = mm_post(
        ids,
        cid,
        agent["id"],
        0,
        f"Can someone check the lease for {lease['tenant']} at {lease['premises_address']}? "
        "I need the monthly rent and the start date for the renewal letter.",
    )
    posts = [
        root,
        mm_post(
            ids,
            cid,
            newcomer["id"],
            1,
            f"@{newcomer['username']} joined the channel.",
            root_id="",
            post_type="system_join_channel",
            props={"username": newcomer["username"]},
        ),
        mm_post(
            ids,
            cid,
            manager["id"],
            3,
            f"The lease says the monthly rent is {lease['monthly_rent']} and it starts on "
            f"{lease['lease_start_date']}. The deposit was {lease['security_deposit']}.",
            root_id=root["id"],
        ),
        mm_post(
            ids,
            cid,
            deleted_user,
            5,
            "I scanned the signed copy last week, it is in the shared drive.",
            root_id=root["id"],
        ),
        mm_post(
            ids,
            cid,
            agent["id"],
            7,
            "Thanks! Summary attached for the file.",
            root_id=root["id"],
            props={
                "from_webhook": "false",
                "card": json.dumps({"tenant": lease["tenant"], "rent": lease["monthly_rent"]}),
            },
        ),
        mm_post(
            ids,
            cid,
            "",
            8,
            "Renewal reminder scheduled.",
            root_id=root["id"],
            props={
                "from_bot": "true",
                "override_username": "lease-bot",
                "attachments": json.dumps(
                    [
                        {
                            "fallback": "Renewal due",
                            "color": "#2389d7",
                            "text": f"Renewal due for lease ending {lease['lease_end_date']}",
                        }
                    ]
                ),
            },
        ),
    ]
    posts[5]["user_id"] = ids.new()  # a bot account that is not in users either
    react(posts[2], agent["id"], "+1")
    react(posts[2], newcomer["id"], "white_check_mark")
    export: dict[str, Any] = {
        "posts": {},
        "channel": channel,
        "team": team,
        "users": {u["id"]: u for u in (agent, manager, newcomer)},
    }
    attach(
        export,
        posts[4],
        "lease-summary.txt",
        f"Tenant: {lease['tenant']}\nMonthly Rent: {lease['monthly_rent']}\n",
    )
    root["reply_count"] = 4
    export["posts"] = {p["id"]: p for p in posts}
    export["order"] = [p["id"] for p in sorted(posts, key=lambda p: p["create_at"], reverse=True)]
    rubrics = [
        f"The answer states the monthly rent of {lease['monthly_rent']}.",
        f"The answer states that the lease starts on {lease['lease_start_date']}.",
    ]
    return export, rubrics


def channel_export(fake: Faker, ids: Ids) -> dict[str, Any]:
    """A whole-channel export window: three threads, joins, and replies whose root is older."""
    team = {"id": ids.new(), "name": "property-ops", "display_name": "Property Ops", "type": "O"}
    channel = channel_info(fake, ids, "maintenance", team["id"])
    users = [mm_user(fake, ids) for _ in range(4)]
    cid = channel["id"]
    missing_root = ids.new()  # posted before the export window began
    posts = [
        mm_post(
            ids,
            cid,
            users[0]["id"],
            0,
            "Following up on the boiler from yesterday: parts arrived.",
            root_id=missing_root,
        ),
        mm_post(
            ids,
            cid,
            users[1]["id"],
            2,
            "Great, I will book the engineer for Thursday.",
            root_id=missing_root,
        ),
        mm_post(
            ids,
            cid,
            users[3]["id"],
            4,
            f"@{users[3]['username']} joined the channel.",
            post_type="system_join_channel",
            props={"username": users[3]["username"]},
        ),
    ]
    minute = 10
    for _ in range(3):
        author = fake.random_element(users)
        root = mm_post(
            ids,
            cid,
            author["id"],
            minute,
            f"Tenant at {fake.street_address()} reports: {fake.sentence(nb_words=8)}",
        )
        posts.append(root)
        for _ in range(fake.random_int(1, 3)):
            minute += 3
            reply = mm_post(
                ids,
                cid,
                fake.random_element(users)["id"],
                minute,
                fake.sentence(nb_words=10),
                root_id=root["id"],
            )
            posts.append(reply)
            root["reply_count"] += 1
        react(root, users[2]["id"], "eyes")
        minute += 20
    return {
        "posts": {p["id"]: p for p in posts},
        "channel": channel,
        "team": team,
        "users": {u["id"]: u for u in users},
    }


def chat_log(fake: Faker) -> list[dict[str, Any]]:
    people = [fake.name() for _ in range(3)]
    start = 1_706_781_600  # 2024-02-01T10:00:00Z
    lines = [
        {
            "author": people[0],
            "text": "Morning! Has anyone seen the invoice from the cleaning contractor?",
            "time": "2024-02-01T10:00:00Z",
            "thread": "t1",
            "id": "m1",
        },
        {
            "author": people[1],
            "text": "Yes, it came in yesterday. Total is $1,840.00, due in thirty days.",
            "time": "2024-02-01T10:02:00Z",
            "thread": "t1",
            "id": "m2",
            "reactions": ["+1"],
        },
        {
            "author": people[0],
            "text": "Thanks, I will approve it today.",
            "time": "2024-02-01T10:03:30Z",
            "thread": "t1",
            "id": "m3",
        },
        {
            "author": people[2],
            "text": f"Reminder: fire alarm test at {fake.street_address()} at noon.",
            "time": (start + 600) * 1000,
            "id": "m4",
        },
        {
            "author": people[1],
            "text": "Who is covering the viewings this afternoon?",
            "time": "2024-02-01T11:00:00Z",
            "thread": "t2",
            "id": "m5",
        },
        {
            "author": people[2],
            "text": "I can take the two o'clock one.",
            "time": "2024-02-01T11:05:00Z",
            "thread": "t2",
            "id": "m6",
            "client": "mobile",
        },
    ]
    return lines


def reference(lease: dict[str, str]) -> str:
    """A reviewed answer to a lease-question thread: it meets both of its rubrics."""
    return (
        f"The monthly rent is {lease['monthly_rent']} and the lease starts on "
        f"{lease['lease_start_date']}."
    )


# ---------------------------------------------------------------- writing


def write(path: Path, data: bytes | str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    print(path.relative_to(HERE.parent))


def main(out: Path = HERE, seed: int = SEED) -> None:
    fake = Faker("en_US")
    Faker.seed(seed)
    ids = Ids(random.Random(seed))
    truth: dict[str, Any] = {}

    leases = [lease_facts(fake) for _ in range(2)]
    write(out / "pdfs" / "lease-maple.pdf", text_pdf(lease_pages(leases[0])))
    truth["pdfs/lease-maple.pdf"] = {
        "doc_type": "lease",
        "scanned": False,
        "fields": leases[0],
        "rubrics": [],
    }
    write(
        out / "pdfs" / "lease-scanned.pdf",
        scanned_pdf(text_pdf(lease_pages(leases[1])), dpi=200, skew=1.5, noise=8.0, quality=50),
    )
    truth["pdfs/lease-scanned.pdf"] = {
        "doc_type": "lease",
        "scanned": True,
        "fields": leases[1],
        "rubrics": [],
    }

    invoice = invoice_facts(fake)
    pages = invoice_pages(fake, invoice)
    write(out / "pdfs" / "invoice-harbor.pdf", text_pdf(pages))
    truth["pdfs/invoice-harbor.pdf"] = {
        "doc_type": "invoice",
        "scanned": False,
        "fields": invoice,
        "rubrics": [],
    }
    sideways = invoice_facts(fake)
    sideways_pages = invoice_pages(fake, sideways)
    write(
        out / "pdfs" / "invoice-sideways-scan.pdf",
        scanned_pdf(text_pdf(sideways_pages), dpi=200, rotate=90, noise=6.0, quality=70),
    )
    truth["pdfs/invoice-sideways-scan.pdf"] = {
        "doc_type": "invoice",
        "scanned": True,
        "fields": sideways,
        "rubrics": [],
    }

    thread, rubrics = thread_export(fake, ids, leases[0])
    write(out / "threads" / "lease-question.json", json.dumps(thread, indent=2) + "\n")
    truth["threads/lease-question.json"] = {
        "doc_type": None,
        "fields": {},
        "rubrics": rubrics,
        "reference": reference(leases[0]),
    }
    write(
        out / "threads" / "maintenance-channel.json",
        json.dumps(channel_export(fake, ids), indent=2) + "\n",
    )
    truth["threads/maintenance-channel.json"] = {
        "doc_type": None,
        "fields": {},
        "rubrics": ['The summary says the boiler engineer is booked for "Thursday".'],
        "reference": "The boiler parts arrived and the engineer is booked for Thursday.",
    }
    write(
        out / "chat" / "office-chat.jsonl",
        "".join(json.dumps(line) + "\n" for line in chat_log(fake)),
    )
    truth["chat/office-chat.jsonl"] = {
        "doc_type": None,
        "fields": {},
        "rubrics": ["The answer gives the cleaning invoice total of $1,840.00."],
        "reference": "The cleaning invoice came in; its total is $1,840.00, due in thirty days.",
    }
    # More of the same kinds, so the sample store reaches the seed pipeline's 16+ goldens.
    # Written after the first set, so the files above stay byte-identical.
    for name in ("birch", "cedar", "elm", "willow", "aspen", "hazel"):
        facts = lease_facts(fake)
        write(out / "pdfs" / f"lease-{name}.pdf", text_pdf(lease_pages(facts)))
        truth[f"pdfs/lease-{name}.pdf"] = {
            "doc_type": "lease",
            "scanned": False,
            "fields": facts,
            "rubrics": [],
        }
    for name in ("quay", "summit"):
        facts = invoice_facts(fake)
        write(out / "pdfs" / f"invoice-{name}.pdf", text_pdf(invoice_pages(fake, facts)))
        truth[f"pdfs/invoice-{name}.pdf"] = {
            "doc_type": "invoice",
            "scanned": False,
            "fields": facts,
            "rubrics": [],
        }
    for name, lease in (("renewal-question", leases[1]), ("rent-question", lease_facts(fake))):
        thread, rubrics = thread_export(fake, ids, lease)
        write(out / "threads" / f"{name}.json", json.dumps(thread, indent=2) + "\n")
        truth[f"threads/{name}.json"] = {
            "doc_type": None,
            "fields": {},
            "rubrics": rubrics,
            "reference": reference(lease),
        }
    write(out / "truth.json", json.dumps(truth, indent=2) + "\n")


if __name__ == "__main__":
    # generate.py [OUT [SEED]]: another seed gives other synthetic people and documents.
    main(
        Path(sys.argv[1]) if len(sys.argv) > 1 else HERE,
        int(sys.argv[2]) if len(sys.argv) > 2 else SEED,
    )
