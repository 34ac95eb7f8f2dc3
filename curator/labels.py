"""Label revisions: making a new one from a user's edits, and checking one against content.

A revision is a whole snapshot (the last line of labels.jsonl is the current truth), so a
new revision starts from the previous one and changes only what it is told to.

Every value stands on evidence located in the content (also when written differently), or
on a reason given for its absence (`no_evidence`). `truth_problems` is the one definition
of "the truth agrees with its text": `label set`, every mutation step, review pull and
`curator validate` all ask it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from curator import clock
from curator.config import doc_type as lookup_doc_type
from curator.config import field_spec, value_locale
from curator.errors import CuratorError
from curator.model import (
    TASK_NAME_PATTERN,
    Content,
    DocumentContent,
    FieldLabel,
    FieldType,
    LabelRevision,
    Rubric,
    Span,
    StoreConfig,
    Task,
    ThreadContent,
)
from curator.normalise import (
    UnparsableValue,
    amount_of,
    check,
    find_value,
    matches_any,
    same_value,
    stands_alone,
)
from curator.reading import DEFAULT_LOCALE, Reading, reading_of, recorded_locale
from curator.spans import find_all

if TYPE_CHECKING:
    from curator.anonymise import UserInput
    from curator.store import Store


def parse_assignments(pairs: Sequence[str]) -> dict[str, str]:
    """FIELD=VALUE pairs; an empty VALUE means the field is expected absent."""
    assignments: dict[str, str] = {}
    for pair in pairs:
        field_name, sep, value = pair.partition("=")
        if not sep or not field_name.strip():
            raise CuratorError(f"expected FIELD=VALUE, got {pair!r}")
        assignments[field_name.strip()] = value.strip()
    return assignments


def parse_variants(pairs: Sequence[str]) -> dict[str, list[str]]:
    """FIELD=VALUE pairs, repeatable per field: accepted variants to add or drop."""
    variants: dict[str, list[str]] = {}
    for pair in pairs:
        field_name, sep, value = pair.partition("=")
        if not sep or not field_name.strip() or not value.strip():
            raise CuratorError(f"expected FIELD=VALUE for an accepted variant, got {pair!r}")
        variants.setdefault(field_name.strip(), []).append(value.strip())
    return variants


@dataclass(frozen=True)
class LabelEdit:
    """What one `label set` (or one review answer) changes; everything else is carried over."""

    assignments: Mapping[str, str] = field(default_factory=dict)  # "" = expected absent
    no_evidence: str | None = None  # why assigned values that are not in the content still stand
    accept: Mapping[str, Sequence[str]] = field(default_factory=dict)  # field -> variants to add
    drop_accept: Mapping[str, Sequence[str]] = field(default_factory=dict)
    add_rubrics: Sequence[str] = ()
    drop_rubrics: Sequence[str] = ()
    evidence_posts: Sequence[str] = ()  # the posts the rubrics given in add_rubrics are judged on
    doc_type: str | None = None  # set or change the fixture's doc type
    reference: str | None = None  # a reviewed answer meeting every rubric; "" removes it
    task: str | None = None  # the named task the rubrics, reference and fields belong to

    @property
    def empty(self) -> bool:
        return not (
            self.assignments
            or self.accept
            or self.drop_accept
            or self.add_rubrics
            or self.drop_rubrics
            or self.doc_type
            or self.reference is not None
        )


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
    task: str | None = None,
    author: str,
    source: str = "manual",
    reason: str | None = None,
    no_evidence: str | None = None,
) -> LabelRevision:
    """The next revision: `previous` with the given fields and rubrics changed (see
    `apply_edit`)."""
    edit = LabelEdit(
        assignments=assignments or {},
        add_rubrics=add_rubrics,
        drop_rubrics=drop_rubrics,
        no_evidence=no_evidence,
        reference=reference,
        task=task,
    )
    return apply_edit(
        config, doc_type, content, previous, edit, author=author, source=source, reason=reason
    )


def apply_edit(
    config: StoreConfig,
    doc_type: str | None,
    content: Content,
    previous: LabelRevision | None,
    edit: LabelEdit,
    *,
    author: str,
    source: str = "manual",
    reason: str | None = None,
) -> LabelRevision:
    """The next revision: `previous` with `edit` applied.

    Unknown fields, values that do not parse for their type, a value that is not in the
    content without a `no_evidence` reason, and dropping what is not there are errors.
    `edit.reference` sets the reviewed reference answer ("" removes it; None keeps it).
    With `edit.task` the rubrics and reference are that named task's, and the fields it
    assigns are ones the task asks for; a fixture's rubrics are either all in named tasks or
    all in its default task.
    Values are read in the locale of the fixture's doc type, which the revision records.
    """
    chosen = doc_type
    fields = dict(previous.fields) if previous else {}
    if edit.doc_type is not None and edit.doc_type != doc_type:
        chosen, fields = _retyped(config, content, edit.doc_type, fields)
    locale = value_locale(config, chosen)
    reading = content_reading(content, locale)
    for name, value in edit.assignments.items():
        if chosen is None:
            raise CuratorError(
                "this fixture has no doc type, so it has no fields; "
                "give it one with --doc-type, or use --rubric"
            )
        spec = field_spec(config, chosen, name)
        if not value:
            fields[name] = FieldLabel(type=spec.type, value=None, expected_absent=True)
            continue
        try:
            check(value, spec.type)
        except UnparsableValue as error:
            raise CuratorError(f"{name}: {error} (field type {spec.type})") from None
        before = fields.get(name)
        same = (
            before
            if before is not None
            and before.value is not None
            and same_value(before.value, value, spec.type, reading)
            else None
        )
        # the same value again keeps what was said about it: why it stands, its variants, authority
        label = evidenced(
            content,
            name,
            spec.type,
            value,
            edit.no_evidence or (same.no_evidence if same else None),
            reading=reading,
        )
        if same is not None:
            label = label.model_copy(
                update={"variants": same.variants, "authority": same.authority}
            )
        fields[name] = label
    for name, values in edit.accept.items():
        fields[name] = with_variants(fields, name, values, config, chosen, reading)
    for name, values in edit.drop_accept.items():
        fields[name] = without_variants(fields, name, values)
    tasks = dict(previous.tasks) if previous else {}
    if edit.task is not None:
        task = _revised_task(content, previous, tasks.get(edit.task, Task()), edit)
        if task.rubrics or task.fields:
            tasks[edit.task] = task
        else:  # its last rubric dropped: the task is gone
            tasks.pop(edit.task, None)
        rubrics, answer = [], None
    else:
        if tasks and (edit.add_rubrics or edit.drop_rubrics or edit.reference is not None):
            raise CuratorError(
                f"this fixture's rubrics belong to its tasks ({', '.join(tasks)}): "
                "name one with --task"
            )
        rubrics = _revised_rubrics(content, list(previous.rubrics) if previous else [], edit)
        answer = _revised_reference(previous.reference if previous else None, rubrics, edit)
    return LabelRevision(
        rev=(previous.rev + 1) if previous else 1,
        time=clock.now_iso(),
        author=author,
        source=source,
        reason=reason,
        doc_type=chosen if chosen != doc_type else None,
        fields=fields,
        rubrics=rubrics,
        locale=recorded_locale(locale),
        reference=answer,
        tasks=tasks,
    )


def _revised_task(
    content: Content, previous: LabelRevision | None, task: Task, edit: LabelEdit
) -> Task:
    """A named task with `edit` applied: its rubrics, its reference, and the fields the edit
    assigns (it asks for them from now on)."""
    if edit.task is None or not re.fullmatch(TASK_NAME_PATTERN, edit.task):
        raise CuratorError(
            f"task name {edit.task!r}: lower-case letters and digits, words joined by - or _"
        )
    if previous is not None and (previous.rubrics or previous.reference):
        raise CuratorError(
            "this fixture's rubrics belong to no task: drop them (--drop-rubric) before "
            "giving it named tasks"
        )
    rubrics = _revised_rubrics(content, list(task.rubrics), edit)
    return Task(
        rubrics=rubrics,
        reference=_revised_reference(task.reference, rubrics, edit),
        fields=list(dict.fromkeys([*task.fields, *edit.assignments])),
    )


def _revised_reference(kept: str | None, rubrics: Sequence[Rubric], edit: LabelEdit) -> str | None:
    answer = kept if edit.reference is None else (edit.reference.strip() or None)
    if answer is not None and not rubrics:
        raise CuratorError(
            "a reference answer is judged against rubrics, and this fixture has none"
            + (f" in task {edit.task}" if edit.task else "")
        )
    return answer


NO_EVIDENCE_HINT = 'give --no-evidence "why" to keep it without evidence'


def evidenced(
    content: Content,
    name: str,
    field_type: FieldType,
    value: str,
    no_evidence: str | None = None,
    *,
    hint: str = NO_EVIDENCE_HINT,
    reading: Reading | None = None,
) -> FieldLabel:
    """`value` as a field label with its evidence located, or with `no_evidence` as its reason.

    Refused (CuratorError, ending with `hint`) when it is in neither form in the content and
    no reason is given. `reading` says how the content writes values (the default locale's
    way, naming no one currency, when None).
    """
    span = locate(content, value, field_type, reading)
    if span is not None:
        found = evidence_text(content, span)
        return FieldLabel(
            type=field_type,
            value=value,
            evidence=span,
            evidence_text=None if found == value else found,
        )
    if no_evidence and no_evidence.strip():
        return FieldLabel(type=field_type, value=value, no_evidence=no_evidence.strip())
    places = len(content.texts())
    locale = reading.locale if reading and reading.locale != DEFAULT_LOCALE else None
    where = f" in {locale}" if locale else ""
    other = _in_another_currency(content, value, field_type, reading)
    raise CuratorError(
        f"{name}: {value!r} is not in the content (looked through its {places} {content.part}(s) "
        f"for it as written and in every other way a {field_type} value can be written"
        f"{where}){other}; {hint}"
    )


def _in_another_currency(
    content: Content, value: str, field_type: FieldType, reading: Reading | None
) -> str:
    """ "; it shows '1.250,00 EUR', in another currency" when the amount is there in one."""
    if field_type is not FieldType.money:
        return ""
    locale = Reading(reading.locale if reading else DEFAULT_LOCALE)  # naming no currency
    for _, text in content.texts():
        for start, end in find_value(text, amount_of(value), field_type, locale):
            return f"; it shows {text[start:end]!r}, in another currency"
    return ""


def reviewed(
    content: Content,
    name: str,
    field_type: FieldType,
    value: str,
    span: Span | None,
    variants: Sequence[str] = (),
    *,
    no_evidence: str | None = None,
    hint: str = NO_EVIDENCE_HINT,
    reading: Reading | None = None,
) -> FieldLabel:
    """A reviewer's answer as a field label: the value, its evidence and the answers they accept.

    The evidence is the span they marked, else the value located in the content (refused
    when it is not there, unless `no_evidence` gives the reason it stands without). Marked text
    that does not itself say the value ("J0n Cole" for Jon Cole) is what they read as the value
    there, so it is accepted too, as written: the truth then agrees with its text. Other variants
    of a date, amount or number must parse.
    """
    if span is None:
        label = evidenced(content, name, field_type, value, no_evidence, hint=hint, reading=reading)
    else:
        found = evidence_text(content, span)
        label = FieldLabel(
            type=field_type,
            value=value,
            evidence=span,
            evidence_text=None if found == value else found,
        )
        if found is not None and not shows(found, label, reading):
            label = label.model_copy(update={"variants": [found]})
    return accepting(label, name, variants, reading)


def with_variants(
    fields: Mapping[str, FieldLabel],
    name: str,
    values: Sequence[str],
    config: StoreConfig,
    doc_type: str | None,
    reading: Reading | None = None,
) -> FieldLabel:
    """`name`'s label with `values` accepted as other answers (see `accepting`)."""
    if doc_type is not None:
        field_spec(config, doc_type, name)  # an unknown field is refused by name
    label = fields.get(name)
    if label is None or label.value is None:
        raise CuratorError(f"{name}: has no value to accept variants of; set FIELD=VALUE first")
    return accepting(label, name, values, reading)


