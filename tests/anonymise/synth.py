"""Synthetic, Faker-made inputs for the anonymiser's tests and benchmark (no real people).

- `thread_export(seed)`: a Mattermost ThreadExport with 8+ users (names, nicknames, emails,
  positions, customStatus JSON in props), 30+ posts with @mentions, quotes, first-name
  references, emails, phone numbers, URLs, permalinks, replies, reactions and a file.
- `pii_corpus(seed, n)`: chat lines with labelled pattern PII spans, for recall/precision.
"""

from __future__ import annotations

import json
import random
import re
import string

from faker import Faker

ID_ALPHABET = string.ascii_lowercase + string.digits


def mm_id(rng: random.Random) -> str:
    return "".join(rng.choice(ID_ALPHABET) for _ in range(26))


def users(fake: Faker, rng: random.Random, count: int) -> list[dict]:
    made = []
    seen: set[str] = set()
    while len(made) < count:
        first, last = fake.first_name(), fake.last_name()
        if first in seen or last in seen or len(first) < 3 or len(last) < 3 or first == last:
            continue
        seen.update((first, last))
        username = rng.choice((f"{first}.{last}", f"{first[0]}{last}", f"{first}_{last}")).lower()
        made.append(
            {
                "id": mm_id(rng),
                "username": username,
                "email": f"{username}@{rng.choice(('acme-corp.com', 'globex.io', 'initech.net'))}",
                "nickname": rng.choice((first[:3].lower() + "o", "", first + "y")),
                "first_name": first,
                "last_name": last,
                "position": fake.job(),
                "roles": "system_user",
                "locale": "en",
                "props": {
                    "customStatus": json.dumps(
                        {"emoji": "calendar", "text": f"Meeting with {first}", "duration": "today"}
                    )
                },
            }
        )
    return made


def thread_export(seed: int = 7, n_users: int = 9, n_posts: int = 34) -> dict:
    fake = Faker("en_US")
    fake.seed_instance(seed)
    rng = random.Random(seed)
    people = users(fake, rng, n_users)
    channel_id, team_id = mm_id(rng), mm_id(rng)
    file_id = mm_id(rng)
    posts: dict[str, dict] = {}
    root = None
    order: list[str] = []
    for i in range(n_posts):
        author, other, third = rng.sample(people, 3)
        templates = [
            f"@{other['username']} can you look at this? {third['first_name']} said it broke "
            "after the deploy.",
            f"> {third['first_name']} wrote: the fix is in\n\n"
            f"I disagree, ask **@{other['username']}** or "
            f"{other['nickname'] or other['first_name']}.",
            f"Ping {other['first_name']} {other['last_name']} at {other['email']} or call "
            f"{fake.numerify('(###) 555-01##')}.",
            f"See https://chat.acme-corp.com/{'core'}/pl/{order[0] if order else mm_id(rng)} and "
            f"https://docs.globex.io/runbook?owner={other['username']}",
            f"{other['first_name']}, your phone {fake.numerify('415-###-####')} is on the rota; "
            f"{third['last_name']} is backup.",
            f"Thanks {other['first_name'].upper()}! cc @{third['username']} (mail "
            f"{third['email'].upper()})",
            f"_{other['first_name']}_ and {third['first_name']} discussed the outage with "
            f"{fake.name()} from the vendor.",
        ]
        post_id = mm_id(rng)
        post = {
            "id": post_id,
            "create_at": 1700000000000 + i * 60000,
            "update_at": 1700000000000 + i * 60000,
            "user_id": author["id"],
            "channel_id": channel_id,
            "root_id": "" if root is None or i % 5 == 0 else root,
            "message": templates[i % len(templates)],
            "type": "",
            "props": {},
            "metadata": {},
        }
        if i % 5 == 0:
            root = post_id
        if i % 4 == 1:
            post["metadata"]["reactions"] = [
                {
                    "user_id": other["id"],
                    "post_id": post_id,
                    "emoji_name": "+1",
                    "create_at": 1700000000000 + i,
                },
            ]
            post["has_reactions"] = True
        if i % 6 == 2:
            post["props"]["attachments"] = [
                {
                    "text": f"Escalated by {author['first_name']} {author['last_name']} "
                    f"({author['email']})",
                    "fallback": "escalation",
                }
            ]
        if i == 3:
            post["file_ids"] = [file_id]
            post["metadata"]["files"] = [
                {
                    "id": file_id,
                    "post_id": post_id,
                    "user_id": author["id"],
                    "name": f"{author['last_name']}_notes.txt",
                }
            ]
        posts[post_id] = post
        order.append(post_id)
    return {
        "posts": posts,
        "channel": {
            "id": channel_id,
            "team_id": team_id,
            "name": "payments-oncall",
            "display_name": "Payments Oncall",
            "type": "O",
            "header": f"Owner: @{people[0]['username']}",
        },
        "team": {"id": team_id, "name": "acme-core", "display_name": "Acme Core"},
        "users": {u["id"]: u for u in people},
        "file_infos": {
            file_id: {
                "id": file_id,
                "name": f"{people[1]['last_name']}_notes.txt",
                "extension": "txt",
                "mime_type": "text/plain",
            }
        },
        "files": {
            file_id: __import__("base64")
            .b64encode(
                f"notes by {people[1]['first_name']} {people[1]['last_name']}, "
                f"{people[1]['email']}\n".encode()
            )
            .decode()
        },
    }


