"""`curator.bundle.load(path)`: a bundle's fixtures as curator's own model objects.

Eval suites and `curator gate` read bundles through this, never by parsing files
themselves, so the line format can grow without breaking them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from curator.bundle.layout import layout_problems
from curator.bundle.manifest import content_digest, parse_manifest
from curator.bundle.reader import FIXTURES, MANIFEST, BundleFiles, open_bundle
from curator.bundle.serialise import sha256
from curator.errors import CuratorError
from curator.json_input import lines, parse_model
from curator.limits import DEFAULT
from curator.model import BundleLine, Content, Fixture, LabelRevision, LimitSettings


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


def load(path: str | Path, *, limits: LimitSettings = DEFAULT) -> Iterator[BundledFixture]:
    """Yield the fixtures of the bundle at `path` (a directory or a .tar.gz), in id order.

    Nothing is yielded until fixtures.jsonl has been checked against the manifest (its
    sha256, every line's sha256, the content digest): a tampered bundle is one clear error.

    Example:
        for item in curator.bundle.load("bundles/1.0.0"):
            print(item.fixture.id, item.labels.fields if item.labels else None)
    """
    files = open_bundle(Path(path), limits)
    for line in read_lines(files):
        yield from_line(line)


def read_lines(files: BundleFiles) -> Iterator[BundleLine]:
    """The fixture lines, once every hash the manifest holds for them matches."""
    if not files.has(FIXTURES):
        raise CuratorError(f"{files.label}: no {FIXTURES} (not a bundle?)")
    checked = checked_lines(files)
    for number, raw in checked:
        yield parse_model(BundleLine, raw, f"{files.label}/{FIXTURES}:{number}", files.limits)


def checked_lines(files: BundleFiles) -> list[tuple[int, bytes]]:
    """(line number, bytes) of fixtures.jsonl, refused unless it is what the manifest says."""
    manifest = parse_manifest(files)
    present = set(files.names())
    unlisted = present - manifest.files.keys() - {MANIFEST}
    for name, kind, why in layout_problems(manifest, present | manifest.files.keys()):
        raise CuratorError(f"{files.label}: {kind} {name} ({why}); run `curator bundle verify`")
    if unlisted or manifest.files.keys() - present:
        name = min(unlisted or manifest.files.keys() - present)
        raise CuratorError(
            f"{files.label}: {name} is {'not in the manifest' if unlisted else 'missing'}; "
            "run `curator bundle verify`"
        )
    tampered = (
        f"{files.label}: {FIXTURES} does not match the manifest (tampered?); run "
        "`curator bundle verify`"
    )
    data = files.read(FIXTURES)
    if manifest.files.get(FIXTURES) != files.sha256(FIXTURES):
        raise CuratorError(tampered)
    found = list(lines(data))
    line_hashes = [sha256(raw) for _, raw in found]
    if line_hashes != [entry.line_sha256 for entry in manifest.fixtures]:
        raise CuratorError(tampered)
    if content_digest(line_hashes, manifest.formats) != manifest.content_sha256:
        raise CuratorError(
            f"{files.label}: the manifest's content_sha256 does not match its fixtures (tampered?)"
        )
    return found


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
