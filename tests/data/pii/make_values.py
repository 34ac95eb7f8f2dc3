"""Render the hand-written PII sources into the labelled evaluation set.

    python tests/data/pii/make_values.py   # writes dev.jsonl and test.jsonl next to this file

The sentences, names, addresses, e-mails and most phone numbers are written by hand in
source/dev.txt and source/test.txt. This script only
- turns the inline markup into character spans, and
- fills in the values that must pass a checksum or a range rule (card numbers with Luhn,
  IBANs with mod 97 and their national check digits, US SSNs, IP addresses) and phone numbers
  in each country's usual layouts, from an rng seeded with SEED and the split name.
It imports nothing from curator, Faker or any name list: the set must not come from the hands
that wrote the detector.

Source format (one record per header line; lines starting with // are comments):
    @en chat | one-line message
    @fr document
    a document of several lines,
    up to the next @ header (trailing blank lines dropped)
Markup inside the text:
    [[Maria Lopez]]               a person
    [[value|kind]]                kind: addr, email, phone, user, ip, iban, card, ssn, person
    {{card}} {{card:amex}}        a generated value (card, iban[:CC], ssn, ip, ipv4, ipv6, phone:CC)
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path

SEED = 20240612
HERE = Path(__file__).resolve().parent
SPLITS = ("dev", "test")
LANGS = ("en", "fr", "de", "es")
CONTEXTS = ("chat", "document")

KINDS = {
    "person": "person",
    "addr": "street_address",
    "email": "email",
    "phone": "phone",
    "user": "username",
    "ip": "ip",
    "iban": "iban",
    "card": "credit_card",
    "ssn": "ssn",
}
TYPES = frozenset(KINDS.values())

# ---------------------------------------------------------------- checksums


def luhn_check_digit(payload: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(payload)):
        d = int(ch)
        if i % 2 == 0:  # doubled: these become the odd positions once the check digit is appended
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return str((10 - total % 10) % 10)


def luhn_valid(number: str) -> bool:
    digits = re.sub(r"\D", "", number)
    return len(digits) > 1 and luhn_check_digit(digits[:-1]) == digits[-1]


def iban_numeric(text: str) -> int:
    return int("".join(str(int(c, 36)) for c in text))


def iban_valid(iban: str) -> bool:
    compact = re.sub(r"\s", "", iban).upper()
    return (
        bool(re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]+", compact))
        and iban_numeric(compact[4:] + compact[:4]) % 97 == 1
    )


def iban_from_bban(country: str, bban: str) -> str:
    check = 98 - iban_numeric(bban + country + "00") % 97
    return f"{country}{check:02d}{bban}"


# ---------------------------------------------------------------- cards

# brand -> (prefixes, lengths). Prefixes are issuer ranges as published by the networks;
# Visa's 400000 test range is left out (curator treats it as its own pseudonym range).
CARD_BRANDS: dict[str, tuple[tuple[str, ...], tuple[int, ...]]] = {
    "visa": (("4539", "4716", "4929", "4485", "4024"), (13, 16, 19)),
    "mastercard": (("51", "52", "53", "54", "55", "2221", "2320", "2720"), (16,)),
    "amex": (("34", "37"), (15,)),
    "discover": (("6011", "644", "645", "649", "65"), (16, 19)),
    "diners": (("300", "305", "36", "38"), (14,)),
    "jcb": (("3528", "3541", "3566", "3589"), (16, 17, 18, 19)),
    "unionpay": (("62",), (16, 17, 18, 19)),
    "maestro": (
        ("5018", "5020", "5038", "5893", "6304", "6759", "6761", "6763"),
        (12, 13, 14, 15, 16, 17, 18, 19),
    ),
    "mir": (("2200", "2201", "2204"), (16,)),
    "rupay": (("6076", "6521", "8174", "508"), (16,)),
    "verve": (("506099", "506150", "650002"), (16, 19)),
    "troy": (("9792",), (16,)),
    "uatp": (("1",), (15,)),
}


def card_number(rng: random.Random, brand: str, length: int) -> str:
    prefixes, _ = CARD_BRANDS[brand]
    payload = rng.choice(prefixes)
    while len(payload) < length - 1:
        payload += str(rng.randrange(10))
    return payload + luhn_check_digit(payload)


def group(digits: str, sizes: tuple[int, ...], sep: str) -> str:
    parts, i = [], 0
    for size in sizes:
        if i >= len(digits):
            break
        parts.append(digits[i : i + size])
        i += size
    if i < len(digits):
        parts.append(digits[i:])
    return sep.join(parts)


def card_layout(rng: random.Random, digits: str, brand: str) -> str:
    """As people type them: the brand's print grouping, groups of four, dashes, or none."""
    style = rng.choice(("print", "print", "dash", "plain"))
    if style == "plain":
        return digits
    sep = "-" if style == "dash" else " "
    if brand == "amex" or (brand == "uatp" and len(digits) == 15):
        return group(digits, (4, 6, 5), sep)
    if brand == "diners" and len(digits) == 14:
        return group(digits, (4, 6, 4), sep)
    if len(digits) == 19 and rng.random() < 0.3:
        return group(digits, (6, 13), sep)
    return group(digits, (4,) * 5, sep)


