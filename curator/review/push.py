"""`curator review push`: fixtures to Label Studio as tasks with their labels pre-annotated.

Everything is built and validated against the generated config before the first request.
One project per kind and doc type is created or reused; its tasks are listed once, so a
fixture already there is left alone when unchanged, updated when its labels or text
changed, and never imported twice. Pushed fixtures move to needs-review.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from curator.config import doc_type
from curator.errors import CuratorError
from curator.model import Fixture, Status
from curator.review import configs, state
from curator.review.tasks import MODEL_VERSION, build_task, pad_rubric_slots, project_key

if TYPE_CHECKING:
    from curator.review.client import Connection
    from curator.store import Store

PUSHABLE = (Status.draft, Status.needs_review)


@dataclass
class ProjectPush:
    key: str
    project_id: int
    title: str
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "project": self.key,
            "project_id": self.project_id,
            "title": self.title,
            "created": self.created,
            "updated": self.updated,
            "unchanged": self.unchanged,
        }


def project_title(store: Store, key: str) -> str:
    kind, _, name = key.partition("/")
    if kind == "document":
        what = f"{name} documents"
    elif kind == "conversation":
        what = f"{name} conversations" if name else "conversations"
    else:
        what = "threads"
    return f"curator {store.config.store.name}: {what}"


def expected_config(store: Store, key: str, rubric_slots: int = configs.MIN_RUBRIC_SLOTS) -> str:
    kind, _, name = key.partition("/")
    if kind == "document":
        return configs.document_config(name, doc_type(store.config, name))
    if kind == "conversation":
        spec = doc_type(store.config, name) if name else None
        return configs.conversation_config(name or None, spec, rubric_slots)
    return configs.thread_config(rubric_slots)


def instructions(store: Store, key: str) -> str:
    """The project's labelling instructions, from the doc type's field descriptions."""
    kind, _, name = key.partition("/")
    if kind == "document":
        return configs.document_instructions(name, doc_type(store.config, name))
    if kind == "conversation":
        spec = doc_type(store.config, name) if name else None
        return configs.conversation_instructions(name or None, spec)
    return configs.thread_instructions()


def choose(store: Store, ids: Sequence[str], status: str | None) -> list[Fixture]:
    """The fixtures to push: the given ids, else those in `status`, else draft and needs-review."""
    if ids:
        return [store.load_fixture(i) for i in dict.fromkeys(ids)]
    if status is not None:
        return store.select(status=Status(status))
    return [f for f in store.select() if f.status in PUSHABLE]


def prepare(store: Store, fixtures: list[Fixture]) -> dict[str, dict[str, dict[str, Any]]]:
    """project key -> fixture id -> task, each prediction checked against the config."""
    from label_studio_sdk.label_interface import LabelInterface

    from curator.anonymise import find_suspects

    doubts: dict[str, list[Any]] = {}
    for suspect in find_suspects(store, ids=[f.id for f in fixtures]):
        doubts.setdefault(suspect.fixture, []).append(suspect)
    grouped: dict[str, dict[str, dict[str, Any]]] = {}
    for fixture in fixtures:
        if fixture.status is Status.retired:
            raise CuratorError(f"{fixture.id}: retired fixtures are not reviewed")
        record = store.load(fixture.id)
        grouped.setdefault(project_key(fixture), {})[fixture.id] = build_task(
            fixture, record.content, record.labels, doubts.get(fixture.id, [])
        )
    for key, tasks in grouped.items():
        slots = slots_for(tasks)
        interface = LabelInterface(expected_config(store, key, slots))
        for fixture_id, task in tasks.items():
            if configs.has_rubric_slots(key):
                pad_rubric_slots(task["data"], slots, posts=key == "thread")
            errors = interface.validate_prediction(task["predictions"][0], return_errors=True)
            if errors:
                raise CuratorError(
                    f"{fixture_id}: its labels do not fit the labeling config: {errors[0]}"
                )
            missing = [
                o.value_name
                for o in interface.objects
                if o.value_is_variable and task["data"].get(o.value_name) is None
            ]
            if missing:
                raise CuratorError(f"{fixture_id}: task data lacks {', '.join(missing)}")
    return grouped


def slots_for(tasks: dict[str, dict[str, Any]]) -> int:
    counts = [sum(1 for k in t["data"] if k.startswith("rubric_")) for t in tasks.values()]
    return configs.rubric_slots_needed(counts)


def _lacks_slots(data: dict[str, Any], slots: int) -> bool:
    return any(f"rubric_{slot}" not in data for slot in range(1, slots + 1))


def ensure_project(
    conn: Connection, store: Store, key: str, known_id: int | None, rubric_slots: int
) -> Any:
    """The project for `key`: reused (its config checked) or created."""
    title = project_title(store, key)
    wanted = expected_config(store, key, rubric_slots)
    project = conn.project(known_id) if known_id else None
    if project is None or project.title != title:
        project = conn.find_project(title)
    if project is None:
        description = (
            "Made by `curator review push`; curator holds the labels. Do not rename controls."
        )
        return conn.create_project(
            title, wanted, description, MODEL_VERSION, instructions(store, key)
        )
    check_config(project, key, store)
    if (project.expert_instruction or "") != instructions(store, key):
        # curator.toml's descriptions changed since: labellers read the current ones
        conn.set_instructions(project.id, instructions(store, key))
    actual = project.label_config or ""
    slots = max(configs.rubric_slots(actual), rubric_slots)
    # Only ever grows (more rubric slots; the suspects' controls for a project made before
    # them): every earlier annotation stays valid.
    if any(name not in configs.controls(actual) for name in configs.SUSPECT_CONTROLS) or (
        configs.has_rubric_slots(key) and configs.rubric_slots(actual) < rubric_slots
    ):
        conn.set_config(project.id, expected_config(store, key, slots))
        project = conn.project(project.id)
    return project


def check_config(project: Any, key: str, store: Store) -> None:
    """Refuse a project whose config was edited so that curator's results no longer fit."""
    actual = project.label_config or ""
    # A project with rubrics may have fewer slots than this push needs; it grows later.
    slots = configs.rubric_slots(actual) if configs.has_rubric_slots(key) else 0
    wanted = expected_config(store, key, slots or configs.MIN_RUBRIC_SLOTS)
    # a project made before the suspects' controls lacks some: push adds them
    problems = [
        p
        for p in configs.config_problems(actual, wanted)
        if not any(repr(name) in p for name in configs.SUSPECT_CONTROLS)
    ]
    if problems:
        raise CuratorError(
            f"Label Studio project {project.id} ({project.title!r}) has a labeling config that no "
            f"longer matches curator's ({problems[0]}); restore it in the project's settings"
        )


