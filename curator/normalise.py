"""Typed value normalisation: when two written values mean the same thing.

"2024-01-15", "January 15, 2024" and "15 Jan 2024" are one date; "$1,250.00", "1250" and
"USD 1,250" one amount, and "€1,250.00" another (an amount keeps its currency). Label
checks, review agreement, bundle diffs and scoring all compare values through `normalise`
/ `same_value`; nothing else re-implements it. A `Reading` (curator.reading) says how the
document writes values: how its locale reads "1.250" and "03/04/2024", and the currency
an amount written without one is in.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

from curator.model import FieldType
from curator.reading import CURRENCY, DEFAULT_READING, Reading


class UnparsableValue(ValueError):
    """A value that cannot be read as its field type (a date that is no date)."""


_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan", "janvier", "januar", "enero", "gennaio", "janeiro", "januari"),
            (
                "february",
                "feb",
                "février",
                "fevrier",
                "februar",
                "febrero",
                "febbraio",
                "fevereiro",
                "februari",
            ),
            ("march", "mar", "mars", "märz", "marz", "marzo", "março", "marco", "maart"),
            ("april", "apr", "avril", "abril", "aprile"),
            ("may", "mai", "mayo", "maggio", "maio", "mei"),
            ("june", "jun", "juin", "juni", "junio", "giugno", "junho"),
            ("july", "jul", "juillet", "juli", "julio", "luglio", "julho"),
            ("august", "aug", "août", "aout", "agosto", "augustus"),
            ("september", "sep", "sept", "septembre", "septiembre", "settembre", "setembro"),
            ("october", "oct", "octobre", "oktober", "octubre", "ottobre", "outubro"),
            ("november", "nov", "novembre", "noviembre", "novembro"),
            (
                "december",
                "dec",
                "décembre",
                "decembre",
                "dezember",
                "diciembre",
                "dicembre",
                "dezembro",
            ),
        ],
        start=1,
    )
    for name in names
}

_ORDINAL = re.compile(r"(\d+)(st|nd|rd|th)\b", re.IGNORECASE)
_ISO = re.compile(r"^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$")
_NUMERIC_DMY = re.compile(r"^(\d{1,2})[-/.](\d{1,2})[-/.](\d{2,4})$")
_WORDS = re.compile(r"[^\W\d_]+|\d+", re.UNICODE)
_SPACE = re.compile(r"\s+")
# What may group digits besides "," and ".": any space (NBSP and the narrow NBSP French uses
# among them) and the apostrophes Swiss amounts use.
_GROUPING = re.compile(r"[\s'\u2019]")
_THREE_DIGIT_GROUPS = re.compile(r"\d{1,3}")


@dataclass(frozen=True)
class Money:
    """An amount and its currency (ISO 4217), None when neither it nor its document names one."""

    amount: Decimal
    currency: str | None

    def same(self, other: Money) -> bool:
        """Equal amounts in one currency; an amount of unknown currency is of no other one."""
        return self.amount == other.amount and (
            self.currency is None or other.currency is None or self.currency == other.currency
        )


def normalise(value: str, field_type: FieldType | str, reading: Reading | None = None) -> str:
    """Canonical form of `value` for its type ("USD 1250.00", "2024-04-03"); raises
    UnparsableValue for dates/money/numbers."""
    kind = FieldType(field_type)
    if kind is FieldType.date:
        return parse_date(value, reading).isoformat()
    if kind is FieldType.money:
        money = parse_money(value, reading)
        amount = f"{money.amount:.2f}"
        return f"{money.currency} {amount}" if money.currency else amount
    if kind is FieldType.number:
        return _plain_number(parse_amount(value, reading))
    return normalise_text(value)


def same_value(a: str, b: str, field_type: FieldType | str, reading: Reading | None = None) -> bool:
    kind = FieldType(field_type)
    try:
        if kind is FieldType.money:
            return parse_money(a, reading).same(parse_money(b, reading))
        return normalise(a, kind, reading) == normalise(b, kind, reading)
    except UnparsableValue:
        return normalise_text(a) == normalise_text(b)


def matches_any(
    candidate: str, accepted: list[str], field_type: FieldType | str, reading: Reading | None = None
) -> bool:
    return any(same_value(candidate, value, field_type, reading) for value in accepted)


def check(value: str, field_type: FieldType | str) -> None:
    """Raise UnparsableValue when `value` cannot be a value of `field_type`."""
    normalise(value, field_type)


def normalise_text(value: str) -> str:
    """Case, accents-as-composed, whitespace and surrounding punctuation do not matter."""
    text = unicodedata.normalize("NFKC", value).casefold()
    text = _SPACE.sub(" ", text).strip()
    return text.strip(" .,;:\"'()[]")


def parse_date(value: str, reading: Reading | None = None) -> date:
    """The day `value` names; "03/04/2024" is read as `reading`'s locale reads it."""
    text = _ORDINAL.sub(r"\1", unicodedata.normalize("NFKC", value).strip().lower())
    text = text.replace(",", " ").replace(" of ", " ")
    iso = _ISO.match(text)
    if iso:
        return _date(int(iso[1]), int(iso[2]), int(iso[3]), value)
    numeric = _NUMERIC_DMY.match(text)
    if numeric:
        first, second, year = int(numeric[1]), int(numeric[2]), int(numeric[3])
        year += 2000 if year < 100 else 0
        # When one number cannot be a month the other is; else the locale says which is first.
        day_first = (reading or DEFAULT_READING).day_first
        day_first = first > 12 or (second <= 12 and day_first)
        month, day = (second, first) if day_first else (first, second)
        return _date(year, month, day, value)
    tokens = _WORDS.findall(text)
    months = [t for t in tokens if t in _MONTHS]
    numbers = [int(t) for t in tokens if t.isdigit()]
    if len(months) == 1 and len(numbers) == 2:
        years = [n for n in numbers if n > 31]
        days = [n for n in numbers if n <= 31]
        if len(years) == 1 and len(days) == 1:
            return _date(years[0], _MONTHS[months[0]], days[0], value)
    raise UnparsableValue(f"not a date: {value!r}")