def accepting(
    label: FieldLabel, name: str, values: Sequence[str], reading: Reading | None = None
) -> FieldLabel:
    """`label` with `values` accepted as other answers; each variant of a date, amount or
    number must parse as one, and one already accepted (type-aware) adds nothing."""
    variants = list(label.variants)
    for value in values:
        if label.type in (FieldType.date, FieldType.money, FieldType.number):
            try:
                check(value, label.type)
            except UnparsableValue as error:
                raise CuratorError(
                    f"{name}: accepted variant {error} (field type {label.type})"
                ) from None
        if not matches_any(value, [label.value or "", *variants], label.type, reading):
            variants.append(value)
    return label.model_copy(update={"variants": variants})


def without_variants(
    fields: Mapping[str, FieldLabel], name: str, values: Sequence[str]
) -> FieldLabel:
    label = fields.get(name)
    if label is None:
        raise CuratorError(f"{name}: no such field in the labels")
    variants = list(label.variants)
    for value in values:
        if value not in variants:
            shown = ", ".join(repr(v) for v in variants) or "none"
            raise CuratorError(f"{name}: {value!r} is not an accepted variant (accepted: {shown})")
        variants.remove(value)
    return label.model_copy(update={"variants": variants})


def _retyped(
    config: StoreConfig, content: Content, new_type: str, fields: dict[str, FieldLabel]
) -> tuple[str, dict[str, FieldLabel]]:
    """Fields under a new doc type: those the new type has (same name and type) stay, the rest
    go; a document gets the values its label phrases show for fields still unlabelled."""
    if isinstance(content, ThreadContent):
        raise CuratorError("a thread has no doc type (its labels are rubrics)")
    spec = lookup_doc_type(config, new_type)
    kept = {
        name: label
        for name, label in fields.items()
        if name in spec.fields and spec.fields[name].type == label.type
    }
    from curator.ingest.suggest import suggest_fields

    # label phrases are a document's; a conversation's fields are the user's to set
    suggested = suggest_fields(content, spec) if isinstance(content, DocumentContent) else {}
    for name, label in suggested.items():
        kept.setdefault(name, label)
    return new_type, kept