def thread_originals(export: dict) -> list[str]:
    """Every identifying value in the export's records: none may survive anonymisation."""
    found = []
    for user in export["users"].values():
        found += [
            user["id"],
            user["username"],
            user["email"],
            user["first_name"],
            user["last_name"],
        ]
        if len(user["nickname"]) >= 3:
            found.append(user["nickname"])
    found += list(export["posts"]) + [
        export["channel"]["id"],
        export["team"]["id"],
        # the channel "payments-oncall" is made of everyday words: it names nobody and stays
        "acme-core",
        "acme-corp.com",
        "globex.io",
    ]
    return found


def survivors(originals: list[str], text: str) -> list[str]:
    """Originals found in `text` as whole words, ignoring case: "John" inside the pseudonym
    "Johnson" is no survivor, "john" in "@john.smith" or "Smith_notes.txt" is one."""
    return [
        o
        for o in originals
        if re.search(r"(?<![^\W_])" + re.escape(o) + r"(?![^\W_])", text, re.IGNORECASE)
    ]


PII_TYPES = ("email", "phone", "credit_card", "iban", "ip", "ssn")


def pii_value(kind: str, fake: Faker, rng: random.Random) -> str:
    if kind == "email":
        return fake.email()
    if kind == "phone":
        fmt = rng.choice(
            (
                "(###) ###-####",
                "###-###-####",
                "+1 ### ### ####",
                "###.###.####",
                "+44 20 7### ####",
            )
        )
        while True:
            area = f"{rng.randint(2, 9)}{rng.randint(0, 8)}{rng.randint(0, 9)}"
            if area[1:] != "11":
                break
        exchange = f"{rng.randint(2, 9)}{rng.randint(0, 9)}{rng.randint(0, 9)}"
        digits = (
            iter(area + exchange + f"{rng.randint(0, 9999):04d}")
            if not fmt.startswith("+44")
            else iter(str(rng.randint(10**6, 10**7 - 1)) + "000")
        )
        return "".join(next(digits) if c == "#" else c for c in fmt)
    if kind == "credit_card":
        number = fake.credit_card_number(
            card_type=rng.choice(("visa16", "mastercard", "amex", "discover"))
        )
        if len(number) == 16 and rng.random() < 0.5:
            number = " ".join(number[i : i + 4] for i in range(0, 16, 4))
        return number
    if kind == "iban":
        local = Faker(rng.choice(("de_DE", "en_GB", "fr_FR", "nl_NL", "es_ES")))
        local.seed_instance(
            rng.randrange(2**32)
        )  # an unseeded Faker made every run's corpus differ
        value = local.iban()
        return (
            " ".join(value[i : i + 4] for i in range(0, len(value), 4))
            if rng.random() < 0.5
            else value
        )
    if kind == "ip":
        return fake.ipv4_public() if rng.random() < 0.8 else fake.ipv6()
    if kind == "ssn":
        return fake.ssn()
    raise ValueError(kind)


TEMPLATES = (
    "hey, {v} is the one to use",
    "Customer wrote: please update {v} before Friday.",
    "logged {v} in the ticket (see thread above)",
    "> {v}\nconfirmed with ops",
    "value was `{v}` when it failed",
)