# ---------------------------------------------------------------- IBANs


def _digits(rng: random.Random, n: int) -> str:
    return "".join(str(rng.randrange(10)) for _ in range(n))


def _fr_rib_key(bank: str, branch: str, account: str) -> str:
    return f"{97 - (89 * int(bank) + 15 * int(branch) + 3 * int(account)) % 97:02d}"


def _es_dc(bank: str, branch: str, account: str) -> str:
    weights = (1, 2, 4, 8, 5, 10, 9, 7, 3, 6)

    def digit(ten: str) -> str:
        d = 11 - sum(int(c) * w for c, w in zip(ten, weights, strict=True)) % 11
        return {10: "1", 11: "0"}.get(d, str(d))

    return digit("00" + bank + branch) + digit(account)


_IT_ODD = (
    1,
    0,
    5,
    7,
    9,
    13,
    15,
    17,
    19,
    21,
    2,
    4,
    18,
    20,
    11,
    3,
    6,
    8,
    12,
    14,
    16,
    10,
    22,
    25,
    24,
    23,
)


def _it_cin(abi: str, cab: str, account: str) -> str:
    """Italian CIN: odd positions through a fixed table, even ones by value, mod 26."""
    total = 0
    for i, ch in enumerate(abi + cab + account):
        value = int(ch) if ch.isdigit() else ord(ch) - ord("A")
        total += _IT_ODD[value] if i % 2 == 0 else value
    return chr(ord("A") + total % 26)


def _nl_account(rng: random.Random) -> str:
    while True:  # the Dutch 11-test: digits weighted 10..1 sum to a multiple of 11
        account = _digits(rng, 10)
        if (
            account[0] != "0"
            and sum(int(c) * w for c, w in zip(account, range(10, 0, -1), strict=True)) % 11 == 0
        ):
            return account


def _no_account(rng: random.Random) -> str:
    while True:  # mod 11 with weights 5,4,3,2,7,6,5,4,3,2
        body = _digits(rng, 10)
        rest = (
            sum(int(c) * w for c, w in zip(body, (5, 4, 3, 2, 7, 6, 5, 4, 3, 2), strict=True)) % 11
        )
        check = (11 - rest) % 11
        if check != 10:
            return body + str(check)


def _bban(rng: random.Random, country: str) -> str:
    d = lambda n: _digits(rng, n)  # noqa: E731
    if country == "DE":
        return d(8) + d(10)
    if country == "FR":
        bank, branch, account = d(5), d(5), d(11)
        return bank + branch + account + _fr_rib_key(bank, branch, account)
    if country == "ES":
        bank, branch, account = d(4), d(4), d(10)
        return bank + branch + _es_dc(bank, branch, account) + account
    if country == "IT":
        abi, cab, account = d(5), d(5), d(12)
        return _it_cin(abi, cab, account) + abi + cab + account
    if country == "GB":
        return rng.choice(("NWBK", "BARC", "LOYD", "HBUK", "MIDL")) + d(6) + d(8)
    if country == "IE":
        return rng.choice(("AIBK", "BOFI")) + d(6) + d(8)
    if country == "NL":
        return rng.choice(("ABNA", "RABO", "INGB", "SNSB", "TRIO")) + _nl_account(rng)
    if country == "BE":
        body = d(10)
        check = int(body) % 97 or 97
        return body + f"{check:02d}"
    if country == "CH":
        return d(5) + d(12)
    if country == "AT":
        return d(5) + d(11)
    if country == "PL":
        return d(8) + d(16)
    if country == "PT":
        return d(21)
    if country == "NO":
        return _no_account(rng)
    if country == "MT":
        return rng.choice(("MALT", "VALL")) + d(5) + d(18)
    raise ValueError(country)


