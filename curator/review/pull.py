"""`curator review pull`: annotations from Label Studio as label revisions.

Tasks are read through the export API a batch at a time, and each batch is one store
transaction: when the server fails half-way, the batches before it are kept and the next
pull, which skips every annotation whose `labelstudio:<task>/<annotation>` source is
already in the fixture's history, finishes the job without duplicates.

Every project's config is checked before anything is written, and each annotation is
checked against the fixture before its batch is written: a span whose text is not the
fixture's text at those offsets is refused with the fixture and field named.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from curator import clock
from curator.config import doc_type, value_locale
from curator.errors import CuratorError
from curator.labels import content_reading, reviewed
from curator.lifecycle import after_agreement, after_conflict, after_settling
from curator.model import (
    ConversationContent,
    DocumentContent,
    FieldLabel,
    LabelRevision,
    Rubric,
    Span,
    Task,
    ThreadContent,
    rubric_item,
)
from curator.normalise import UnparsableValue, check, same_value
from curator.reading import recorded_locale
from curator.review import configs, state
from curator.review.agreement import Agreement, Said
from curator.review.push import check_config, expected_config, project_title
from curator.review.tasks import read_document_answer, read_reference, read_thread_answer
from curator.review.textmap import join_pages

if TYPE_CHECKING:
    from curator.anonymise import UserInput
    from curator.review.client import Connection
    from curator.store import Store, Transaction

BATCH_SIZE = 100
_MARK_IT = "mark its evidence in the text (or a lead keeps it with curator label set --no-evidence)"


@dataclass
class PullReport:
    revisions: list[dict[str, Any]] = field(default_factory=list)
    already_pulled: int = 0
    reviewed: list[str] = field(default_factory=list)
    conflicts: dict[str, list[str]] = field(default_factory=dict)
    unknown_fixtures: list[str] = field(default_factory=list)
    agreement: Agreement = field(default_factory=Agreement)
    # suspects a reviewer ticked: (fixture, suspect key, "add" (as the kind suggested),
    # "add:<kind>" or "forget"), then what each did
    ticked: list[tuple[str, str, str]] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)

    exit_code = 0

    def as_json(self) -> dict[str, Any]:
        return {
            "revisions": self.revisions,
            "already_pulled": self.already_pulled,
            "reviewed": self.reviewed,
            "conflicts": self.conflicts,
            "unknown_fixtures": self.unknown_fixtures,
            "agreement": self.agreement.as_dict(),
            "decisions": self.decisions,
        }

    def render(self) -> str:
        fixtures = len({r["fixture"] for r in self.revisions})
        out = [
            f"pulled {len(self.revisions)} new annotation(s) into {fixtures} fixture(s) "
            f"({self.already_pulled} already pulled)"
        ]
        out += [
            f"  {r['fixture']}: label rev {r['rev']} from {r['source']} by {r['author']}"
            for r in self.revisions
        ]
        out += [f"reviewed: {fixture_id}" for fixture_id in self.reviewed]
        out += [
            f"conflict: {fixture_id} ({', '.join(names)}): annotators disagree; "
            "a lead must settle it"
            for fixture_id, names in self.conflicts.items()
        ]
        out += [f"skipped: task for unknown fixture {name}" for name in self.unknown_fixtures]
        out += [
            f"{d['fixture']}: a suspect was {d['outcome']}"
            + (
                f" ('{d['shown']}', {len(d['fixtures'])} fixture(s) rewritten)"
                if "shown" in d
                else ""
            )
            for d in self.decisions
        ]
        return "\n".join(out + self.agreement.lines())


def projects_to_pull(store: Store, conn: Connection) -> list[tuple[str, Any]]:
    """Every curator project on the server for this store, each config checked first."""
    known = state.load(store, conn.url)["projects"]
    names = sorted(store.config.doc_types)
    keys = [f"document/{name}" for name in names] + ["thread", "conversation"]
    keys += [f"conversation/{name}" for name in names]
    found = []
    for key in keys:
        project = conn.project(known[key]) if key in known else None
        if project is None or project.title != project_title(store, key):
            project = conn.find_project(project_title(store, key))
        if project is not None:
            check_config(project, key, store)
            found.append((key, project))
    return found


def pull(store: Store, conn: Connection, *, batch_size: int = BATCH_SIZE) -> PullReport:
    from label_studio_sdk.label_interface import LabelInterface

    from curator.anonymise import UserInput

    report = PullReport()
    projects = projects_to_pull(store, conn)
    users = conn.users() if projects else {}
    # One transaction for the whole pull: killed or failing half way, it leaves nothing
    # pulled (and the next pull takes it all), never some projects' annotations only.
    with store.transaction() as txn:
        typed = UserInput.of(store)  # what reviewers typed goes through the vault
        for key, project in projects:
            # Results are checked against curator's config, not the project's: a label added
            # in the UI and used by a labeller is a result curator cannot take.
            slots = configs.rubric_slots(project.label_config) or configs.MIN_RUBRIC_SLOTS
            interface = LabelInterface(expected_config(store, key, slots))
            overlap = max(1, int(getattr(project, "maximum_annotations", None) or 1))
            task_ids = sorted(task_id for task_id, _ in conn.tasks(project.id))
            for start in range(0, len(task_ids), batch_size):
                exported = conn.export(project.id, task_ids[start : start + batch_size])
                for task in sorted(exported, key=lambda t: int(t["id"])):
                    _pull_task(store, txn, project, interface, overlap, users, task, report, typed)
        typed.save()
    # after every label revision: each decision is a `vault add`/`forget` transaction of its own
    _decide_suspects(store, report)
    return report


def _decide_suspects(store: Store, report: PullReport) -> None:
    """What reviewers ticked among a task's suspects, applied as `vault add --kind` (personal)
    or `vault forget` (not personal) would: each suspect found again by its key in the store
    as it is now, all values read before the first decision rewrites anything."""
    from curator.anonymise import add_name, find_suspects, forget_word

    if not report.ticked:
        return
    fixtures = sorted({fixture for fixture, _, _ in report.ticked})
    by_key = {(s.fixture, s.key): s for s in find_suspects(store, ids=fixtures)}
    actions: dict[tuple[str, str], set[str]] = {}
    for fixture, key, action in report.ticked:
        actions.setdefault((fixture, key), set()).add(action)
    for (fixture, key), chosen in sorted(actions.items()):
        suspect = by_key.get((fixture, key))
        kinds = {
            suspect.kind if action == "add" else action.removeprefix("add:")
            for action in chosen
            if suspect is not None and action.startswith("add")
        }
        if suspect is None:
            report.decisions.append({"fixture": fixture, "key": key, "outcome": "no longer found"})
        elif len(chosen) > 1:
            report.decisions.append(
                {"fixture": fixture, "key": key, "outcome": "ticked two ways: left undecided"}
            )
        elif kinds and not kinds <= set(suspect.kinds):
            report.decisions.append(
                {
                    "fixture": fixture,
                    "key": key,
                    "outcome": "of a kind it cannot be: left undecided",
                }
            )
        elif kinds:
            [kind] = kinds
            done = add_name(store, suspect.value, kind)
            report.decisions.append(
                {
                    "fixture": fixture,
                    "key": key,
                    "outcome": f"added as {kind}",
                    "kind": kind,
                    **done.as_dict(),
                }
            )
        else:
            done = forget_word(store, suspect.value)
            report.decisions.append(
                {
                    "fixture": fixture,
                    "key": key,
                    "outcome": "kept as not personal",
                    **done.as_dict(),
                }
            )


def _pull_task(
    store: Store,
    txn: Transaction,
    project: Any,
    interface: Any,
    overlap: int,
    users: dict[int, str],
    task: dict[str, Any],
    report: PullReport,
    typed: UserInput,
) -> None:
    data = task.get("data") or {}
    fixture_id = data.get("fixture_id")
    if not fixture_id or not txn.exists(fixture_id):
        report.unknown_fixtures.append(str(fixture_id))
        return
    annotations = sorted(
        (a for a in task.get("annotations") or [] if not a.get("was_cancelled")),
        key=lambda a: (str(a.get("created_at") or ""), int(a["id"])),
    )
    if not annotations:
        return
    content = store.load(fixture_id).content
    typed = typed.for_fixture(txn.fixture(fixture_id))
    pulled = {r.source for r in txn.revisions(fixture_id)}
    answers = []
    for annotation in annotations:
        source = f"labelstudio:{task['id']}/{annotation['id']}"
        where = f"{fixture_id}: annotation {task['id']}/{annotation['id']}"
        fresh = source not in pulled
        errors = interface.validate_prediction(annotation, return_errors=True) if fresh else []
        if errors:
            raise CuratorError(
                f"{where} does not fit curator's labeling config for project "
                f"{project.id}: {errors[0]}"
            )
        previous = txn.revisions(fixture_id)[-1] if txn.revisions(fixture_id) else None
        # Label Studio shows a document's fields as spans and a thread's rubrics as verdicts
        if isinstance(content, DocumentContent):
            said, revision = _document_revision(
                store,
                txn,
                fixture_id,
                content,
                annotation,
                previous,
                strict=fresh,
                where=where,
                typed=typed,
            )
        elif isinstance(content, ConversationContent):
            said, revision = _conversation_revision(
                store,
                txn.fixture(fixture_id).doc_type,
                content,
                data,
                annotation,
                previous,
                typed,
                strict=fresh,
                where=where,
            )
        else:
            said, revision = _thread_revision(
                content, data, annotation, previous, typed, strict=fresh, where=where
            )
        answers.append(said)
        if not fresh:
            report.already_pulled += 1
            continue
        report.ticked += _ticked_suspects(fixture_id, annotation)
        login = _login(annotation, users)
        author = "labelstudio" if login is None else typed.author(login)
        written = txn.append_revision(
            fixture_id,
            revision.model_copy(
                update={
                    "author": author,
                    "source": source,
                    "reason": f"Label Studio review of label rev {data.get('label_rev', 0)} "
                    f"(project {project.id}, task {task['id']}, annotation {annotation['id']})",
                }
            ),
        )
        report.revisions.append(
            {"fixture": fixture_id, "rev": written.rev, "source": source, "author": author}
        )

    conflicts = report.agreement.add_task(answers)
    fresh_count = len(answers) - sum(
        1 for a in annotations if f"labelstudio:{task['id']}/{a['id']}" in pulled
    )
    fixture = txn.fixture(fixture_id)
    review, status = fixture.review, fixture.status
    if fresh_count == 0:
        # Nothing new on this task. A conflict a lead has since settled by hand (a manual
        # revision after the annotations) is closed; nothing else changes.
        latest = txn.revisions(fixture_id)[-1]
        if review.conflict_fields and not latest.source.startswith("labelstudio:"):
            review = review.model_copy(update={"conflict_fields": []})
            status = after_settling(status)
            report.reviewed.append(fixture_id)
    elif conflicts:
        review = review.model_copy(
            update={"conflict_fields": sorted(set(review.conflict_fields) | set(conflicts))}
        )
        report.conflicts[fixture_id] = conflicts
        status = after_conflict(status)
    elif len(annotations) >= overlap and not review.conflict_fields:
        agreed = after_agreement(status)
        if agreed is not status:
            status = agreed
            report.reviewed.append(fixture_id)
    if status != fixture.status or review != fixture.review:
        txn.save_fixture(fixture.model_copy(update={"status": status, "review": review}))


def _ticked_suspects(fixture_id: str, annotation: dict[str, Any]) -> list[tuple[str, str, str]]:
    ticked = []
    for region in annotation.get("result") or []:
        control = region.get("from_name")
        for choice in (region.get("value") or {}).get("choices") or []:
            if control == configs.SUSPECT_NAMES:
                ticked.append((fixture_id, str(choice), "add"))
            elif control == configs.SUSPECT_NOT_PERSONAL:
                ticked.append((fixture_id, str(choice), "forget"))
            elif control == configs.SUSPECT_OTHER_KIND:  # "<key>:<kind>"
                key, _, kind = str(choice).partition(":")
                ticked.append((fixture_id, key, f"add:{kind}"))
    return ticked


def _login(annotation: dict[str, Any], users: dict[int, str]) -> str | None:
    """The Label Studio login that completed the annotation; None when none is named."""
    who = annotation.get("completed_by")
    if isinstance(who, dict):
        return who.get("email") or who.get("username") or f"user-{who.get('id')}"
    if who is None:
        return None
    return users.get(int(who), f"user-{who}")


def _document_revision(
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
        before = fields.get(name)
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
                answer.variants.get(name, []),
                no_evidence=before.no_evidence if same and before else None,
                hint=_MARK_IT,
                reading=reading,
            )
        except UnparsableValue as error:
            if strict:
                raise CuratorError(
                    f"{where}: field {name}: {error} (field type {field_spec.type})"
                ) from None
            continue
        except CuratorError as error:
            if strict:
                raise CuratorError(f"{where}: field {error}") from None
            continue
        said[name] = Said(value, field_spec.type, reading)
        if same and before is not None:  # the same value as before keeps its authority note
            label = label.model_copy(update={"authority": before.authority})
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


def _conversation_revision(
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
    said, revision = _thread_revision(
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
        before = fields.get(name)
        same = (
            before is not None
            and before.value is not None
            and same_value(before.value, value, field_spec.type, reading)
        )
        try:
            check(value, field_spec.type)
            label = reviewed(
                content,
                name,
                field_spec.type,
                value,
                None,
                variants,
                no_evidence=before.no_evidence if same and before else None,
                hint="write it as a message says it (or a lead keeps it with "
                "curator label set --no-evidence)",
                reading=reading,
            )
        except UnparsableValue as error:
            if strict:
                raise CuratorError(
                    f"{where}: field {name}: {error} (field type {field_spec.type})"
                ) from None
            continue
        except CuratorError as error:
            if strict:
                raise CuratorError(f"{where}: field {error}") from None
            continue
        said[name] = Said(value, field_spec.type, reading)
        if same and before is not None:  # the same value as before keeps its authority note
            label = label.model_copy(update={"authority": before.authority})
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


def _thread_revision(
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
        # the posts ticked beside it are its evidence (a post no longer in the thread is
        # refused); a result made elsewhere may name the export's original ids
        ticked = [typed.post_id(p) for p in answer.posts.get(slot, [])]
        # a conversation's rubric has no posts to tick
        thread = content.export.ordered_posts() if isinstance(content, ThreadContent) else []
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
