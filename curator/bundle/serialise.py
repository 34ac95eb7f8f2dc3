"""One fixture as the bundle writes it: its fixtures.jsonl line, manifest entry, thread file.

Everything here is a pure function of the fixture's three store files, which is what lets
`cache.py` key it by their hashes: an unchanged fixture is never parsed or dumped again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from curator.bundle import thread_file
from curator.model import BundleLine, BundleMetadata, Fixture, ThreadContent
from curator.store import FixtureRecord

# Top-level Fixture members a line carries itself; the rest go to `metadata`.
_LINE_MEMBERS = {"id", "kind", "doc_type", "category", "lineage", "known_bad"}


class Serialised:
    """One fixture ready to bundle.

    `entry` and `label_time` are small and always at hand (they decide selection and
    whether anything changed); the bulky texts (line, thread file, rubrics) are fetched on
    first use, so a rebuild that turns out to be a no-op never loads them.
    """

    def __init__(
        self,
        entry: dict[str, Any],
        label_time: str,
        texts: dict[str, Any] | None = None,
        fetch: Callable[[], dict[str, Any]] | None = None,
    ) -> None:
        self.entry = entry  # BundleEntry members except `files` (they depend on the formats)
        # When its truth was last set: the bundled label revision's time, else its creation
        # time. The newest of these is a bundle's built_at, so builds never read the clock.
        self.label_time = label_time
        self._texts = texts
        self._fetch = fetch

    @property
    def texts(self) -> dict[str, Any]:
        if self._texts is None:
            assert self._fetch is not None
            self._texts = self._fetch()
        return self._texts

    @property
    def line(self) -> str:
        """The fixtures.jsonl line, without its newline."""
        return self.texts["line"]

    @property
    def thread(self) -> str | None:
        """The Mattermost thread file's text, for threads."""
        return self.texts["thread"]

    @property
    def thread_name(self) -> str | None:
        """The thread file's name unless another fixture of the bundle shares it."""
        return self.texts["thread_name"]

    @property
    def thread_renamed(self) -> bool:
        """The thread file is named after a source name the vault rewrote."""
        return self.texts["thread_renamed"]

    @property
    def rubrics(self) -> list[str]:
        return self.texts["rubrics"]

    @property
    def tasks(self) -> dict[str, list[str]]:
        """Named task -> its rubric statements; empty for a fixture with only its default task."""
        return self.texts.get("tasks") or {}

    @property
    def id(self) -> str:
        return self.entry["id"]

    @property
    def status(self) -> str:
        return self.entry["status"]

    @property
    def line_sha256(self) -> str:
        return self.entry["line_sha256"]

    def meta(self) -> dict[str, Any]:
        return {"entry": self.entry, "label_time": self.label_time}


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def mutation_kinds(fixture: Fixture) -> list[str]:
    return [step.name for step in fixture.lineage.mutations] if fixture.lineage else []


def bundle_line(record: FixtureRecord) -> BundleLine:
    fixture = record.fixture
    return BundleLine(
        id=fixture.id,
        kind=fixture.kind,
        doc_type=fixture.doc_type,
        category=fixture.category,
        adversarial=fixture.adversarial,
        mutation_kinds=mutation_kinds(fixture),
        input=record.content,
        expected=record.labels,
        known_bad=fixture.known_bad,
        lineage=fixture.lineage,
        metadata=BundleMetadata.model_validate(
            fixture.model_dump(mode="json", exclude=_LINE_MEMBERS)
        ),
    )


def dump_line(line: BundleLine) -> str:
    """Compact JSON, UTF-8 unescaped (same bytes as json.dumps(..., separators=(",", ":")))."""
    return line.model_dump_json()


def serialise(record: FixtureRecord, source_sha256: dict[str, str]) -> Serialised:
    fixture = record.fixture
    line = dump_line(bundle_line(record))
    labels = record.labels
    entry = {
        "id": fixture.id,
        "kind": fixture.kind.value,
        "doc_type": fixture.doc_type,
        "category": fixture.category,
        "status": fixture.status.value,
        "adversarial": fixture.adversarial,
        "mutation_kinds": mutation_kinds(fixture),
        "label_rev": labels.rev if labels else None,
        "line_sha256": sha256(line.encode("utf-8")),
        "source_sha256": dict(source_sha256),
    }
    thread = record.content if isinstance(record.content, ThreadContent) else None
    texts: dict[str, Any] = {
        "line": line,
        "thread": thread_file.dump(thread_file.go_export(thread, fixture)) if thread else None,
        "thread_name": thread_file.base_name(fixture) if thread else None,
        "thread_renamed": bool(thread and fixture.provenance.source_name_anonymised),
        "rubrics": [r.text for r in labels.rubrics] if labels else [],
    }
    if labels and labels.tasks:
        texts["tasks"] = {
            name: [r.text for r in task.rubrics] for name, task in labels.tasks.items()
        }
    return Serialised(entry, labels.time if labels else fixture.created_at, texts=texts)
