"""The label revision an annotation makes: a document's spans and values, a thread's rubric
verdicts, a conversation's rubrics, reference answer and fields.

Each reader takes the revision before it and says what the annotation says per field, for
the agreement count. `strict` (a new annotation): what does not fit the fixture is refused
with the fixture and field named; an annotation pulled earlier only feeds the count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from curator import clock
from curator.config import doc_type, value_locale
from curator.errors import CuratorError
from curator.labels import content_reading, reviewed
from curator.model import (
    ConversationContent,
    DocumentContent,
    FieldLabel,
    FieldSpec,
    LabelRevision,
    Rubric,
    Span,
    Task,
    ThreadContent,
    rubric_item,
)
from curator.normalise import UnparsableValue, check, same_value
from curator.reading import Reading, recorded_locale
from curator.review import configs
from curator.review.agreement import Said
from curator.review.tasks import read_document_answer, read_reference, read_thread_answer
from curator.review.textmap import join_pages

if TYPE_CHECKING:
    from curator.anonymise import UserInput
    from curator.store import Store, Transaction

_MARK_IT = "mark its evidence in the text (or a lead keeps it with curator label set --no-evidence)"
_WRITE_IT = (
    "write it as a message says it (or a lead keeps it with curator label set --no-evidence)"
)


def document_revision(
    store: Store,
    txn: Transaction,
    fixture_id: str,
    content: DocumentContent,
    annotation: dict[str, Any],
    previous: LabelRevision | None,
    *,
    strict: bool,
    where: str,
    typed: UserInput,
) -> tuple[dict[str, Said], LabelRevision]:
    """What the annotation says per field, and the revision it makes from `previous`.

    `strict` (a new annotation): a span whose text is not the fixture's text there, a value
    that does not parse for its type, or a field both absent and valued is refused. An
    annotation pulled earlier only feeds the agreement count.
    """
    spec_name = txn.fixture(fixture_id).doc_type or ""
    spec = doc_type(store.config, spec_name)
    locale = value_locale(store.config, spec_name)
    reading = content_reading(content, locale)
    answer = read_document_answer(annotation.get("result") or [])
    joined = join_pages(content)
    fields = dict(previous.fields) if previous else {}
    said: dict[str, Said] = {}
    for name, field_spec in spec.fields.items():
        spans = sorted(answer.spans.get(name, []), key=lambda s: (s.start, s.end))
        value = answer.values.get(name)
        if value:
            value = typed.field_value(store.config, spec_name, name, value)
        if name in answer.absent:
            if (spans or value) and strict:
                raise CuratorError(f"{where}: field {name} is marked absent and also given a value")
            said[name] = Said(None, field_spec.type)
            fields[name] = FieldLabel(type=field_spec.type, value=None, expected_absent=True)
            continue
        evidence: Span | None = None
        evidence_text: str | None = None
        if spans:
            mark = spans[0]
            located = joined.span_from_utf16(mark.start, mark.end)
            found = None
            if located is not None:
                page, start, end = located
                found = content.page(page).text[start:end]
            if located is None or (mark.text is not None and mark.text != found):
                if strict:
                    shown = f"{mark.text!r}" if mark.text is not None else "a span"
                    there = f"{found!r}" if found is not None else "no single page's text"
                    raise CuratorError(
                        f"{where}: field {name}: marks {shown} "
                        f"at [{mark.start}:{mark.end}] but the "
                        f"fixture has {there} there (was its text changed since the push?)"
                    )
                continue
            evidence, evidence_text = Span(page=page, start=start, end=end), found
        value = value or evidence_text
        if not value:
            continue
        label = _judged(
            content,
            name,
            field_spec,
            value,
            evidence,
            answer.variants.get(name, []),
            fields.get(name),
            reading,
            hint=_MARK_IT,
            strict=strict,
            where=where,
        )
        if label is None:
            continue
        said[name] = Said(value, field_spec.type, reading)
        fields[name] = label
    revision = LabelRevision(
        rev=1,
        time=clock.now_iso(),
        author="labelstudio",
        source="manual",
        fields=fields,
        rubrics=list(previous.rubrics) if previous else [],
        tasks=dict(previous.tasks) if previous else {},
        locale=recorded_locale(locale),
    )
    return said, revision


def conversation_revision(
    store: Store,
    spec_name: str | None,
    content: ConversationContent,
    data: dict[str, Any],
    annotation: dict[str, Any],
    previous: LabelRevision | None,
    typed: UserInput,
    *,
    strict: bool,
    where: str,
) -> tuple[dict[str, Said], LabelRevision]:
    """A thread's rubric verdicts, then the reference answer and the doc type's fields: each
    value typed goes through the vault and must be in the messages, as for `label set`."""
    said, revision = thread_revision(
        content, data, annotation, previous, typed, strict=strict, where=where
    )
    result = annotation.get("result") or []
    answer = read_document_answer(result)
    locale = value_locale(store.config, spec_name)
    reading = content_reading(content, locale)
    fields = dict(revision.fields)
    spec = doc_type(store.config, spec_name) if spec_name else None
    for name, field_spec in spec.fields.items() if spec is not None else ():
        value = answer.values.get(name)
        if not value:
            continue
        value = typed.field_value(store.config, spec_name, name, value)
        variants = [
            typed.field_value(store.config, spec_name, name, v)
            for v in answer.variants.get(name, [])
        ]
        label = _judged(
            content,
            name,
            field_spec,
            value,
            None,
            variants,
            fields.get(name),
            reading,
            hint=_WRITE_IT,
            strict=strict,
            where=where,
        )
        if label is None:
            continue
        said[name] = Said(value, field_spec.type, reading)
        fields[name] = label
    reference = previous.reference if previous else None
    typed_reference = read_reference(result)
    if typed_reference is not None:
        reference = typed.text(typed_reference).strip() or None
    if reference is not None and revision.tasks:
        if strict:
            raise CuratorError(
                f"{where}: the reference box is the default task's, but this conversation's "
                "truth is in its tasks (set a task's reference with curator label set --task)"
            )
        reference = None
    if reference is not None and not revision.rubrics:
        if strict:
            raise CuratorError(
                f"{where}: a reference answer is judged against rubrics, and this "
                "conversation has none (pass one, or add one in the box)"
            )
        reference = None
    return said, revision.model_copy(
        update={"fields": fields, "reference": reference, "locale": recorded_locale(locale)}
    )


def _judged(
    content: DocumentContent | ConversationContent,
    name: str,
    field_spec: FieldSpec,
    value: str,
    evidence: Span | None,
    variants: list[str],
    before: FieldLabel | None,
    reading: Reading,
    *,
    hint: str,
    strict: bool,
    where: str,
) -> FieldLabel | None:
    """The label a reviewer's value makes, as `label set` would; None when it is refused
    and `strict` is off (an annotation pulled earlier)."""
    same = (
        before is not None
        and before.value is not None
        and same_value(before.value, value, field_spec.type, reading)
    )
    try:
        check(value, field_spec.type)
        # a value kept as it was keeps the reason it stands without evidence
        label = reviewed(
            content,
            name,
            field_spec.type,
            value,
            evidence,
            variants,
            no_evidence=before.no_evidence if same and before else None,
            hint=hint,
            reading=reading,
        )
    except UnparsableValue as error:
        if strict:
            raise CuratorError(
                f"{where}: field {name}: {error} (field type {field_spec.type})"
            ) from None
        return None
    except CuratorError as error:
        if strict:
            raise CuratorError(f"{where}: field {error}") from None
        return None
    if same and before is not None:  # the same value as before keeps its authority note
        label = label.model_copy(update={"authority": before.authority})
    return label


def thread_revision(
    content: ThreadContent | ConversationContent,
    data: dict[str, Any],
    annotation: dict[str, Any],
    previous: LabelRevision | None,
    typed: UserInput,
    *,
    strict: bool,
    where: str,
) -> tuple[dict[str, Said], LabelRevision]:
    answer = read_thread_answer(annotation.get("result") or [])
    named = previous.tasks if previous else {}
    # task (None: the default task) -> its rubrics, as the verdicts leave them
    by_task: dict[str | None, list[Rubric]] = {None: list(previous.rubrics) if previous else []}
    by_task.update({name: list(task.rubrics) for name, task in named.items()})
    said: dict[str, Said] = {}
    for slot, verdict in sorted(answer.verdicts.items()):
        text, task = configs.slot_rubric(data, slot)
        if not text:
            continue
        said[rubric_item(text, task)] = Said(verdict, "text")
        rubrics = by_task.setdefault(task, [])
        if verdict == configs.FAIL:
            by_task[task] = [r for r in rubrics if r.text != text]
            continue
        # a conversation's rubric has no posts to tick
        thread = content.export.ordered_posts() if isinstance(content, ThreadContent) else []
        # the posts ticked beside it are its evidence (a post no longer in the thread is
        # refused); a result made elsewhere may name the export's original ids
        ids = {post.id for post in thread}
        ticked = [typed.post_id(p, ids) for p in answer.posts.get(slot, [])]
        posts = [p for p in thread if p.id in ticked]
        unknown = sorted(set(ticked) - {p.id for p in posts})
        if unknown and strict:
            raise CuratorError(
                f"{where}: rubric {text!r}: evidence posts not in the thread: {', '.join(unknown)}"
            )
        judged = Rubric(text=text, evidence_posts=[p.id for p in posts])
        index = next((i for i, r in enumerate(rubrics) if r.text == text), None)
        if index is None:
            rubrics.append(judged)
        else:
            rubrics[index] = judged
    for line in (typed.text(t) for t in answer.new_rubrics):
        task, statement = _new_rubric(line, list(named), strict=strict, where=where)
        rubrics = by_task.setdefault(task, [])
        if statement and not any(r.text == statement for r in rubrics):
            rubrics.append(Rubric(text=statement))
    if named and by_task[None]:
        raise CuratorError(
            f"{where}: the task shows rubrics of no task, but the fixture now has named tasks "
            "(run curator review push again)"
        )
    revision = LabelRevision(
        rev=1,
        time=clock.now_iso(),
        author="labelstudio",
        source="manual",
        fields=dict(previous.fields) if previous else {},
        rubrics=by_task.pop(None),
        tasks={
            name: Task(rubrics=rubrics, fields=named[name].fields if name in named else [])
            for name, rubrics in by_task.items()
            if name is not None and (rubrics or (name in named and named[name].fields))
        },
        locale=previous.locale if previous else None,
    )
    return said, revision


def _new_rubric(
    line: str, tasks: list[str], *, strict: bool, where: str
) -> tuple[str | None, str | None]:
    """(task, statement) of a new rubric line: a thread with named tasks takes
    `TASK: statement` (a line naming no task of it is refused, or skipped when not strict)."""
    if not tasks:
        return None, line
    name, sep, text = line.partition(":")
    if sep and name.strip() in tasks and text.strip():
        return name.strip(), text.strip()
    if strict:
        raise CuratorError(
            f"{where}: new rubric {line!r}: this thread's rubrics belong to its tasks "
            f"({', '.join(tasks)}); write it as TASK: statement"
        )
    return None, None