IBAN_COUNTRIES = (
    "DE",
    "FR",
    "ES",
    "IT",
    "GB",
    "IE",
    "NL",
    "BE",
    "CH",
    "AT",
    "PL",
    "PT",
    "NO",
    "MT",
)


def iban_layout(rng: random.Random, iban: str) -> str:
    style = rng.choice(("print", "print", "compact", "lower-print", "lower-compact"))
    text = iban if "compact" in style else group(iban, (4,) * 10, " ")
    return text.lower() if style.startswith("lower") else text


# ---------------------------------------------------------------- SSN, IP


def ssn(rng: random.Random) -> str:
    while True:
        area = rng.randrange(1, 900)
        if area != 666:
            break
    digits = f"{area:03d}{rng.randrange(1, 100):02d}{rng.randrange(1, 10000):04d}"
    sep = rng.choice(("-", "-", " ", ""))
    return sep.join((digits[:3], digits[3:5], digits[5:]))


_DOC_V4 = ("192.0.2.", "198.51.100.", "203.0.113.")


def ipv4(rng: random.Random) -> str:
    kind = rng.choice(("public", "public", "public", "private"))
    if kind == "private":
        return rng.choice(
            (
                f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}",
                f"192.168.{rng.randrange(256)}.{rng.randrange(1, 255)}",
                f"172.{rng.randrange(16, 32)}.{rng.randrange(256)}.{rng.randrange(1, 255)}",
            )
        )
    while True:
        first = rng.choice(
            (
                31,
                37,
                46,
                62,
                77,
                81,
                83,
                85,
                88,
                91,
                94,
                95,
                109,
                141,
                151,
                176,
                185,
                193,
                212,
                213,
                217,
            )
        )
        address = f"{first}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
        if not address.startswith(_DOC_V4):
            return address


def ipv6(rng: random.Random) -> str:
    prefix = rng.choice(
        ("2a02", "2a01", "2001:16b8", "2003", "2600", "2605", "2806", "2a00", "fe80")
    )
    if prefix == "fe80":
        return (
            f"fe80::{rng.randrange(0x10000):x}:{rng.randrange(0x10000):x}:"
            f"{rng.randrange(0x10000):x}:{rng.randrange(0x10000):x}"
        )
    groups = prefix.split(":") + [
        f"{rng.randrange(0x10000):x}" for _ in range(8 - len(prefix.split(":")))
    ]
    style = rng.choice(("full", "compressed", "padded"))
    if style == "compressed":
        return ":".join(groups[:4]) + "::" + groups[7]
    if style == "padded":
        return ":".join(g.zfill(4) for g in groups)
    return ":".join(groups)


# ---------------------------------------------------------------- phones

