"""`--contradict FIELD [--amendment-first]`: a later amendment changes one field.

An amendment dated after the base document, citing the clause that holds FIELD, sets it
to a new plausible value of its type (a later date, a rent changed by a realistic amount,
another person's name). Its wording is the doc type's `amendment` template in curator.toml
(a lease is amended, an invoice corrected); a doc type without one is refused, never given
another type's text. The ground truth becomes the amended value, its evidence the
amendment, and `authority` on the FieldLabel says which text governs and why. With
`amendment_first` the amendment is put before the base text, so a system must take
authority from the dates, not from which text comes last.
"""

from __future__ import annotations

import random
import re
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from curator.config import field_spec
from curator.errors import CuratorError
from curator.model import DocumentContent, FieldLabel, FieldType, Span
from curator.mutate._textops import rewrite
from curator.mutate.registry import Option, Outcome, Subject, Switch, register
from curator.normalise import UnparsableValue, format_date, parse_amount, parse_date, same_value
from curator.reading import Reading, reading_of
from curator.spans import Edit

_DATE_PATTERNS = [  # index = the style curator.normalise.format_date writes
    re.compile(r"\b\d{4}-\d{2}-\d{2}\b"),
    re.compile(r"\b[A-Z][a-z]+ \d{1,2}, \d{4}\b"),
    re.compile(r"\b\d{1,2} [A-Z][a-z]+ \d{4}\b"),
    re.compile(r"\b\d{2}/\d{2}/\d{4}\b"),
]
_CLAUSE = re.compile(r"(?m)^[ \t]*(\d+(?:\.\d+)*)[.)][ \t]+(\S[^\n]*)$")


@register(
    "contradict",
    category="contradictory",
    owns="the contradicted field: value, evidence, authority",
    options=[
        Option(
            "--contradict",
            "field",
            str,
            "FIELD",
            help="Append a later amendment that changes FIELD.",
        ),
        Switch(
            "--amendment-first",
            of="--contradict",
            param="amendment_first",
            help="With --contradict: put the amendment before the base text.",
        ),
    ],
)
def contradict(subject: Subject, rng: random.Random, params: dict[str, Any]) -> Outcome:
    name = str(params.get("field", ""))
    first = bool(params.get("amendment_first", False))
    content = subject.content
    doc_type = subject.fixture.doc_type
    if not isinstance(content, DocumentContent) or doc_type is None:
        raise CuratorError(
            f"{subject.fixture.id}: --contradict applies to documents with a doc type"
        )
    spec = field_spec(subject.config, doc_type, name)  # unknown field -> CuratorError
    label = subject.labels.fields.get(name)
    if label is None or label.value is None:
        valued = (
            ", ".join(n for n, f in subject.labels.fields.items() if f.value is not None) or "none"
        )
        raise CuratorError(
            f"{subject.fixture.id} has no value for {name!r} to contradict (fields with values: "
            f"{valued})"
        )

    template = subject.config.doc_types[doc_type].amendment
    if template is None:
        raise CuratorError(
            f"doc type {doc_type!r} has no amendment template, so its fixtures cannot be "
            f'contradicted; add amendment = """...{{label}}: {{value}}...""" under '
            f"[doc_types.{doc_type}] in curator.toml"
        )
    old = label.value
    base_text = "\n".join(page.text for page in content.pages)
    reading = reading_of(base_text, subject.labels.locale)  # the locale its truth is read in
    new = new_value(old, spec.type, rng, subject.config.store.locale, reading)
    base_date, date_style = _document_date(base_text, subject, reading)
    amended_on = base_date + timedelta(days=rng.randrange(20, 120))
    phrase = _label_phrase(content, label, spec.labels)
    clause = _clause(content, label) or f'"{phrase}"'
    noun = (subject.config.doc_types[doc_type].description or doc_type).split()[-1].lower()
    filled = template.format(
        number=_next_number(template, base_text),
        date=format_date(amended_on, date_style, reading),
        document_date=format_date(base_date, date_style, reading),
        clause=clause,
        label=phrase,
        value=_VALUE,
    )
    offset = filled.index(_VALUE)
    amendment = filled.replace(_VALUE, new)
    heading = amendment.split("\n", 1)[0].strip()

    page = content.pages[0] if first else content.pages[-1]
    if first:
        insertion, at = amendment + "\n\n", 0
        value_start = offset
    else:
        insertion, at = "\n\n" + amendment, len(page.text)
        value_start = len(page.text) + 2 + offset
    new_content, fields, _, _ = rewrite(
        content, subject.labels.fields, {("page", page.number): [Edit(at, at, insertion)]}
    )
    where = "before the base text" if first else "after the base text"
    authority = (
        f"{heading} dated {amended_on.isoformat()} (page {page.number}, {where}) amends clause "
        f"{clause} of the {noun} dated {base_date.isoformat()}: the later-dated text governs, so "
        f"{name} is {new!r}, not {old!r}"
        + (
            "; the amendment comes first, so authority comes from its date, not its position"
            if first
            else ""
        )
    )
    fields[name] = FieldLabel(
        type=label.type,
        value=new,
        evidence=Span(page=page.number, start=value_start, end=value_start + len(new)),
        authority=authority,
    )
    return Outcome(
        content=new_content,
        fields=fields,
        rubrics=list(subject.labels.rubrics),
        measured={
            "field": name,
            "old_value": old,
            "new_value": new,
            "document_date": base_date.isoformat(),
            "amendment_date": amended_on.isoformat(),
            "clause": clause,
        },
    )


