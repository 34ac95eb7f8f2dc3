"""Typed value normalisation: when two written values mean the same thing.

"2024-01-15", "January 15, 2024" and "15 Jan 2024" are one date; "$1,250.00", "1250" and
"USD 1,250" one amount. Label checks, review agreement, bundle diffs and scoring all
compare values through `normalise` / `same_value`; nothing else re-implements it.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date
from decimal import Decimal, InvalidOperation

from curator.model import FieldType


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
_CURRENCY = re.compile(r"[$€£¥₹]|\b(?:usd|eur|gbp|chf|cad|aud|jpy|dollars?|euros?|pounds?)\b", re.I)
_SPACE = re.compile(r"\s+")


def normalise(value: str, field_type: FieldType | str) -> str:
    """Canonical form of `value` for its type; raises UnparsableValue for dates/money/numbers."""
    kind = FieldType(field_type)
    if kind is FieldType.date:
        return parse_date(value).isoformat()
    if kind in (FieldType.money, FieldType.number):
        amount = parse_amount(value)
        return f"{amount:.2f}" if kind is FieldType.money else _plain_number(amount)
    return normalise_text(value)


def same_value(a: str, b: str, field_type: FieldType | str) -> bool:
    try:
        return normalise(a, field_type) == normalise(b, field_type)
    except UnparsableValue:
        return normalise_text(a) == normalise_text(b)


def matches_any(candidate: str, accepted: list[str], field_type: FieldType | str) -> bool:
    return any(same_value(candidate, value, field_type) for value in accepted)


def check(value: str, field_type: FieldType | str) -> None:
    """Raise UnparsableValue when `value` cannot be a value of `field_type`."""
    normalise(value, field_type)


def normalise_text(value: str) -> str:
    """Case, accents-as-composed, whitespace and surrounding punctuation do not matter."""
    text = unicodedata.normalize("NFKC", value).casefold()
    text = _SPACE.sub(" ", text).strip()
    return text.strip(" .,;:\"'()[]")


def parse_date(value: str) -> date:
    text = _ORDINAL.sub(r"\1", unicodedata.normalize("NFKC", value).strip().lower())
    text = text.replace(",", " ").replace(" of ", " ")
    iso = _ISO.match(text)
    if iso:
        return _date(int(iso[1]), int(iso[2]), int(iso[3]), value)
    numeric = _NUMERIC_DMY.match(text)
    if numeric:
        first, second, year = int(numeric[1]), int(numeric[2]), int(numeric[3])
        year += 2000 if year < 100 else 0
        # Month-first is the US reading; when the first number cannot be a month, it is a day.
        month, day = (first, second) if first <= 12 else (second, first)
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


def format_date(day: date, style: int) -> str:
    """`day` as documents write it: style 0 2024-01-15, 2 15 January 2024, 3 01/15/2024,
    any other January 15, 2024."""
    if style == 0:
        return day.isoformat()
    if style == 2:
        return f"{day.day} {day.strftime('%B')} {day.year}"
    if style == 3:
        return f"{day.month:02d}/{day.day:02d}/{day.year}"
    return f"{day.strftime('%B')} {day.day}, {day.year}"


def _date(year: int, month: int, day: int, original: str) -> date:
    try:
        return date(year, month, day)
    except ValueError:
        raise UnparsableValue(f"not a date: {original!r}") from None


def parse_amount(value: str) -> Decimal:
    text = _CURRENCY.sub("", unicodedata.normalize("NFKC", value)).strip()
    text = text.replace(" ", "").replace("\u202f", "").replace("'", "")
    negative = text.startswith("-") or (text.startswith("(") and text.endswith(")"))
    text = text.strip("-()")
    if "," in text and "." in text:
        # Whichever separator comes last is the decimal point: 1,250.00 or 1.250,00.
        decimal_sep = "," if text.rfind(",") > text.rfind(".") else "."
        thousands = "." if decimal_sep == "," else ","
        text = text.replace(thousands, "").replace(decimal_sep, ".")
    elif "," in text:
        head, _, tail = text.rpartition(",")
        # 1,250 is a thousands group; 12,5 a decimal comma.
        text = text.replace(",", "") if len(tail) == 3 else f"{head.replace(',', '')}.{tail}"
    elif text.count(".") > 1:
        text = text.replace(".", "")
    try:
        amount = Decimal(text)
    except InvalidOperation:
        raise UnparsableValue(f"not an amount: {value!r}") from None
    if not amount.is_finite():
        raise UnparsableValue(f"not an amount: {value!r}")
    return -amount if negative else amount


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
_AMOUNT_CANDIDATE = re.compile(
    r"(?:(?:[$€£¥₹]|\b(?:USD|EUR|GBP|CHF)\b)\s?)?"
    r"-?\d(?:[\d,.\u202f ]*\d)?"
    r"(?:\s?(?:€|\b(?:EUR|USD|GBP)\b))?"
)


def find_value(text: str, value: str, field_type: FieldType | str) -> list[tuple[int, int]]:
    """Spans of `text` that hold `value` as written there, in any equivalent form.

    "2024-01-15" is found where the text says "January 15, 2024"; "$1,250.00" where it
    says "1.250,00 EUR". Text-like types are found ignoring case and whitespace runs.
    """
    kind = FieldType(field_type)
    if kind in (FieldType.date, FieldType.money, FieldType.number):
        pattern = _DATE_CANDIDATE if kind is FieldType.date else _AMOUNT_CANDIDATE
        try:
            wanted = normalise(value, kind)
        except UnparsableValue:
            return []
        found = []
        for match in pattern.finditer(text):
            start, end = match.span()
            candidate = match.group().rstrip(" ,.")
            try:
                if normalise(candidate, kind) == wanted:
                    found.append((start, start + len(candidate)))
            except UnparsableValue:
                continue
        return found
    words = [re.escape(w) for w in normalise_text(value).split(" ") if w]
    if not words:
        return []
    pattern = re.compile(r"\s+".join(words), re.IGNORECASE)
    return [m.span() for m in pattern.finditer(unicodedata.normalize("NFKC", text))]


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
    for match in _AMOUNT_CANDIDATE.finditer(text):
        candidate = match.group().strip().rstrip(" ,.")
        inside_date = any(start <= match.start() < end for start, end in dates)
        if inside_date or not _CURRENCY.search(candidate):
            continue
        try:
            parse_amount(candidate)
        except UnparsableValue:
            continue
        found.append((match.start(), FieldType.money, candidate))
    return [(kind, value) for _, kind, value in sorted(found, key=lambda hit: hit[0])]