# National layouts people type, per country; D is a digit drawn at random (the first digits
# of each layout are the real trunk and area/mobile prefixes, so the numbers parse).
PHONE_LAYOUTS: dict[str, tuple[str, ...]] = {
    "us": (
        "(312) 8DD-DDDD",
        "415-3DD-DDDD",
        "206.4DD.DDDD",
        "7183DDDDDD",
        "+1 646 2DD DDDD",
        "+1617DDDDDDD",
        "1 (773) 5DD-DDDD",
        "(713) 6DD-DDDD x1DD",
        "202-7DD-DDDD ext. 2D",
        "503.2DD.DDDD ext 4DDD",
        "+1 (919) 3DD-DDDD",
        "512 4DD DDDD",
    ),
    "ca": ("(416) 5DD-DDDD", "604-7DD-DDDD", "+1 514 8DD DDDD", "(613) 2DD-DDDD poste 2DD"),
    "uk": (
        "020 7DDD DDDD",
        "0161 2DD DDDD",
        "07911 DDDDDD",
        "+44 20 8DDD DDDD",
        "+44 (0)113 2DD DDDD",
        "+447812DDDDDD",
        "(0131) 5DD DDDD",
        "01223 3DDDDD",
        "0117 3DD DDDD",
        "07457DDDDDD",
    ),
    "fr": (
        "06 DD DD DD DD",
        "07.6D.DD.DD.DD",
        "01 4D DD DD DD",
        "04.7D.DD.DD.DD",
        "+33 6 DD DD DD DD",
        "+33 (0)1 4D DD DD DD",
        "06DDDDDDDD",
        "+336DDDDDDDD",
        "05 5D DD DD DD",
        "+33 (0)4.9D.DD.DD.DD",
    ),
    "de": (
        "030 2DDDDDDD",
        "030/4DDDDDD",
        "0171 DDDDDDD",
        "0152 DDDDDDDD",
        "+49 30 2DDDDDDD",
        "+49 (0)89 4DDDDDD",
        "089-3DDDDDD",
        "+491512DDDDDDD",
        "0221 9DD DD DD",
        "(040) 3DD DD DD",
        "+49 (0)711 2DDDDD-DD",
        "06221 5DDDD",
    ),
    "es": (
        "612 DDD DDD",
        "91 5DD DD DD",
        "+34 6DD DDD DDD",
        "+346DDDDDDDD",
        "6DDDDDDDD",
        "93 4DD DD DD",
        "+34 954 DD DD DD",
        "(+34) 7DD DD DD DD",
        "96 3DD DD DD",
        "0034 6DD DDD DDD",
    ),
    "nl": ("06-DDDDDDDD", "020 5DD DDDD", "+31 6 DDDDDDDD", "+31 (0)30 2DD DDDD", "010-4DDDDDD"),
    "au": ("0412 DDD DDD", "(02) 9DDD DDDD", "+61 4DD DDD DDD", "+61 3 9DDD DDDD", "0438DDDDDD"),
    "in": (
        "98DDD DDDDD",
        "+91 9DDDD DDDDD",
        "+91-8DDDDDDDDD",
        "022 2DDD DDDD",
        "080-4DDD DDDD",
        "+91 (0)11 2DDD DDDD",
    ),
    "it": ("+39 06 DDDD DDDD", "333 DDD DDDD", "02 DDDD DDDD", "+39 347 DDD DDDD"),
    "ch": ("044 2DD DD DD", "+41 79 DDD DD DD", "+41 (0)22 7DD DD DD"),
    "at": ("0664 DDDDDDD", "+43 1 5DDDDDD", "01/4DD DD DD"),
    "be": ("0475 DD DD DD", "+32 2 5DD DD DD", "02/5DD.DD.DD"),
    "mx": ("55 DDDD DDDD", "+52 55 DDDD DDDD", "+52 1 33 DDDD DDDD"),
}


def phone(rng: random.Random, layout: str) -> str:
    out = "".join(str(rng.randrange(10)) if c == "D" else c for c in layout)
    digits = re.sub(r"\D", "", out)
    if "55501" in digits or "7946" in digits or "7700900" in digits:
        return phone(rng, layout)  # stay out of the fictional ranges curator uses for pseudonyms
    return out


# ---------------------------------------------------------------- cycles and markup