def _revised_rubrics(content: Content, rubrics: list[Rubric], edit: LabelEdit) -> list[Rubric]:
    for text in edit.drop_rubrics:
        remaining = [r for r in rubrics if r.text != text]
        if len(remaining) == len(rubrics):
            raise CuratorError(f"no rubric {text!r} to drop")
        rubrics = remaining
    if edit.evidence_posts:
        if not edit.add_rubrics:
            raise CuratorError("--evidence-post names the posts of the rubrics given with --rubric")
        _check_posts(content, edit.evidence_posts)
    posts = list(dict.fromkeys(edit.evidence_posts))
    for text in edit.add_rubrics:
        if not text.strip():
            raise CuratorError("a rubric cannot be empty")
        index = next((i for i, r in enumerate(rubrics) if r.text == text), None)
        if index is None:
            rubrics.append(Rubric(text=text, evidence_posts=posts))
        elif posts:
            rubrics[index] = rubrics[index].model_copy(update={"evidence_posts": posts})
    return rubrics


def _check_posts(content: Content, post_ids: Sequence[str]) -> None:
    if not isinstance(content, ThreadContent):
        raise CuratorError(
            f"--evidence-post names posts of a thread; this fixture is a {content.kind}"
        )
    known = [post.id for post in content.export.ordered_posts()]
    for post_id in post_ids:
        if post_id not in content.export.posts:
            raise CuratorError(
                f"no post {post_id!r} in this thread (its posts: {', '.join(known)})"
            )