def pii_corpus(seed: int = 11, per_type: int = 200) -> list[tuple[str, list[tuple[int, int, str]]]]:
    """Lines of chat, each with the labelled spans (start, end, type) it contains."""
    fake = Faker("en_US")
    fake.seed_instance(seed)
    rng = random.Random(seed)
    lines = []
    for kind in PII_TYPES:
        for _ in range(per_type):
            value = pii_value(kind, fake, rng)
            template = rng.choice(TEMPLATES)
            start = template.index("{v}")
            lines.append((template.replace("{v}", value), [(start, start + len(value), kind)]))
    decoys = (  # clean lines with numbers in them: precision is measured on them too
        "release {d}.{d}.{d} went out at {d}:{d}, build #{n}",
        "order {n} totals ${d},{d}.{d} and ships on 2024-{d}-{d}",
        "see ticket OPS-{n}; p99 latency was {d}ms over {d} requests",
        "invoice 2024-{n}-{d} is overdue; tracking 1Z{n}AA{n}",
        "trace {u} failed after {d} retries on 10.{d}.{d}",
        "{s}",
    )
    for _ in range(per_type):
        template = rng.choice(decoys)
        line = template.format(
            d=rng.randint(1, 99),
            n=rng.randint(1000, 99999),
            s=fake.sentence(nb_words=12),
            u=fake.uuid4(),
        )
        lines.append((line, []))
    rng.shuffle(lines)
    return lines


# Words a vault may learn from ordinary text ("[FR Doc.", "MAX Display", a chatbot's `user`)
# that structure is made of: they must never reach a key, a type or a role.
ORDINARY_WORDS = [
    "user",
    "doc",
    "display",
    "type",
    "id",
    "name",
    "message",
    "role",
    "props",
    "post",
    "assistant",
]


def member_names(data: object, found: set[str] | None = None) -> set[str]:
    """Every key of a JSON value that is no id (an id keeps only its shape)."""
    found = set() if found is None else found
    if isinstance(data, dict):
        for key, value in data.items():
            if not any(c.isdigit() for c in key):
                found.add(key)
            member_names(value, found)
    elif isinstance(data, list):
        for value in data:
            member_names(value, found)
    return found


def people(count: int, seed: int = 28) -> list[str]:
    """`count` distinct people ("Given Family", spelt and cased as Faker lists them) drawn from
    the name lists of every Faker locale, scripts other than Latin included: a store that
    fills its vault with the very names pseudonyms are drawn from."""
    import importlib
    import pkgutil

    import faker.providers.person as providers

    lists = []
    for module in pkgutil.iter_modules(providers.__path__):
        provider = importlib.import_module(f"{providers.__name__}.{module.name}").Provider
        given = [
            *_listed(provider, "first_names_female"),
            *_listed(provider, "first_names_male"),
        ]
        family = _listed(provider, "last_names")
        if given and family:
            lists.append((sorted(given), sorted(family)))
    rng = random.Random(seed)
    made: dict[str, str] = {}
    while len(made) < count:
        given, family = rng.choice(lists)
        name = f"{rng.choice(given)} {rng.choice(family)}"
        if len(name.split()) == 2:  # "Mac an tSaoir" is one family name of three words
            made.setdefault(" ".join(name.casefold().split()), name)
    return list(made.values())


def _listed(provider: type, attribute: str) -> list[str]:
    names = getattr(provider, attribute, ())
    return list(names) if isinstance(names, (tuple, list, dict)) else []


def chat_log(names: list[str], per_thread: int = 50) -> bytes:
    """A chat log (curator's JSONL) where each of `names` writes one message naming
    themselves, threads of `per_thread` messages."""
    lines = []
    for number, name in enumerate(names):
        thread = f"t{number // per_thread}"
        text = f"Morning all, {name} here: desk {number % 97} is free after lunch."
        minute = number % 1440
        time = f"2024-03-{1 + number // 1440 % 28:02d}T{minute // 60:02d}:{minute % 60:02d}:00Z"
        line = {"author": name, "text": text, "time": time, "thread": thread, "id": f"m{number}"}
        lines.append(json.dumps(line, ensure_ascii=False))
    return ("\n".join(lines) + "\n").encode()