def format_date(day: date, style: int, reading: Reading | None = None) -> str:
    """`day` as documents write it: style 0 2024-01-15, 2 15 January 2024, 3 01/15/2024
    (15/01/2024 where `reading`'s locale puts the day first), any other January 15, 2024."""
    if style == 0:
        return day.isoformat()
    if style == 2:
        return f"{day.day} {day.strftime('%B')} {day.year}"
    if style == 3 and (reading or DEFAULT_READING).day_first:
        return f"{day.day:02d}/{day.month:02d}/{day.year}"
    if style == 3:
        return f"{day.month:02d}/{day.day:02d}/{day.year}"
    return f"{day.strftime('%B')} {day.day}, {day.year}"


def _date(year: int, month: int, day: int, original: str) -> date:
    try:
        return date(year, month, day)
    except ValueError:
        raise UnparsableValue(f"not a date: {original!r}") from None


def parse_money(value: str, reading: Reading | None = None) -> Money:
    """The amount and the currency it names, else the document's (`reading.currency`);
    an amount naming two currencies is no amount."""
    reading = reading or DEFAULT_READING
    named = {reading.currency_of(match.group()) for match in CURRENCY.finditer(value)}
    if len(named) > 1:
        raise UnparsableValue(f"not an amount: {value!r} (names {len(named)} currencies)")
    return Money(parse_amount(value, reading), named.pop() if named else reading.currency)


def amount_of(value: str) -> str:
    """`value` without the currency it names ("$1,250.00" -> "1,250.00")."""
    return CURRENCY.sub("", value).strip()


def parse_amount(value: str, reading: Reading | None = None) -> Decimal:
    """The number in `value`, currency left out. Grouping may be "," "." a space or an
    apostrophe; "1,250" and "1.250" (one sign, three digits after it) are read as
    `reading`'s locale reads them, every other form as the only thing it can mean."""
    text = _GROUPING.sub("", CURRENCY.sub("", unicodedata.normalize("NFKC", value)))
    negative = text.startswith("-") or (text.startswith("(") and text.endswith(")"))
    text = text.strip("-()")
    if "," in text and "." in text:
        # Whichever separator comes last is the decimal point: 1,250.00 or 1.250,00.
        decimal_sep = "," if text.rfind(",") > text.rfind(".") else "."
        thousands = "." if decimal_sep == "," else ","
        text = text.replace(thousands, "").replace(decimal_sep, ".")
    elif "," in text or "." in text:
        text = _one_separator(text, "," if "," in text else ".", reading or DEFAULT_READING)
    try:
        amount = Decimal(text)
    except InvalidOperation:
        raise UnparsableValue(f"not an amount: {value!r}") from None
    if not amount.is_finite():
        raise UnparsableValue(f"not an amount: {value!r}")
    return -amount if negative else amount


def _one_separator(text: str, sep: str, reading: Reading) -> str:
    """`text` (digits and one kind of separator) with "." as its decimal point, if any."""
    head, _, tail = text.rpartition(sep)
    groups = head.split(sep)
    grouped = len(tail) == 3 and all(_THREE_DIGIT_GROUPS.fullmatch(g) for g in groups)
    if grouped and len(groups) == 1:
        # 1,250 or 1.250: a thousands group unless the locale's decimal sign is this one
        grouped = (sep == ",") != reading.decimal_comma
    return text.replace(sep, "") if grouped else f"{head.replace(sep, '')}.{tail}"


def _plain_number(amount: Decimal) -> str:
    normalised = amount.normalize()
    return format(normalised, "f")