def content_reading(content: Content, locale: str | None) -> Reading:
    """How `content` writes values, when it is written in `locale` (a revision's)."""
    return reading_of(content.full_text(), locale)


def locate(
    content: Content,
    value: str,
    field_type: FieldType | str = "text",
    reading: Reading | None = None,
) -> Span | None:
    """Where `value` first occurs: as written first, then in any form equal for its type."""
    typed = FieldType(field_type) in (FieldType.date, FieldType.money, FieldType.number)
    for where, text in content.texts():
        hits = [hit for hit in find_all(text, value) if not typed or stands_alone(text, *hit)]
        if hits:
            return Span.at(where, *hits[0])
    for where, text in content.texts():
        hits = find_value(text, value, field_type, reading)
        if hits:
            return Span.at(where, *hits[0])
    return None


def evidence_text(content: Content, span: Span) -> str | None:
    """The text a span points at, or None when the page or post does not exist."""
    text = content.text_at(span.where)
    if text is None or span.end > len(text):
        return None
    return text[span.start : span.end]


def shows(found: str, label: FieldLabel, reading: Reading | None = None) -> bool:
    """Does `found` (the text at a label's evidence) say the label's value or an accepted
    variant?"""
    if label.value is None:
        return False
    if found == label.value or found in label.variants:  # as written: the usual case, and cheap
        return True
    return matches_any(found, [label.value, *label.variants], label.type, reading)


