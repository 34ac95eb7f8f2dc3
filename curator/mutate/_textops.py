"""Rewriting the texts of a fixture while its evidence spans follow (via curator.spans).

A content's texts and their `Where`s are the content's own (curator.model.Texts).
Mutations describe text changes as `Edit`s per text and call `rewrite`, which applies
them with `apply_edits` and maps every evidence span through the resulting `OffsetMap`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from curator.labels import evidence_text
from curator.model import Content, FieldLabel, Span, Texts, Where
from curator.spans import Edit, OffsetMap, apply_edits

SameKind = TypeVar("SameKind", bound=Texts)  # rewriting keeps the kind of content


def rewrite(
    content: SameKind,
    fields: Mapping[str, FieldLabel],
    edits: Mapping[Where, list[Edit]],
) -> tuple[SameKind, dict[str, FieldLabel], dict[Where, OffsetMap], list[str]]:
    """Apply edits per text; return new content, fields with re-mapped evidence, the maps,
    and the names of fields whose evidence was deleted entirely (left with evidence None)."""
    originals = dict(content.texts())
    new_texts: dict[Where, str] = {}
    maps: dict[Where, OffsetMap] = {}
    for place, place_edits in edits.items():
        if place_edits:
            new_texts[place], maps[place] = apply_edits(originals[place], place_edits)
    new_fields: dict[str, FieldLabel] = {}
    lost: list[str] = []
    for name, label in fields.items():
        if label.evidence is None or label.evidence.where not in maps:
            new_fields[name] = label
            continue
        mapped = maps[label.evidence.where].span(label.evidence.start, label.evidence.end)
        if mapped is None:
            lost.append(name)
            new_fields[name] = label.model_copy(update={"evidence": None, "evidence_text": None})
        else:
            new_fields[name] = label.model_copy(
                update={"evidence": Span.at(label.evidence.where, *mapped)}
            )
    return content.with_texts(new_texts), new_fields, maps, lost


def protected_bounds(fields: Mapping[str, FieldLabel], place: Where) -> set[int]:
    """Offsets where evidence spans start or end in one text: an edit must not straddle them."""
    bounds: set[int] = set()
    for label in fields.values():
        if label.evidence is not None and label.evidence.where == place:
            bounds.update((label.evidence.start, label.evidence.end))
    return bounds


def evidence_ranges(fields: Mapping[str, FieldLabel], place: Where) -> list[tuple[int, int]]:
    return [
        (label.evidence.start, label.evidence.end)
        for label in fields.values()
        if label.evidence is not None and label.evidence.where == place
    ]


def settle_evidence_text(
    content: Content, fields: Mapping[str, FieldLabel]
) -> dict[str, FieldLabel]:
    """Record the text at each evidence span when it differs from the value (noised forms)."""
    settled = {}
    for name, label in fields.items():
        if label.evidence is None or label.value is None:
            settled[name] = (
                label.model_copy(update={"evidence_text": None})
                if label.evidence is None
                else label
            )
            continue
        found = evidence_text(content, label.evidence)
        settled[name] = label.model_copy(
            update={"evidence_text": None if found == label.value else found}
        )
    return settled
