"""Shape-keeping fake values: one generator per kind of original.

Every generator is a pure function of (original, rng) where rng is seeded from a keyed hash
of the original (see vault.py), so the same original gets the same pseudonym in a store and
a different one in another store. Values that have reserved "fictional" ranges use them, so
a pseudonym is recognisably safe even outside the store that made it:

- emails and hosts live under RFC 2606 names (``*.example``, example.com/org/net);
- IPv4 addresses come from the RFC 5737 documentation blocks, IPv6 from 2001:db8::/32;
- North-American phone numbers use the fictional 555-01XX lines, UK ones Ofcom's drama ranges;
- US social security numbers use the 9XX area, which the SSA never issues.

- card numbers start 4000 00, the Visa range processors use for test cards (Luhn-valid).

IBANs have no such range: they keep a valid checksum (so a system under test still sees a
well-formed value) and the audit exempts them because the vault knows them.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Iterator
from functools import cache

from curator.anonymise import name_space

RESERVED_DOMAINS = ("example.com", "example.org", "example.net")
RESERVED_TLDS = (".example", ".test", ".invalid", ".localhost")
DOC_IPV4_BLOCKS = ("192.0.2", "198.51.100", "203.0.113")
TEST_CARD_PREFIX = "400000"  # the Visa range payment processors hand out as test cards

_WORD_SPLIT = re.compile(r"([^A-Za-z]+)")


# ------------------------------------------------------------------ name lists (Faker)


@cache
def name_lists(locale: str = "en_US") -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(female first names, male first names, last names) of a Faker locale, en_US fallback."""
    import importlib

    try:
        module = importlib.import_module(f"faker.providers.person.{locale}")
    except ImportError:
        module = importlib.import_module("faker.providers.person.en_US")
    provider = module.Provider
    female = tuple(getattr(provider, "first_names_female", ()) or ())
    male = tuple(getattr(provider, "first_names_male", ()) or ())
    last = tuple(getattr(provider, "last_names", ()) or ())
    if not (female and male and last):
        return name_lists("en_US")
    return _ascii_words(female), _ascii_words(male), _ascii_words(last)


