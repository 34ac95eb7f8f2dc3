"""Label revisions: making a new one from a user's edits, and checking one against content.

A revision is a whole snapshot (the last line of labels.jsonl is the current truth), so a
new revision starts from the previous one and changes only what it is told to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from curator import clock
from curator.config import field_spec
from curator.errors import CuratorError
from curator.model import Content, FieldLabel, FieldType, LabelRevision, Rubric, Span, StoreConfig
from curator.normalise import UnparsableValue, check, find_value, same_value
from curator.spans import find_all

if TYPE_CHECKING:
    from curator.store import Store


def parse_assignments(pairs: Sequence[str]) -> dict[str, str]:
    """FIELD=VALUE pairs; an empty VALUE means the field is expected absent."""
    assignments: dict[str, str] = {}
    for pair in pairs:
        field, sep, value = pair.partition("=")
        if not sep or not field.strip():
            raise CuratorError(f"expected FIELD=VALUE, got {pair!r}")
        assignments[field.strip()] = value.strip()
    return assignments


def revise(
    config: StoreConfig,
    doc_type: str | None,
    content: Content,
    previous: LabelRevision | None,
    *,
    assignments: Mapping[str, str] | None = None,
    add_rubrics: Sequence[str] = (),
    drop_rubrics: Sequence[str] = (),
    reference: str | None = None,
    author: str,
    source: str = "manual",
    reason: str | None = None,
) -> LabelRevision:
    """The next revision: `previous` with the given fields and rubrics changed.

    Unknown fields, values that do not parse for their type, and dropping a rubric that is
    not there are errors. Evidence is found in the content when the value occurs in it.
    `reference` sets the reviewed reference answer ("" removes it; None keeps the previous).
    """
    fields = dict(previous.fields) if previous else {}
    for field, value in (assignments or {}).items():
        if doc_type is None:
            raise CuratorError("this fixture has no doc type, so it has no fields; use --rubric")
        spec = field_spec(config, doc_type, field)
        if not value:
            fields[field] = FieldLabel(type=spec.type, value=None, expected_absent=True)
            continue
        try:
            check(value, spec.type)
        except UnparsableValue as error:
            raise CuratorError(f"{field}: {error} (field type {spec.type})") from None
        fields[field] = FieldLabel(
            type=spec.type, value=value, evidence=locate(content, value, spec.type)
        )

    rubrics = list(previous.rubrics) if previous else []
    for text in drop_rubrics:
        remaining = [r for r in rubrics if r.text != text]
        if len(remaining) == len(rubrics):
            raise CuratorError(f"no rubric {text!r} to drop")
        rubrics = remaining
    known = {r.text for r in rubrics}
    for text in add_rubrics:
        if not text.strip():
            raise CuratorError("a rubric cannot be empty")
        if text not in known:
            rubrics.append(Rubric(text=text))
            known.add(text)

    kept = previous.reference if previous else None
    answer = kept if reference is None else (reference.strip() or None)
    if answer is not None and not rubrics:
        raise CuratorError("a reference answer is judged against rubrics, and this fixture has none")

    return LabelRevision(
        rev=(previous.rev + 1) if previous else 1,
        time=clock.now_iso(),
        author=author,
        source=source,
        reason=reason,
        fields=fields,
        rubrics=rubrics,
        reference=answer,
    )


def locate(content: Content, value: str, field_type: FieldType | str = "text") -> Span | None:
    """Where `value` first occurs: as written first, then in any form equal for its type."""
    for where, text in content.texts():
        hits = find_all(text, value)
        if hits:
            return Span.at(where, *hits[0])
    for where, text in content.texts():
        hits = find_value(text, value, field_type)
        if hits:
            return Span.at(where, *hits[0])
    return None


def evidence_text(content: Content, span: Span) -> str | None:
    """The text a span points at, or None when the page or post does not exist."""
    text = content.text_at(span.where)
    if text is None or span.end > len(text):
        return None
    return text[span.start : span.end]


def evidence_problems(content: Content, revision: LabelRevision) -> list[str]:
    """Fields whose evidence does not point at their value (or recorded evidence text)."""
    problems = []
    for name, label in revision.fields.items():
        if label.evidence is None:
            continue
        found = evidence_text(content, label.evidence)
        if found is None:
            where = label.evidence.model_dump(exclude_none=True)
            problems.append(f"field {name}: evidence {where} is outside the content")
        elif label.evidence_text is not None and found != label.evidence_text:
            problems.append(f"field {name}: evidence text {found!r} is not the recorded {label.evidence_text!r}")
        elif label.evidence_text is None and not _same(found, label.value or "", label.type):
            problems.append(f"field {name}: evidence text {found!r} is not {label.value!r}")
    return problems


def _same(found: str, value: str, field_type: FieldType) -> bool:
    # Evidence may write a value differently from the label ("January 15, 2024" for a
    # date labelled 2024-01-15); text-like values must match exactly as written.
    if field_type in (FieldType.date, FieldType.money, FieldType.number):
        return same_value(found, value, field_type)
    return found == value


def default_author() -> str:
    import getpass
    import os

    return os.environ.get("CURATOR_AUTHOR") or getpass.getuser()


def set_labels(
    store: Store,
    fixture_id: str,
    *,
    assignments: Mapping[str, str] | None = None,
    add_rubrics: Sequence[str] = (),
    drop_rubrics: Sequence[str] = (),
    reference: str | None = None,
    reason: str | None = None,
    author: str | None = None,
) -> LabelRevision:
    """Append a manual revision to a fixture; nothing is written when any part is invalid."""
    if not assignments and not add_rubrics and not drop_rubrics and reference is None:
        raise CuratorError("nothing to set: give FIELD=VALUE pairs, --rubric or --reference")
    from curator.anonymise.typed import TypedText

    with store.transaction() as txn:
        record = store.load(fixture_id)
        # what the reviewer typed, through the vault first: a real name becomes the
        # pseudonym the content uses, and is then located in the content like any value
        typed = TypedText.of(store, record.fixture)
        doc_type = record.fixture.doc_type
        revision = revise(
            store.config,
            doc_type,
            record.content,
            record.labels,
            assignments={f: typed.field_value(store.config, doc_type, f, v) for f, v in (assignments or {}).items()},
            add_rubrics=[typed.text(t) for t in add_rubrics],
            drop_rubrics=[typed.text(t) for t in drop_rubrics],
            reference=None if reference is None else typed.text(reference),
            author=author or default_author(),
            reason=None if reason is None else typed.text(reason),
        )
        typed.save()  # before the revision lands: a pseudonym is never used but unrecorded
        return txn.append_revision(fixture_id, revision)
