"""A 1,500-message office chat log with ordinary personal data, in curator's chat JSONL format.

    python tests/data/chat/make_chat.py OUT.jsonl     # writes the log (and prints its size)

Generated at test time rather than committed: the generator (hand-written name, place and
phrase lists below, fixed SEED, no curator, no Faker) is short and deterministic, while its
output is ~200 KB of derived text that would only drift from it. `messages()` returns the
records and `originals()` every personal string they contain, for a test to grep the store.
"""

from __future__ import annotations

import json
import random
import sys
from datetime import UTC, datetime, timedelta

SEED = 1500
COUNT = 1500

# Members of the chat (authors), as display names. Written by hand; a mix of origins.
MEMBERS = [
    ("Lena", "Vasquez"),
    ("Tariq", "Hossain"),
    ("Marta", "Kowalewska"),
    ("Jonas", "Eriksen"),
    ("Abena", "Owusu"),
    ("Santiago", "Roldán"),
    ("Mei", "Takahashi"),
    ("Oliver", "Grantham"),
    ("Farah", "Qureshi"),
    ("Pieter", "de Wit"),
    ("Nkechi", "Obi"),
    ("Luca", "Benedetti"),
    ("Hana", "Dvořáková"),
    ("Rafael", "Cordeiro"),
    ("Ines", "Kaltenbach"),
    ("Dong-hyun", "Seo"),
    ("Claire", "Fontaine"),
    ("Yusuf", "Demirci"),
    ("Sophie", "Marchetti"),
    ("Arvind", "Natarajan"),
]
# People named in messages who never write in the chat.
OUTSIDERS = [
    ("Beatriz", "Salcedo"),
    ("Gunnar", "Holm"),
    ("Ayodele", "Fashola"),
    ("Carlo", "Pellegrini"),
    ("Zainab", "Rahimi"),
    ("Hiroshi", "Mori"),
    ("Agata", "Wróbel"),
    ("Desmond", "Achterberg"),
    ("Maëlle", "Guerin"),
    ("Thanh", "Vo"),
]
STREETS = [
    "14 Ashgrove Lane, Norwich NR2 3LP",
    "Kastanienallee 9, 10435 Berlin",
    "27 rue de la Roquette, 75011 Paris",
    "Calle Toledo 61, 2º D, 28005 Madrid",
    "1180 Pine Street, Apt 5, San Francisco, CA 94109",
    "Spuistraat 210, 1012 VT Amsterdam",
    "Via dei Serpenti 44, 00184 Roma",
    "48 Wellington St, Leichhardt NSW 2040",
]
PHONES = [
    "+44 7700 311 482",
    "0176 4418 2290",
    "06 48 12 77 30",
    "612 408 113",
    "(617) 384-2290",
    "+31 6 2749 1184",
    "+39 347 881 2034",
    "0412 553 871",
    "415-962-0175 x204",
    "+4917644182290",
]
DOMAINS = ["brightfield.io", "gmail.com", "outlook.com", "posteo.de", "yahoo.fr"]

# Phrases with the personal data people really put in chat. {m} a member, {o} an outsider,
# {first}/{last} parts of a name, {phone}, {email}, {street}.
PHRASES = [
    "Has anyone seen {m}? the printer jammed again",
    "{m_first}, can you cover the front desk after lunch?",
    "thanks {m_first_lower}!",
    "I'll ask {o} about the contract tomorrow",
    "{o_first} from the agency called, she'll send the quote",
    "can someone forward {o_first}'s number? it's {phone}",
    "my new number is {phone}",
    "call me on {phone} if the alarm goes off",
    "send it to {email} please, my work inbox is full",
    "{m_first} said the delivery goes to {street}",
    "the courier needs {o}'s address: {street}",
    "{m} and {m2} are off on Friday",
    "ok, {m_last} will do the stock count",
    "reminder: {o} visits at 10, badge under {o_last}",
    "{o_first} {o_last}'s invoice is still unpaid",
    "lunch at the Thai place? {m_first_lower} is buying",
    "happy birthday {m_first}! 🎂",
    "@{m_user} can you check the heating?",
    "{m_upper} PLEASE CALL RECEPTION",
    "who moved the keys? {m_first} needs the van",
    "the landlord ({o}) wants the meter readings by email: {email}",
    "{m_first} is working from {street} this week",
    "Will you be in on Monday?",
    "May we use the big room for the workshop?",
    "the bill for the coffee machine came in",
    "Hope the trains are running tomorrow",
    "meeting moved to 3pm",
    "lgtm",
    "on it",
    "the Wi-Fi is down again",
]


def _user(first: str, last: str) -> str:
    return (first + "." + last).lower().replace(" ", "").replace("'", "")


def messages() -> list[dict]:
    rng = random.Random(SEED)
    start = datetime(2024, 3, 4, 8, 30, tzinfo=UTC)
    out: list[dict] = []
    thread_roots: list[str] = []
    for i in range(COUNT):
        author = rng.choice(MEMBERS)
        member, member2 = rng.sample([m for m in MEMBERS if m != author], 2)
        outsider = rng.choice(OUTSIDERS)
        first, last = member
        text = rng.choice(PHRASES).format(
            m=f"{first} {last}",
            m2=" ".join(member2),
            m_first=first,
            m_last=last,
            m_first_lower=first.lower(),
            m_upper=f"{first} {last}".upper(),
            m_user=_user(first, last),
            o=" ".join(outsider),
            o_first=outsider[0],
            o_last=outsider[1],
            phone=rng.choice(PHONES),
            street=rng.choice(STREETS),
            email=f"{_user(*rng.choice(MEMBERS + OUTSIDERS))}@{rng.choice(DOMAINS)}",
        )
        message = {
            "author": " ".join(author),
            "text": text,
            "time": (start + timedelta(minutes=7 * i)).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "id": f"m{i + 1}",
        }
        if thread_roots and rng.random() < 0.55:
            message["thread"] = rng.choice(thread_roots[-8:])
        elif rng.random() < 0.5:
            message["thread"] = message["id"]
            thread_roots.append(message["id"])
        out.append(message)
    return out


def originals() -> list[str]:
    """Every personal string the log can contain (names whole and in parts, usernames,
    emails' local parts, phones, addresses)."""
    values: set[str] = set()
    for first, last in MEMBERS + OUTSIDERS:
        values |= {f"{first} {last}", first, last, _user(first, last)}
    return sorted(values | set(PHONES) | set(STREETS))


def dump(records: list[dict]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    text = dump(messages())
    with open(argv[0], "w", encoding="utf-8") as handle:
        handle.write(text)
    print(f"wrote {argv[0]}: {COUNT} messages, {len(text.encode())} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