def push(
    store: Store, conn: Connection, ids: Sequence[str] = (), status: str | None = None
) -> list[ProjectPush]:
    """Push fixtures; the store changes (status needs-review) only after the server took them."""
    fixtures = choose(store, ids, status)
    if not fixtures:
        return []
    grouped = prepare(store, fixtures)
    local = state.load(store, conn.url)
    results = []
    for key in sorted(grouped):
        tasks = grouped[key]
        project = ensure_project(conn, store, key, local["projects"].get(key), slots_for(tasks))
        local["projects"][key] = project.id
        if configs.has_rubric_slots(key):
            # The project may show more rubric slots than this push needs: each needs data.
            # Padding is left out of the digest, so it never makes a task look changed.
            for task in tasks.values():
                pad_rubric_slots(
                    task["data"], configs.rubric_slots(project.label_config), posts=key == "thread"
                )
        outcome = ProjectPush(key, project.id, project.title)
        on_server: dict[
            str | None, tuple[int, str | None]
        ] = {}  # tasks made by hand have no fixture id
        for task_id, data in conn.tasks(project.id):
            on_server.setdefault(data.get("fixture_id"), (task_id, data.get("curator_digest")))
            if configs.has_rubric_slots(key) and _lacks_slots(
                data, configs.rubric_slots(project.label_config)
            ):
                # The config grew since this task was pushed: give it the new (empty) slots.
                pad_rubric_slots(
                    data, configs.rubric_slots(project.label_config), posts=key == "thread"
                )
                conn.update_data(task_id, data)
        new = []
        for fixture_id, task in tasks.items():
            if fixture_id not in on_server:
                new.append(task)
                outcome.created.append(fixture_id)
                continue
            task_id, pushed_digest = on_server[fixture_id]
            if pushed_digest == task["data"]["curator_digest"]:
                outcome.unchanged.append(fixture_id)
            else:
                conn.update_task(task_id, task["data"], task["predictions"][0])
                outcome.updated.append(fixture_id)
        if new:
            conn.import_tasks(project.id, new)
        for task_id, data in conn.tasks(project.id) if new else []:
            on_server.setdefault(data.get("fixture_id"), (task_id, data.get("curator_digest")))
        for fixture_id, task in tasks.items():
            local["tasks"][fixture_id] = {
                "project": project.id,
                "task": on_server[fixture_id][0],
                "label_rev": task["data"]["label_rev"],
            }
        results.append(outcome)
    with store.transaction() as txn:
        for fixture in fixtures:
            current = txn.fixture(fixture.id)
            if current.status is not Status.needs_review:
                txn.save_fixture(current.model_copy(update={"status": Status.needs_review}))
    state.save(store, conn.url, local)
    return results