_VALUE = "\x00value\x00"  # where the new value goes in a filled template (no template holds NUL)


def _next_number(template: str, text: str) -> int:
    """1 + the highest number an earlier amendment of this template gave itself in `text`."""
    heading = next((line for line in template.splitlines() if "{number}" in line), None)
    if heading is None:
        return 1
    pattern = re.escape(heading).replace(re.escape("{number}"), r"(\d+)")
    pattern = re.sub(r"\\\{[a-z_]+\\\}", ".*?", pattern)
    return 1 + max((int(m) for m in re.findall(pattern, text)), default=0)


def new_value(
    old: str,
    field_type: FieldType,
    rng: random.Random,
    locale: str = "en_US",
    reading: Reading | None = None,
) -> str:
    """A plausible different value of the same type, written the way `old` is; Faker's
    `locale` makes names, `reading` reads and writes dates and amounts."""
    reading = reading or Reading()
    for _ in range(20):
        candidate = _candidate(old, field_type, rng, locale, reading)
        if not same_value(candidate, old, field_type, reading):
            return candidate
    raise CuratorError(f"could not find a new value for {old!r} ({field_type})")


def _candidate(
    old: str, field_type: FieldType, rng: random.Random, locale: str, reading: Reading
) -> str:
    if field_type is FieldType.date:
        try:
            day = parse_date(old, reading)
        except UnparsableValue:
            raise CuratorError(f"cannot read {old!r} as a date to move it") from None
        moved = day + timedelta(days=30 * rng.randrange(3, 13))
        return format_date(moved, _style_of(old), reading)
    if field_type in (FieldType.money, FieldType.number):
        try:
            amount = parse_amount(old, reading)
        except UnparsableValue:
            raise CuratorError(f"cannot read {old!r} as an amount to change it") from None
        if field_type is FieldType.money:
            step = (
                Decimal(25)
                if abs(amount) >= 500
                else Decimal(5)
                if abs(amount) >= 50
                else Decimal(1)
            )
            change = amount * Decimal(rng.randrange(5, 16)) / 100 * rng.choice([1, 1, -1])
            changed = ((amount + change) / step).quantize(Decimal(1), ROUND_HALF_UP) * step
        else:
            changed = amount + rng.randrange(1, 6)
        return _format_amount_like(old, changed, reading)
    if field_type is FieldType.text:
        runs = list(re.finditer(r"\d+", old))
        if (
            runs
        ):  # a reference number: renumber its last group of digits (INV-2024-0042 -> INV-2024-7310)
            last = runs[-1]
            digits = "".join(str(rng.randrange(10)) for _ in last.group(0))
            return old[: last.start()] + digits + old[last.end() :]
        return f"{old}-A"
    from faker import Faker

    fake = Faker(locale)
    fake.seed_instance(rng.randrange(2**32))
    if field_type is FieldType.person:
        return fake.name()
    if field_type is FieldType.organisation:
        return fake.company()
    return fake.address().replace("\n", ", ")