_MONTH_WORD = r"[^\W\d_]{3,10}\.?"
_DATE_CANDIDATE = re.compile(
    r"\b(?:"
    rf"\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_WORD},?\s+\d{{4}}"  # 15 January 2024
    rf"|{_MONTH_WORD}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"  # January 15, 2024
    r"|\d{4}[-/.]\d{1,2}[-/.]\d{1,2}"  # 2024-01-15
    r"|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}"  # 01/15/2024
    r")\b",
    re.IGNORECASE,
)
_SIGN_SPACE = "[ \u00a0\u202f]?"
# 71,137 / 71.137 / 71 137 / 71'137 grouped by threes, else a plain run of digits
_NUMBER = re.compile(r"-?(?:\d{1,3}(?:[,.'\u2019 \u00a0\u202f\u2009]\d{3})+|\d+)(?:[.,]\d+)?(?!\d)")
_SIGN_BEFORE = re.compile(rf"(?:{CURRENCY.pattern}){_SIGN_SPACE}\Z", re.IGNORECASE)
_SIGN_AFTER = re.compile(rf"{_SIGN_SPACE}(?:{CURRENCY.pattern})", re.IGNORECASE)
_LONGEST_SIGN = 12  # "dollars" and a space fit, with room for \b to see the word's start
_MAY_END_A_SIGN = re.compile(r"[^\W\d_]|[ \u00a0\u202f$€£¥₹₩₽]")


def _amounts(text: str, digits: str | None = None) -> Iterator[tuple[int, int]]:
    """Spans of the amounts written in `text` (only those whose significant digits are
    `digits`, when given), each with a currency sign, code or word written right before or
    after it. (One regex with the signs around the number is several times slower: every
    position of the text would try every sign.)"""
    for match in _NUMBER.finditer(text):
        start, end = match.span()
        if digits is not None and _digits(match.group()) != digits:
            continue
        before = None
        if start and _MAY_END_A_SIGN.match(text[start - 1]):
            before = _SIGN_BEFORE.search(text, max(0, start - _LONGEST_SIGN), start)
        after = _SIGN_AFTER.match(text, end)
        yield (before.start() if before else start), (after.end() if after else end)


def _digits(value: str) -> str:
    """The significant digits: equal amounts have equal ones, so a candidate whose differ
    need not be parsed."""
    return re.sub(r"\D", "", value).strip("0")


def find_value(
    text: str, value: str, field_type: FieldType | str, reading: Reading | None = None
) -> list[tuple[int, int]]:
    """Spans of `text` that hold `value` as written there, in any equivalent form.

    "2024-01-15" is found where the text says "January 15, 2024"; "71137" where it says
    "71,137" (or "71.137" in a German document); "1250" where it says "1.250,00 EUR", but
    "$1,250.00" is not, being dollars. Text-like types are found ignoring case and
    whitespace runs.
    """
    kind = FieldType(field_type)
    if kind is FieldType.date or kind in (FieldType.money, FieldType.number):
        try:
            wanted = _typed(value, kind, reading)
        except UnparsableValue:
            return []
        if kind is FieldType.date:
            spans: Iterable[tuple[int, int]] = (m.span() for m in _DATE_CANDIDATE.finditer(text))
        else:
            spans = _amounts(text, _digits(value))
        found = []
        for start, end in spans:
            candidate = text[start:end].rstrip(" ,.")
            try:
                if _equal(_typed(candidate, kind, reading), wanted):
                    found.append((start, start + len(candidate)))
            except UnparsableValue:
                continue
        return found
    words = [re.escape(w) for w in normalise_text(value).split(" ") if w]
    if not words:
        return []
    pattern = re.compile(r"\s+".join(words), re.IGNORECASE)
    return [m.span() for m in pattern.finditer(unicodedata.normalize("NFKC", text))]


_LONGER_NUMBER = re.compile(r"[.,'\u2019]?\d")


def stands_alone(text: str, start: int, end: int) -> bool:
    """Is text[start:end] a whole value, not part of a longer number ("1.25" in "1.250",
    "71137" in "171137")? For values found as written."""
    before = text[start - 1] if start > 0 else ""
    return not before.isdigit() and not _LONGER_NUMBER.match(text, end)


def _typed(value: str, kind: FieldType, reading: Reading | None) -> date | Decimal | Money:
    if kind is FieldType.date:
        return parse_date(value, reading)
    if kind is FieldType.money:
        return parse_money(value, reading)
    return parse_amount(value, reading)


def _equal(a: date | Decimal | Money, b: date | Decimal | Money) -> bool:
    return a.same(b) if isinstance(a, Money) and isinstance(b, Money) else a == b


def typed_values(text: str) -> list[tuple[FieldType, str]]:
    """The dates and currency amounts written in a text, in order of appearance: what a
    rubric such as "states the rent of $950.00" asks an answer to hold (the rules judge)."""
    found: list[tuple[int, FieldType, str]] = []
    dates: list[tuple[int, int]] = []
    for match in _DATE_CANDIDATE.finditer(text):
        candidate = match.group().rstrip(" ,.")
        try:
            parse_date(candidate)
        except UnparsableValue:
            continue
        found.append((match.start(), FieldType.date, candidate))
        dates.append(match.span())
    for amount_start, amount_end in _amounts(text):
        candidate = text[amount_start:amount_end].strip().rstrip(" ,.")
        inside_date = any(start <= amount_start < end for start, end in dates)
        if inside_date or not CURRENCY.search(candidate):
            continue
        try:
            parse_amount(candidate)
        except UnparsableValue:
            continue
        found.append((amount_start, FieldType.money, candidate))
    return [(kind, value) for _, kind, value in sorted(found, key=lambda hit: hit[0])]