@cache
def folded_names(locale: str = "en_US") -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The same lists casefolded, as sets for membership tests."""
    return tuple(frozenset(n.casefold() for n in names) for names in name_lists(locale))  # type: ignore[return-value]


def _ascii_words(names: tuple[str, ...]) -> tuple[str, ...]:
    # One token, plain letters: pseudonyms then tokenise exactly like the originals they replace.
    return tuple(sorted({n for n in names if n.isalpha() and n.isascii() and len(n) >= 3}))


@cache
def _words() -> tuple[str, ...]:
    from faker.providers.lorem.en_US import Provider

    return tuple(sorted({w for w in Provider.word_list if w.isalpha() and len(w) >= 4}))


@cache
def common_words() -> frozenset[str]:
    """Everyday English words (Faker's lorem list)."""
    from faker.providers.lorem.en_US import Provider

    return frozenset(w.casefold() for w in Provider.word_list)


@cache
def _jobs() -> tuple[str, ...]:
    from faker.providers.job.en_US import Provider

    return tuple(Provider.jobs)


@cache
def _company_suffixes() -> tuple[str, ...]:
    from faker.providers.company.en_US import Provider

    return tuple(Provider.company_suffixes)


# ------------------------------------------------------------------ casing


def match_case(template: str, value: str) -> str:
    """`value` cased like `template`: ALL CAPS, all lower, or Capitalised words stay so."""
    letters = [c for c in template if c.isalpha()]
    if not letters:
        return value
    if all(c.isupper() for c in letters) and len(letters) > 1:
        return value.upper()
    if all(c.islower() for c in letters):
        return value.lower()
    return value


# ------------------------------------------------------------------ generators


# People's names: candidates best first, never ending (name_space.py); the vault takes the
# first that is free.


def first_names(original: str, rng: random.Random, locale: str = "en_US") -> Iterator[str]:
    """Given names of the original's sex where the locale's lists tell it."""
    female_set, male_set, _ = folded_names(locale)
    folded = original.casefold()
    if folded in male_set and folded not in female_set:
        return name_space.candidates(locale, "male", rng)
    if folded in female_set:
        return name_space.candidates(locale, "female", rng)
    return name_space.candidates(locale, "any", rng)


def last_names(original: str, rng: random.Random, locale: str = "en_US") -> Iterator[str]:
    return name_space.candidates(locale, "last", rng)


def nicknames(original: str, rng: random.Random, locale: str = "en_US") -> Iterator[str]:
    """Given names, cut to about the length of a short original ("Kat" for "Kit")."""
    for name in name_space.candidates(locale, "any", rng):
        yield name[: max(3, min(len(name), len(original) + 1))] if len(original) <= 4 else name


def identifier(original: str, rng: random.Random) -> str:
    """Same length and alphabet: 26-char Mattermost ids stay [a-z0-9]{26}, UUIDs stay UUIDs."""
    has_hex_letter = any(c in "abcdefABCDEF" for c in original)
    lower_hex = has_hex_letter and all(c in "0123456789abcdef-" for c in original)
    upper_hex = has_hex_letter and all(c in "0123456789ABCDEF-" for c in original)
    out = []
    for c in original:
        if lower_hex and c != "-":
            out.append(rng.choice("0123456789abcdef"))
        elif upper_hex and c != "-":
            out.append(rng.choice("0123456789ABCDEF"))
        elif c.isdigit():
            out.append(rng.choice(string.digits))
        elif c.islower() and c.isascii():
            out.append(
                rng.choice(string.ascii_lowercase + string.digits)
                if _alnum_id(original)
                else rng.choice(string.ascii_lowercase)
            )
        elif c.isupper() and c.isascii():
            out.append(rng.choice(string.ascii_uppercase))
        else:
            out.append(c)
    return "".join(out)


def _alnum_id(value: str) -> bool:
    return bool(re.fullmatch(r"[a-z0-9]+", value)) and (
        len(value) == 26 or any(c.isdigit() for c in value)
    )


def digits_like(original: str, rng: random.Random) -> str:
    return "".join(rng.choice(string.digits) if c.isdigit() else c for c in original)


def phone(original: str, rng: random.Random) -> str:
    """Same layout; NANP numbers become 555-01XX lines, UK ones Ofcom drama numbers. An
    extension ("x129", "poste 219") gets new digits of its own; a "(0)" trunk stays."""
    from curator.anonymise.finders.numbers import EXTENSION

    extension = EXTENSION.search(original)
    if extension and extension.end() == len(original.rstrip()):
        return phone(original[: extension.start()], rng) + digits_like(
            original[extension.start() :], rng
        )
    if "(0)" in original:
        head, _, tail = original.partition("(0)")
        joined = phone(head + "#" + tail, rng)
        return joined.replace("#", "(0)", 1)
    digits = [c for c in original if c.isdigit()]
    n = len(digits)
    stripped = original.lstrip()
    if n == 10 or (n == 11 and digits[0] == "1"):
        area = str(rng.choice(range(201, 990)))
        while area[1] == "9" or area[1:] == "11":
            area = str(rng.choice(range(201, 990)))
        new = area + "55501" + f"{rng.randrange(100):02d}"
        if n == 11:
            new = "1" + new
    elif stripped.startswith("+44") or (n == 11 and digits[0] == "0"):
        body = "7700900" + f"{rng.randrange(1000):03d}"  # Ofcom: 07700 900000-900999
        new = ("44" if stripped.startswith("+44") else "0") + body
        new = new[:n].ljust(n, "0")
    else:
        # elsewhere: keep the country code ("+49 30 ..." stays German), draw the rest
        country = re.match(r"\+(\d{1,3})", stripped)
        keep = len(country.group(1)) if country else 0
        new = "".join(digits[:keep]) + "".join(rng.choice(string.digits) for _ in digits[keep:])
    it = iter(new)
    return "".join(next(it) if c.isdigit() else c for c in original)


def luhn_digit(body: str) -> str:
    total = 0
    for i, c in enumerate(reversed(body)):
        d = int(c)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


def credit_card(original: str, rng: random.Random) -> str:
    digits = [c for c in original if c.isdigit()]
    body = TEST_CARD_PREFIX + "".join(rng.choice(string.digits) for _ in range(len(digits) - 7))
    new = body[: len(digits) - 1] + luhn_digit(body[: len(digits) - 1])
    it = iter(new)
    return "".join(next(it) if c.isdigit() else c for c in original)


def iban(original: str, rng: random.Random) -> str:
    compact = re.sub(r"\s", "", original).upper()
    country = compact[:2] if compact[:2].isalpha() else "DE"
    bban = "".join(
        rng.choice(string.ascii_uppercase) if c.isalpha() else rng.choice(string.digits)
        for c in compact[4:]
    )
    numeric = "".join(str(int(c, 36)) for c in bban + country + "00")
    check = f"{98 - int(numeric) % 97:02d}"
    new = country + check + bban
    it = iter(new)
    return "".join(next(it) if not c.isspace() else c for c in original)


def ssn(original: str, rng: random.Random) -> str:
    new = (
        str(rng.randrange(900, 1000))
        + f"{rng.randrange(1, 100):02d}"
        + f"{rng.randrange(1, 10000):04d}"
    )
    it = iter(new)
    return "".join(next(it) if c.isdigit() else c for c in original)


def ip_address(original: str, rng: random.Random) -> str:
    if ":" in original:
        return f"2001:db8::{rng.randrange(1, 0xFFFF):x}:{rng.randrange(1, 0xFFFF):x}"
    return f"{rng.choice(DOC_IPV4_BLOCKS)}.{rng.randrange(1, 255)}"


# The words some kind's every pseudonym holds, whatever its draw: a domain's top level, a
# reviewer's handle, an address's country. An original that held one would bar them all.
DOMAIN_TOP = "example"
REVIEWER_PREFIX = "reviewer"
COUNTRY = "USA"
FIXED_WORDS = frozenset(word.casefold() for word in (DOMAIN_TOP, REVIEWER_PREFIX, COUNTRY))


def domain(original: str, rng: random.Random) -> str:
    words = _words()
    return f"{rng.choice(words)}-{rng.choice(words)}.{DOMAIN_TOP}"


def position(original: str, rng: random.Random) -> str:
    return rng.choice(_jobs())


def organisation(original: str, rng: random.Random) -> str:
    suffixes = _company_suffixes()
    _, _, last = name_lists("en_US")
    words = _words()
    parts = original.split()
    kept_suffix = (
        parts[-1]
        if len(parts) > 1 and any(parts[-1].rstrip(".") == s.rstrip(".") for s in suffixes)
        else None
    )
    base = rng.choice(
        (
            f"{rng.choice(last)} {rng.choice(words).title()}",
            f"{rng.choice(words).title()} {rng.choice(words).title()}",
        )
    )
    return f"{base} {kept_suffix}" if kept_suffix else base


def slug_words(original: str, rng: random.Random) -> str:
    """A channel or team name: as many words as the original, joined the same way."""
    parts = [p for p in re.split(r"[^A-Za-z0-9]+", original) if p]
    separator = next((c for c in original if not c.isalnum()), "-")
    words = [rng.choice(_words()) for _ in range(max(1, len(parts)))]
    return match_case(original, separator.join(words))


REVIEWER_HANDLE = re.compile(r"reviewer-[a-z]+-\d{2}")


def reviewer(original: str, rng: random.Random) -> str:
    """A label author's handle: `reviewer-harbor-42`, the same person the same handle in a
    store, never a name, a login or an e-mail a check would flag."""
    return f"{REVIEWER_PREFIX}-{rng.choice(_words()).lower()}-{rng.randrange(10, 100)}"


def file_name(original: str, rng: random.Random) -> str:
    stem, dot, extension = original.rpartition(".")
    if not dot or not stem or len(extension) > 5:
        stem, extension, dot = original, "", ""
    words = _words()
    new_stem = "_".join(
        rng.choice(words) for _ in range(max(1, min(3, len(re.findall(r"[A-Za-z]+", stem)))))
    )
    return new_stem + dot + extension


def address(original: str, rng: random.Random) -> str:
    """A US address shaped like the original: same number of comma/line parts."""
    _, _, last = name_lists("en_US")
    words = _words()
    street = (
        f"{rng.randrange(10, 9999)} {rng.choice(last)} "
        f"{rng.choice(('Street', 'Avenue', 'Road', 'Lane', 'Drive', 'Court'))}"
    )
    city = f"{rng.choice(words).title()}{rng.choice(('ville', 'ton', ' Falls', 'field', 'burg'))}"
    state_zip = (
        f"{rng.choice(('CA', 'NY', 'TX', 'OR', 'WA', 'IL', 'MA', 'CO'))} "
        f"{rng.randrange(10000, 99999)}"
    )
    pieces = [street, city, state_zip, COUNTRY]
    separators = re.findall(r"\s*[,\n]\s*", original.strip())
    count = len(separators) + 1
    chosen = pieces[:count] if count <= len(pieces) else pieces + [city] * (count - len(pieces))
    out = chosen[0]
    for sep, piece in zip(separators, chosen[1:], strict=False):
        out += sep + piece
    return out


def generic(original: str, rng: random.Random) -> str:
    words = _words()
    return match_case(
        original, " ".join(rng.choice(words) for _ in original.split()) or rng.choice(words)
    )


def is_reserved(kind: str, value: str) -> bool:
    """True when `value` lies in a range reserved for examples and fiction (safe by
    construction)."""
    text = value.strip().lower()
    if kind in ("email", "url", "domain"):
        host = text.rsplit("@", 1)[-1] if kind == "email" else url_host(text)
        return (
            host in RESERVED_DOMAINS
            or host.endswith(tuple("." + d for d in RESERVED_DOMAINS))
            or host.endswith(RESERVED_TLDS)
        )
    if kind == "ip":
        return text.startswith(tuple(b + "." for b in DOC_IPV4_BLOCKS)) or text.startswith(
            "2001:db8:"
        )
    if kind == "phone":
        from curator.anonymise.finders.numbers import EXTENSION

        digits = re.sub(r"\D", "", EXTENSION.sub("", text))
        if len(digits) in (10, 11) and digits[-7:-2] == "55501":
            return True
        return "7700900" in digits or "2079460" in digits
    if kind == "credit_card":
        digits = re.sub(r"\D", "", text)
        return digits.startswith(TEST_CARD_PREFIX) and luhn_digit(digits[:-1]) == digits[-1]
    if kind == "ssn":
        digits = re.sub(r"\D", "", text)
        return len(digits) == 9 and digits[0] == "9"
    return False


def url_host(url: str) -> str:
    """The host of a URL (with or without a scheme, user or port)."""
    rest = url.split("://", 1)[-1]
    host = re.split(r"[/?#:]", rest, maxsplit=1)[0]
    return host.rsplit("@", 1)[-1]
