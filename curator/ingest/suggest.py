"""Suggested labels: the value written next to each field's label phrase.

"Monthly Rent: $1,250.00" on a line of a lease proposes monthly_rent = "$1,250.00" with its
evidence span. Suggestions are a draft revision (source "import-suggestion") for a
reviewer to confirm; a value that does not parse as its field's type is not proposed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from curator import clock
from curator.model import (
    DocTypeSpec,
    DocumentContent,
    FieldLabel,
    FieldType,
    LabelRevision,
    Span,
    StoreConfig,
)
from curator.normalise import UnparsableValue, check

AUTHOR = "curator-import"
SOURCE = "import-suggestion"
# Share of a doc type's fields whose label phrases must appear to guess that type.
GUESS_THRESHOLD = 0.5
_CHECKED_TYPES = {FieldType.date, FieldType.money, FieldType.number}
_TRAILING = " \t.;,"


@dataclass(frozen=True)
class Hit:
    field: str
    value: str
    page: int
    start: int
    end: int


def _phrase_patterns(spec: DocTypeSpec) -> list[tuple[str, re.Pattern[str]]]:
    """(field, pattern) for every label phrase, longest phrase first so "Monthly Rent" beats "Rent".

    The phrase starts a line (after an optional bullet) and is followed by a colon or a
    column gap; the value runs to the end of the line or the next column gap. Its words may
    be joined by "_" too: a PDF form's field line names the field as the form does, often
    "monthly_rent: $1,250.00" (curator/ingest/forms.py).
    """
    pairs = [(name, phrase) for name, field in spec.fields.items() for phrase in field.labels]
    pairs.sort(key=lambda pair: -len(pair[1]))
    return [
        (
            name,
            re.compile(
                r"^[ \t]*(?:[-*\u2022][ \t]*)?"
                + "[ _]".join(re.escape(word) for word in phrase.split(" "))
                + r"(?:[ \t]*[:\uff1a][ \t]*|[ \t]{2,}|\t[ \t]*)"
                r"(?P<value>\S.*?)[ \t]*(?:[ \t]{3,}.*)?$",
                re.IGNORECASE | re.MULTILINE,
            ),
        )
        for name, phrase in pairs
    ]


def find_hits(content: DocumentContent, spec: DocTypeSpec) -> list[Hit]:
    """Every (field, value) written as "label: value" on a line, in page and line order."""
    patterns = _phrase_patterns(spec)
    hits: list[Hit] = []
    for page in content.pages:
        claimed: set[int] = set()  # line starts already read by a longer phrase
        for name, pattern in patterns:
            for match in pattern.finditer(page.text):
                line_start = page.text.rfind("\n", 0, match.start() + 1) + 1
                if line_start in claimed:
                    continue
                start, end = match.span("value")
                value = page.text[start:end].rstrip(_TRAILING)
                if not value:
                    continue
                claimed.add(line_start)
                hits.append(Hit(name, value, page.number, start, start + len(value)))
    return sorted(hits, key=lambda h: (h.page, h.start))


def suggest_fields(content: DocumentContent, spec: DocTypeSpec) -> dict[str, FieldLabel]:
    """The first hit per field whose value parses as the field's type."""
    fields: dict[str, FieldLabel] = {}
    for hit in find_hits(content, spec):
        field_type = spec.fields[hit.field].type
        if hit.field in fields:
            continue
        if field_type in _CHECKED_TYPES:
            try:
                check(hit.value, field_type)
            except UnparsableValue:
                continue
        fields[hit.field] = FieldLabel(
            type=field_type,
            value=hit.value,
            evidence=Span(page=hit.page, start=hit.start, end=hit.end),
        )
    return fields


def suggest_revision(
    content: DocumentContent, spec: DocTypeSpec, locale: str | None = None
) -> LabelRevision | None:
    """Revision 1 with the suggested fields, or None when no field was found; `locale` is
    the one its values are read in, as a revision records it (None: the default)."""
    fields = suggest_fields(content, spec)
    if not fields:
        return None
    return LabelRevision(
        rev=1,
        time=clock.now_iso(),
        author=AUTHOR,
        source=SOURCE,
        reason=f"suggested at import from label phrases ({len(fields)}/{len(spec.fields)} fields "
        "found)",
        fields=fields,
        locale=locale,
    )


def coverage(content: DocumentContent, config: StoreConfig) -> dict[str, tuple[int, int]]:
    """Per doc type: (fields whose label phrase the document uses, fields of the type)."""
    return {
        name: (len({hit.field for hit in find_hits(content, spec)}), len(spec.fields))
        for name, spec in config.doc_types.items()
    }


def guess_doc_type(content: DocumentContent, config: StoreConfig) -> str | None:
    """The doc type most of whose label phrases the document uses, if one clearly does."""
    scores = {name: found / total for name, (found, total) in coverage(content, config).items()}
    ranked = sorted(scores.items(), key=lambda item: -item[1])
    if not ranked or ranked[0][1] < GUESS_THRESHOLD:
        return None
    if len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
        return None
    return ranked[0][0]


def no_type_guessed(content: DocumentContent, config: StoreConfig, fixture_id: str) -> str:
    """Why import could not guess a document's type, and how to give it one."""
    found = " and ".join(
        f"{hits} of {total} {name} fields"
        for name, (hits, total) in sorted(coverage(content, config).items())
    )
    return (
        "no document type guessed: its label phrases match "
        f"{found or 'no doc type of curator.toml'} (a guess needs half of a type's fields, and "
        f"one clear winner); set one with `curator label set {fixture_id} --doc-type T`"
    )
