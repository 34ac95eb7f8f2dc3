"""One fixture as the bundle writes it: its fixtures.jsonl line, manifest entry, thread file.

Everything here is a pure function of the fixture's three store files, which is what lets
`cache.py` key it by their hashes: an unchanged fixture is never parsed or dumped again.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from curator.model import BundleLine, BundleMetadata, Fixture, ThreadContent
from curator.store import CONTENT_FILE, FIXTURE_FILE, LABELS_FILE, FixtureRecord

SOURCE_FILES = (FIXTURE_FILE, CONTENT_FILE, LABELS_FILE)
# Top-level Fixture members a line carries itself; the rest go to `metadata`.
_LINE_MEMBERS = {"id", "kind", "doc_type", "category", "lineage", "known_bad"}


@dataclass(frozen=True)
class Serialised:
    line: str  # the fixtures.jsonl line, without its newline
    entry: dict[str, Any]  # BundleEntry members except `files` (they depend on the formats)
    thread: str | None = None  # mattermost/<id>.json text, for threads
    rubrics: list[str] = field(default_factory=list)
    # When its truth was last set: the bundled label revision's time, else its creation time.
    # The newest of these is a bundle's built_at, so rebuilds never read the clock.
    label_time: str = ""

    @property
    def id(self) -> str:
        return self.entry["id"]

    @property
    def status(self) -> str:
        return self.entry["status"]

    def as_cache(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "entry": self.entry,
            "thread": self.thread,
            "rubrics": self.rubrics,
            "label_time": self.label_time,
        }

    @classmethod
    def from_cache(cls, data: dict[str, Any]) -> Serialised:
        return cls(**data)


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


def dump_thread(content: ThreadContent) -> str:
    """The export exactly as stored (only the members it had): what the Go loader reads."""
    return content.export.model_dump_json(indent=2, exclude_unset=True) + "\n"


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
    thread = dump_thread(record.content) if isinstance(record.content, ThreadContent) else None
    return Serialised(
        line=line,
        entry=entry,
        thread=thread,
        rubrics=[r.text for r in labels.rubrics] if labels else [],
        label_time=labels.time if labels else fixture.created_at,
    )
