"""Rewriting the texts of a fixture while its evidence spans follow (via curator.spans).

A document's texts are its pages, a thread's are its post messages; a `Where` names one.
Mutations describe text changes as `Edit`s per text and call `rewrite`, which applies
them with `apply_edits` and maps every evidence span through the resulting `OffsetMap`.
"""

from __future__ import annotations

from collections.abc import Mapping

from curator.labels import evidence_text
from curator.model import DocumentContent, FieldLabel, Span, ThreadContent
from curator.spans import Edit, OffsetMap, apply_edits

Where = tuple[str, int | str]  # ("page", number) or ("post", id)


def texts(content: DocumentContent | ThreadContent) -> list[tuple[Where, str]]:
    """Every text of the content in reading order."""
    if isinstance(content, DocumentContent):
        return [(("page", page.number), page.text) for page in content.pages]
    return [(("post", post.id), post.message) for post in content.export.ordered_posts()]


def where(span: Span) -> Where:
    return ("page", span.page) if span.page is not None else ("post", span.post)  # type: ignore[return-value]


def span_at(place: Where, start: int, end: int) -> Span:
    kind, key = place
    return Span(page=key, start=start, end=end) if kind == "page" else Span(post=key, start=start, end=end)


def with_texts(
    content: DocumentContent | ThreadContent, new_texts: Mapping[Where, str]
) -> DocumentContent | ThreadContent:
    """A copy of the content with some texts replaced."""
    if isinstance(content, DocumentContent):
        pages = [
            page.model_copy(update={"text": new_texts[("page", page.number)]})
            if ("page", page.number) in new_texts
            else page
            for page in content.pages
        ]
        return content.model_copy(update={"pages": pages})
    posts = {
        post_id: post.model_copy(update={"message": new_texts[("post", post_id)]})
        if ("post", post_id) in new_texts
        else post
        for post_id, post in content.export.posts.items()
    }
    export = content.export.model_copy(update={"posts": posts})
    return content.model_copy(update={"export": export})


def rewrite(
    content: DocumentContent | ThreadContent,
    fields: Mapping[str, FieldLabel],
    edits: Mapping[Where, list[Edit]],
) -> tuple[DocumentContent | ThreadContent, dict[str, FieldLabel], dict[Where, OffsetMap], list[str]]:
    """Apply edits per text; return new content, fields with re-mapped evidence, the maps,
    and the names of fields whose evidence was deleted entirely (left with evidence None)."""
    originals = dict(texts(content))
    new_texts: dict[Where, str] = {}
    maps: dict[Where, OffsetMap] = {}
    for place, place_edits in edits.items():
        if place_edits:
            new_texts[place], maps[place] = apply_edits(originals[place], place_edits)
    new_fields: dict[str, FieldLabel] = {}
    lost: list[str] = []
    for name, label in fields.items():
        if label.evidence is None or where(label.evidence) not in maps:
            new_fields[name] = label
            continue
        mapped = maps[where(label.evidence)].span(label.evidence.start, label.evidence.end)
        if mapped is None:
            lost.append(name)
            new_fields[name] = label.model_copy(update={"evidence": None, "evidence_text": None})
        else:
            new_fields[name] = label.model_copy(update={"evidence": span_at(where(label.evidence), *mapped)})
    return with_texts(content, new_texts), new_fields, maps, lost


def protected_bounds(fields: Mapping[str, FieldLabel], place: Where) -> set[int]:
    """Offsets where evidence spans start or end in one text: an edit must not straddle them."""
    bounds: set[int] = set()
    for label in fields.values():
        if label.evidence is not None and where(label.evidence) == place:
            bounds.update((label.evidence.start, label.evidence.end))
    return bounds


def evidence_ranges(fields: Mapping[str, FieldLabel], place: Where) -> list[tuple[int, int]]:
    return [
        (label.evidence.start, label.evidence.end)
        for label in fields.values()
        if label.evidence is not None and where(label.evidence) == place
    ]


def settle_evidence_text(
    content: DocumentContent | ThreadContent, fields: Mapping[str, FieldLabel]
) -> dict[str, FieldLabel]:
    """Record the text at each evidence span when it differs from the value (noised forms)."""
    settled = {}
    for name, label in fields.items():
        if label.evidence is None or label.value is None:
            settled[name] = label.model_copy(update={"evidence_text": None}) if label.evidence is None else label
            continue
        found = evidence_text(content, label.evidence)
        settled[name] = label.model_copy(update={"evidence_text": None if found == label.value else found})
    return settled
