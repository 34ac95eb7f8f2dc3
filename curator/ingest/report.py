"""What an import reports: the fixtures it created (a summary each), the sources it skipped
and, with keep_going, the sources it left out (`Outcomes` runs each source's steps so).

A workspace export of a million posts creates some 200,000 fixtures: their summaries are
held in a `Spill` (on disk past the first thousand), and the text and JSON forms are
written a line at a time, so the report costs the import no memory that grows with it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from curator.errors import CuratorError
from curator.model import (
    Content,
    ConversationContent,
    DocumentContent,
    Fixture,
    LabelRevision,
)
from curator.spill import Spill


@dataclass
class ImportReport:
    created: Spill = field(default_factory=Spill)
    skipped: list[dict[str, Any]] = field(default_factory=list)
    # With keep_going: each source left out, {"source": file name, "reason": the error line}.
    failed: list[dict[str, str]] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        return 2 if self.failed else 0

    def as_json(self) -> dict[str, Any]:
        return {"created": self.created, "skipped": self.skipped, "failed": self.failed}

    def render(self) -> Iterator[str]:
        for item in self.created:
            what = item["doc_type"] or item["kind"]
            extra = (
                f", suggested {', '.join(item['suggested_fields'])}"
                if item["suggested_fields"]
                else ""
            )
            if item["stored_source_name"] != item["source"]:  # the name held a name
                extra += f", stored as {item['stored_source_name']}"
            yield f"created {item['id']} ({what} from {item['source']}{extra})"
        for item in self.skipped:
            yield f"skipped {item['source']}: already imported as {item['already_imported_as']}"
        summary = (
            f"{len(self.created)} fixture(s) created, "
            f"{len(self.skipped)} source(s) already imported"
        )
        yield summary + (f", {len(self.failed)} failed" if self.failed else "")

    def warnings(self) -> Iterator[str]:
        for item in self.created:
            for message in item["warnings"]:
                yield f"{item['id']}: {message}"

    def errors(self) -> list[str]:
        """One line per source left out, for stderr."""
        return [item["reason"] for item in self.failed]


def summary(
    source_name: str, fixture: Fixture, content: Content, revisions: list[LabelRevision]
) -> dict[str, Any]:
    """What the report says of one created fixture."""
    summary: dict[str, Any] = {
        "id": fixture.id,
        "source": source_name,
        "stored_source_name": fixture.provenance.source_name,
        "kind": fixture.kind.value,
        "doc_type": fixture.doc_type,
        "category": fixture.category,
        "warnings": fixture.warnings,
        "suggested_fields": sorted(revisions[0].fields) if revisions else [],
        "rubrics": [r.text for r in revisions[-1].rubrics] if revisions else [],
    }
    if revisions and revisions[-1].tasks:
        summary["tasks"] = {
            name: [r.text for r in task.rubrics] for name, task in revisions[-1].tasks.items()
        }
    # what an importer wants to see differs per kind: pages with their origin, or post counts
    if isinstance(content, DocumentContent):
        summary["pages"] = [
            {
                "number": p.number,
                "origin": p.origin,
                "ocr_confidence": p.ocr_confidence,
                "language": p.language,
            }
            for p in content.pages
        ]
    elif isinstance(content, ConversationContent):
        summary["messages"] = len(content.messages)
    else:
        summary["posts"] = len(content.export.posts)
        summary["orphan_post_ids"] = content.orphan_post_ids
    return summary


T = TypeVar("T")


class Outcomes:
    """Runs a step per source: its failure stops the import, or with keep_going is reported
    in the report and the source is left out."""

    def __init__(self, report: ImportReport, keep_going: bool) -> None:
        self.report = report
        self.keep_going = keep_going

    def attempt(self, name: str, step: Callable[[], T]) -> T | None:
        try:
            return step()
        except CuratorError as error:
            if not self.keep_going:
                raise
            self.failed(name, error)
            return None

    def failed(self, name: str, error: CuratorError) -> None:
        self.report.failed.append({"source": name, "reason": str(error)})
