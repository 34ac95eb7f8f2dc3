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

from curator.errors import CuratorError
from curator.lifecycle import after_agreement, after_conflict, after_settling
from curator.model import ConversationContent, DocumentContent
from curator.review import configs, state
from curator.review.agreement import Agreement
from curator.review.push import check_config, expected_config, project_title
from curator.review.revisions import conversation_revision, document_revision, thread_revision
from curator.review.suspects import decide_suspects, ticked_suspects

if TYPE_CHECKING:
    from curator.anonymise import UserInput
    from curator.review.client import Connection
    from curator.store import Store, Transaction

BATCH_SIZE = 100


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
    report.decisions = decide_suspects(store, report.ticked)
    return report


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
            said, revision = document_revision(
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
            said, revision = conversation_revision(
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
            said, revision = thread_revision(
                content, data, annotation, previous, typed, strict=fresh, where=where
            )
        answers.append(said)
        if not fresh:
            report.already_pulled += 1
            continue
        report.ticked += ticked_suspects(fixture_id, annotation)
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


def _login(annotation: dict[str, Any], users: dict[int, str]) -> str | None:
    """The Label Studio login that completed the annotation; None when none is named."""
    who = annotation.get("completed_by")
    if isinstance(who, dict):
        return who.get("email") or who.get("username") or f"user-{who.get('id')}"
    if who is None:
        return None
    return users.get(int(who), f"user-{who}")