class Values:
    """Generated values for one split: each directive walks a shuffled cycle of its variants,
    so every brand, length, country and layout appears before any repeats."""

    def __init__(self, split: str) -> None:
        self.rng = random.Random(f"{SEED}-{split}")
        self._cycles: dict[str, list] = {}

    def _next(self, key: str, variants: list) -> object:
        cycle = self._cycles.get(key)
        if not cycle:
            cycle = list(variants)
            self.rng.shuffle(cycle)
            self._cycles[key] = cycle
        return cycle.pop()

    def card(self, brand: str | None) -> str:
        combos = [
            (b, n) for b, (_, lengths) in CARD_BRANDS.items() for n in lengths if brand in (None, b)
        ]
        if not combos:
            raise ValueError(f"unknown card brand {brand!r}")
        chosen_brand, length = self._next(f"card:{brand}", combos)
        return card_layout(self.rng, card_number(self.rng, chosen_brand, length), chosen_brand)

    def iban(self, country: str | None) -> str:
        chosen = self._next(
            f"iban:{country}", [country.upper()] if country else list(IBAN_COUNTRIES)
        )
        return iban_layout(self.rng, iban_from_bban(chosen, _bban(self.rng, chosen)))

    def phone(self, country: str | None) -> str:
        if country not in PHONE_LAYOUTS:
            raise ValueError(f"phone needs a country of {sorted(PHONE_LAYOUTS)}, got {country!r}")
        return phone(self.rng, self._next(f"phone:{country}", list(PHONE_LAYOUTS[country])))

    def ip(self, version: str | None) -> str:
        version = version or self._next("ip", ["4", "4", "4", "6", "6"])
        return ipv6(self.rng) if version == "6" else ipv4(self.rng)

    def make(self, name: str, arg: str | None) -> tuple[str, str]:
        makers: dict[str, Callable[[], tuple[str, str]]] = {
            "card": lambda: (self.card(arg), "credit_card"),
            "iban": lambda: (self.iban(arg), "iban"),
            "ssn": lambda: (ssn(self.rng), "ssn"),
            "ip": lambda: (self.ip(arg), "ip"),
            "ipv4": lambda: (self.ip("4"), "ip"),
            "ipv6": lambda: (self.ip("6"), "ip"),
            "phone": lambda: (self.phone(arg), "phone"),
        }
        if name not in makers:
            raise ValueError(f"unknown generator {{{{{name}}}}}")
        return makers[name]()


MARKUP = re.compile(
    r"\[\[(?P<text>.+?)(?:\|(?P<kind>\w+))?\]\]|\{\{(?P<gen>\w+)(?::(?P<arg>\w+))?\}\}", re.S
)


def render(source: str, values: Values) -> tuple[str, list[dict]]:
    out: list[str] = []
    spans: list[dict] = []
    position = 0
    length = 0
    for match in MARKUP.finditer(source):
        plain = source[position : match.start()]
        out.append(plain)
        length += len(plain)
        if match.group("gen"):
            value, kind = values.make(match.group("gen"), match.group("arg"))
        else:
            value, short = match.group("text"), match.group("kind") or "person"
            if short not in KINDS:
                raise ValueError(f"unknown kind {short!r} in {match.group()!r}")
            kind = KINDS[short]
        spans.append({"start": length, "end": length + len(value), "type": kind, "value": value})
        out.append(value)
        length += len(value)
        position = match.end()
    out.append(source[position:])
    text = "".join(out)
    if "[[" in text or "]]" in text or "{{" in text or "}}" in text:
        raise ValueError(f"unbalanced markup in {source!r}")
    return text, spans


def parse_source(path: Path) -> list[tuple[str, str, str]]:
    """(lang, context, marked-up text) for every record of a source file."""
    records: list[tuple[str, str, list[str]]] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("//"):
            continue
        if line.startswith("@"):
            head, _, inline = line[1:].partition(" | ")
            lang, _, context = head.strip().partition(" ")
            context = {"doc": "document"}.get(context.strip(), context.strip())
            if lang not in LANGS or context not in CONTEXTS:
                raise ValueError(f"{path.name}:{number}: bad header {line!r}")
            records.append((lang, context, [inline] if inline else []))
            if inline:
                records.append(("", "", []))  # a one-line record is closed at once
        elif records and records[-1][0]:
            records[-1][2].append(line)
        elif line.strip():
            raise ValueError(f"{path.name}:{number}: text outside a record: {line!r}")
    return [
        (lang, context, "\n".join(lines).strip("\n")) for lang, context, lines in records if lang
    ]


def build(split: str) -> list[dict]:
    values = Values(split)
    rows = []
    for index, (lang, context, source) in enumerate(
        parse_source(HERE / "source" / f"{split}.txt"), 1
    ):
        text, spans = render(source, values)
        rows.append(
            {
                "id": f"{split}-{index:04d}",
                "lang": lang,
                "context": context,
                "text": text,
                "spans": spans,
            }
        )
    return rows


def dump(rows: list[dict]) -> str:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def main() -> int:
    for split in SPLITS:
        rows = build(split)
        (HERE / f"{split}.jsonl").write_text(dump(rows), encoding="utf-8")
        print(f"{split}: {len(rows)} records, {sum(len(r['spans']) for r in rows)} spans")
    return 0


if __name__ == "__main__":
    sys.exit(main())