def _style_of(text: str) -> int:
    for style, pattern in enumerate(_DATE_PATTERNS):
        if pattern.fullmatch(text.strip()):
            return style
    return 1


def _format_amount_like(old: str, amount: Decimal, reading: Reading) -> str:
    match = re.search(r"\d[\d,.\s]*\d|\d", old)
    if match is None:
        return str(amount)
    number = match.group(0)
    decimals = 0
    decimal_point = bool(re.search(r"\.\d{1,2}$", number)) or (
        "," in number and number.rfind(".") > number.rfind(",")
    )
    # 1.250,00 anywhere; 1.250 or 950 too where the locale's decimal sign is a comma
    european = (bool(re.search(r",\d{2}$", number)) and "." in number) or (
        reading.decimal_comma and not decimal_point
    )
    tail = re.search(r"[.,](\d{1,2})$", number)
    if tail:
        decimals = len(tail.group(1))
    integer_part = re.split(r"[.,]\d{1,2}$", number)[0]
    # Group thousands as the original did; an original under 1000 shows no habit, so group.
    ungrouped = len(re.sub(r"\D", "", integer_part)) >= 4 and not re.search(r"[,.\s]", integer_part)
    grouped = f"{amount:.{decimals}f}" if ungrouped else f"{amount:,.{decimals}f}"
    if european:
        grouped = grouped.replace(",", "\0").replace(".", ",").replace("\0", ".")
    return old[: match.start()] + grouped + old[match.end() :]


def _document_date(text: str, subject: Subject, reading: Reading) -> tuple[date, int]:
    """The base document's own date: the first date written in it, else its earliest field date."""
    found: list[tuple[int, date, int]] = []
    for style, pattern in enumerate(_DATE_PATTERNS):
        for match in pattern.finditer(text):
            try:
                found.append((match.start(), parse_date(match.group(0), reading), style))
            except UnparsableValue:
                continue
    if found:
        _, day, style = min(found)
        return day, style
    dates = []
    for label in subject.labels.fields.values():
        if label.type is FieldType.date and label.value:
            try:
                dates.append((parse_date(label.value, reading), _style_of(label.value)))
            except UnparsableValue:
                continue
    if dates:
        return min(dates)
    return date.fromisoformat(subject.labels.time[:10]), 1


def _label_phrase(content: DocumentContent, label: FieldLabel, phrases: list[str]) -> str:
    """The label phrase on the value's line, so the amendment names the field as the base text
    does."""
    if (
        label.evidence is not None
        and label.evidence.page is not None
        and label.evidence.page <= len(content.pages)
    ):
        text = content.page(label.evidence.page).text
        line_start = text.rfind("\n", 0, label.evidence.start) + 1
        line = text[line_start : label.evidence.start]
        for phrase in sorted(phrases, key=len, reverse=True):
            if phrase.lower() in line.lower():
                return phrase
    return phrases[0]


def _clause(content: DocumentContent, label: FieldLabel) -> str | None:
    """The numbered clause heading above the value ("4 (RENT)"), when the text has one."""
    if (
        label.evidence is None
        or label.evidence.page is None
        or label.evidence.page > len(content.pages)
    ):
        return None
    for page_number in range(label.evidence.page, 0, -1):
        text = content.page(page_number).text
        limit = label.evidence.start if page_number == label.evidence.page else len(text)
        headings = list(_CLAUSE.finditer(text, 0, limit))
        if headings:
            heading = headings[-1]
            return f"{heading.group(1)} ({heading.group(2).strip()})"
    return None
