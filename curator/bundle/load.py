"""`curator.bundle.load(path)`: a bundle's fixtures as curator's own model objects.

Eval suites and `curator gate` read bundles through this, never by parsing files
themselves, so the line format can grow without breaking them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from curator.bundle.reader import FIXTURES, BundleFiles, open_bundle
from curator.errors import CuratorError, first_problem
from curator.model import BundleLine, Content, Fixture, LabelRevision


@dataclass(frozen=True)
class BundledFixture:
    """One bundled fixture: its metadata, content and the label revision that is its truth."""

    fixture: Fixture
    content: Content
    labels: LabelRevision | None
    line: BundleLine

    @property
    def id(self) -> str:
        return self.fixture.id


def load(path: str | Path) -> Iterator[BundledFixture]:
    """Yield the fixtures of the bundle at `path` (a directory or a .tar.gz), in id order.

    Example:
        for item in curator.bundle.load("bundles/1.0.0"):
            print(item.fixture.id, item.labels.fields if item.labels else None)
    """
    files = open_bundle(Path(path))
    for line in read_lines(files):
        yield from_line(line)


def read_lines(files: BundleFiles) -> Iterator[BundleLine]:
    if not files.has(FIXTURES):
        raise CuratorError(f"{files.label}: no {FIXTURES} (not a bundle?)")
    text = files.read(FIXTURES).decode("utf-8")
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            yield BundleLine.model_validate_json(raw)
        except ValidationError as error:
            raise CuratorError(f"{files.label}/{FIXTURES}:{number}: {first_problem(error)}") from None


def from_line(line: BundleLine) -> BundledFixture:
    fixture = Fixture.model_validate(
        {
            **line.metadata.model_dump(mode="json"),
            "id": line.id,
            "kind": line.kind,
            "doc_type": line.doc_type,
            "category": line.category,
            "lineage": line.lineage.model_dump(mode="json") if line.lineage else None,
            "known_bad": [k.model_dump(mode="json") for k in line.known_bad],
        }
    )
    return BundledFixture(fixture=fixture, content=line.input, labels=line.expected, line=line)