def truth_problems(content: Content, revision: LabelRevision) -> list[str]:
    """How a revision's truth disagrees with its text; empty when it agrees.

    The one definition. Each value must be shown at its evidence span (type-aware: a date
    labelled 2024-01-15 may read "January 15, 2024"), or be an accepted variant there, or be
    marked unanswerable (noise garbled it), or have no evidence with a stated reason. A span
    must lie inside its page or post, and the text there must be the recorded evidence_text.
    Expected-absent fields have no value to disagree. A rubric's evidence posts must exist.
    Values are read in the revision's locale.
    """
    reading = content_reading(content, revision.locale) if revision.fields else None
    problems = []
    for name, label in revision.fields.items():
        if label.value is None:
            continue
        if label.evidence is None:
            if not label.no_evidence:
                problems.append(
                    f"field {name}: {label.value!r} has no evidence in the content and no "
                    "reason why (label set --no-evidence)"
                )
            continue
        found = evidence_text(content, label.evidence)
        if found is None:
            where = label.evidence.model_dump(exclude_none=True)
            problems.append(f"field {name}: evidence {where} is outside the content")
        elif label.evidence_text is not None and found != label.evidence_text:
            problems.append(
                f"field {name}: evidence text {found!r} is not the recorded {label.evidence_text!r}"
            )
        elif not label.unanswerable and not shows(found, label, reading):
            problems.append(
                f"field {name}: the text at its evidence reads {found!r}, "
                f"which is neither {label.value!r} nor an accepted variant"
            )
    if isinstance(content, ThreadContent):
        for rubric in revision.all_rubrics():
            missing = [p for p in rubric.evidence_posts if p not in content.export.posts]
            if missing:
                problems.append(
                    f"rubric {rubric.text!r}: evidence posts not in the thread: "
                    f"{', '.join(missing)}"
                )
    return problems


def anchored(content: Content, revision: LabelRevision) -> LabelRevision:
    """`revision` with evidence located for each value that has neither evidence nor a reason
    (labels written before evidence was required); a value not in the content stays as it is."""
    reading = content_reading(content, revision.locale)
    fields = dict(revision.fields)
    for name, label in revision.fields.items():
        if label.value is None or label.evidence is not None or label.no_evidence:
            continue
        span = locate(content, label.value, label.type, reading)
        if span is not None:
            found = evidence_text(content, span)
            fields[name] = label.model_copy(
                update={"evidence": span, "evidence_text": None if found == label.value else found}
            )
    return revision.model_copy(update={"fields": fields})


