"""A bundle as a system under evaluation sees it: one EvalItem per fixture and task.

An item carries the input (document pages and text, the thread in the layout Mattermost's
Go eval package reads, as the bundle's thread files hold it, or a conversation's messages
as a chat API takes them), the doc type
and its field definitions (names and types, never values), and, for the assertions and the
judge, the truth: the label revision and its rubric statements. The item also pins where
it came from (bundle version, the sha256 of its bundle line), which every result carries.

A fixture with named tasks (a thread summarised, its action items listed) is one item per
task, in label order: `task` names it (a system picks its prompt from it), and the item's
rubrics, fields and labels are that task's alone. A fixture without is one item, task None.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from curator.model import (
    ConversationContent,
    DocumentContent,
    Fixture,
    LabelRevision,
    ThreadContent,
    task_label,
    task_truths,
)

if TYPE_CHECKING:
    from curator.bundle import BundledFixture

DEFAULT_TASK = "default"  # how filters and views name the task of a fixture without named ones


@dataclass(frozen=True)
class EvalItem:
    id: str
    kind: str  # "document", "thread" or "conversation"
    doc_type: str | None
    category: str
    adversarial: bool
    mutations: tuple[str, ...]
    parent: str | None
    fields: dict[str, str]  # field name -> type (person, date, money, ...): what to extract
    pages: tuple[str, ...]  # a document's page texts; () for a thread
    thread: dict[str, Any] | None  # a thread as Mattermost's ThreadExport; else None
    rubrics: tuple[str, ...]  # the rubric statements an answer is judged on
    bundle_version: str
    fixture_sha256: str  # sha256 of the fixture's bundle line: a relabel changes it
    fixture: Fixture = field(repr=False)
    content: DocumentContent | ThreadContent | ConversationContent = field(repr=False)
    labels: LabelRevision | None = field(repr=False)  # the task's truth (LabelRevision.for_task)
    run_number: int = 0  # the repetition, 0-based (CURATOR_EVALS / --repeat)
    # A conversation's messages ({"role", "content", ...} as written); () for other kinds.
    messages: tuple[dict[str, Any], ...] = ()
    task: str | None = None  # the named task asked of the input; None: the fixture's only one

    @property
    def name(self) -> str:
        """What its results are called: the fixture id, or `fixture/task`."""
        return task_label(self.id, self.task)

    @property
    def text(self) -> str:
        """A document's pages joined; a thread's or a conversation's messages in order."""
        if isinstance(self.content, DocumentContent):
            return "\n\n".join(self.pages)
        if isinstance(self.content, ConversationContent):
            return "\n".join(text for _, text in self.content.texts())
        return "\n".join(post.message for post in self.content.export.ordered_posts())

    def for_run(self, run_number: int) -> EvalItem:
        return replace(self, run_number=run_number)


@dataclass(frozen=True)
class EvalBundle:
    path: Path
    version: str
    content_sha256: str
    items: list[EvalItem]


def load_items(bundle: str | Path) -> EvalBundle:
    """Every fixture of the bundle (a directory or .tar.gz) as an EvalItem, in id order."""
    from curator.bundle import load
    from curator.bundle.manifest import read_manifest
    from curator.bundle.thread_file import go_export

    path = Path(bundle)
    manifest = read_manifest(path)
    line_sha256 = {entry.id: entry.line_sha256 for entry in manifest.fixtures}
    items = []
    for bundled, task, labels in _tasks(load(path)):
        fixture, content = bundled.fixture, bundled.content
        threaded = isinstance(content, ThreadContent)
        items.append(
            EvalItem(
                id=fixture.id,
                kind=fixture.kind.value,
                doc_type=fixture.doc_type,
                category=fixture.category,
                adversarial=fixture.adversarial,
                mutations=tuple(step.name for step in fixture.lineage.mutations)
                if fixture.lineage
                else (),
                parent=fixture.lineage.parent if fixture.lineage else None,
                fields={name: label.type.value for name, label in labels.fields.items()}
                if labels
                else {},
                pages=tuple(page.text for page in content.pages)
                if isinstance(content, DocumentContent)
                else (),
                thread=go_export(content, fixture) if threaded else None,  # type: ignore[arg-type]
                rubrics=tuple(rubric.text for rubric in labels.rubrics) if labels else (),
                bundle_version=manifest.bundle_version,
                fixture_sha256=line_sha256[fixture.id],
                fixture=fixture,
                content=content,
                labels=labels,
                messages=tuple(content.chat()) if isinstance(content, ConversationContent) else (),
                task=task,
            )
        )
    return EvalBundle(path, manifest.bundle_version, manifest.content_sha256, items)


def _tasks(
    bundled: Iterable[BundledFixture],
) -> Iterator[tuple[BundledFixture, str | None, LabelRevision | None]]:
    """Each fixture once per task, with that task's truth."""
    for fixture in bundled:
        for task, truth in task_truths(fixture.labels):
            yield fixture, task, truth


def select(
    items: Sequence[EvalItem],
    *,
    kinds: Sequence[str] = (),
    categories: Sequence[str] = (),
    mutations: Sequence[str] = (),
    doc_types: Sequence[str] = (),
    adversarial: bool | None = None,
    tasks: Sequence[str] = (),
) -> list[EvalItem]:
    """The items that match every filter given (an empty filter matches all; the task
    'default' is that of fixtures without named tasks)."""
    return [
        item
        for item in items
        if (not kinds or item.kind in kinds)
        and (not categories or item.category in categories)
        and (
            not mutations
            or set(item.mutations) & set(mutations)
            or ("none" in mutations and not item.mutations)
        )
        and (not doc_types or item.doc_type in doc_types)
        and (adversarial is None or item.adversarial == adversarial)
        and (not tasks or (item.task or DEFAULT_TASK) in tasks)
    ]