def pseudonymise_authors(store: Store) -> list[str]:
    """Every person's name on a label revision (manual and Label Studio ones) as the store's
    pseudonymous reviewer handle, in one transaction: repairs a store whose labels.jsonl still
    holds logins or e-mails from before authors went through the vault. The fixture ids it
    changed."""
    from curator.anonymise import UserInput

    changed = []
    with store.transaction() as txn:
        typed = UserInput.of(store)
        for record in store.records():
            revisions = [
                r.model_copy(update={"author": typed.author(r.author)}) if _by_a_person(r) else r
                for r in record.revisions
            ]
            if revisions != record.revisions:
                txn.replace_revisions(record.fixture.id, revisions)
                changed.append(record.fixture.id)
        typed.save()
    return changed


def _by_a_person(revision: LabelRevision) -> bool:
    if revision.source.startswith("labelstudio:"):
        return revision.author != "labelstudio"  # no login named: curator's own word
    return revision.source == "manual"


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
    task: str | None = None,
    reason: str | None = None,
    author: str | None = None,
    no_evidence: str | None = None,
    edit: LabelEdit | None = None,
) -> LabelRevision:
    """Append a manual revision to a fixture; nothing is written when any part is invalid.

    Give the change as keyword arguments or as a whole `edit`. A new doc type is written
    to fixture.json in the same transaction as the revision that records it.
    """
    from curator.anonymise import UserInput

    edit = edit or LabelEdit(
        assignments=assignments or {},
        add_rubrics=add_rubrics,
        drop_rubrics=drop_rubrics,
        no_evidence=no_evidence,
        reference=reference,
        task=task,
    )
    if edit.empty:
        raise CuratorError(
            "nothing to set: give FIELD=VALUE pairs, --accept, --rubric, --reference or --doc-type"
        )
    with store.transaction() as txn:
        record = store.load(fixture_id)
        # what the reviewer typed, through the vault first: a real name becomes the
        # pseudonym the content uses, and is then located in the content like any value
        typed = UserInput.of(store, record.fixture)
        revision = apply_edit(
            store.config,
            record.fixture.doc_type,
            record.content,
            record.labels,
            _typed_edit(
                typed,
                store.config,
                edit.doc_type or record.fixture.doc_type,
                edit,
                record.content.export.posts if isinstance(record.content, ThreadContent) else {},
            ),
            author=typed.author(author or default_author()),
            reason=None if reason is None else typed.text(reason),
        )
        typed.save()  # before the revision lands: a pseudonym is never used but unrecorded
        written = txn.append_revision(fixture_id, revision)
        if revision.doc_type is not None:
            txn.save_fixture(record.fixture.model_copy(update={"doc_type": revision.doc_type}))
        return written


def _typed_edit(
    typed: UserInput,
    config: StoreConfig,
    doc_type: str | None,
    edit: LabelEdit,
    posts: Collection[str],
) -> LabelEdit:
    """`edit` with every value and text a person typed passed through the store's vault (the
    fixture's `posts`: what an evidence post may name)."""

    def values(variants: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
        return {
            f: [typed.field_value(config, doc_type, f, v) for v in vs] for f, vs in variants.items()
        }

    return replace(
        edit,
        assignments={
            f: typed.field_value(config, doc_type, f, v) for f, v in edit.assignments.items()
        },
        no_evidence=None if edit.no_evidence is None else typed.text(edit.no_evidence),
        accept=values(edit.accept),
        drop_accept=values(edit.drop_accept),
        add_rubrics=[typed.text(t) for t in edit.add_rubrics],
        drop_rubrics=[typed.text(t) for t in edit.drop_rubrics],
        reference=None if edit.reference is None else typed.text(edit.reference),
        evidence_posts=[typed.post_id(p, posts) for p in edit.evidence_posts],
    )
