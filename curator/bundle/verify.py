"""`curator bundle verify`: every file's sha256 against the manifest, and every schema.

Reports each tampered (hash differs), missing (listed, absent), extra (present, unlisted)
and schema-invalid file by name; works the same on a bundle directory or its archive.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from curator.bundle.formats.mattermost import FOLDER as MATTERMOST
from curator.bundle.formats.mattermost import RUBRICS, go_problems
from curator.bundle.manifest import content_digest, file_sha256
from curator.bundle.reader import FIXTURES, MANIFEST, BundleFiles, open_bundle
from curator.bundle.serialise import sha256
from curator.errors import first_problem
from curator.model import BundleLine, BundleManifest, ThreadExport

_RUBRIC_MAP = TypeAdapter(dict[str, list[str]])


@dataclass(frozen=True)
class Problem:
    path: str
    kind: str  # tampered | missing | extra | schema
    detail: str = ""

    def describe(self) -> str:
        return f"{self.kind}: {self.path}" + (f": {self.detail}" if self.detail else "")


@dataclass
class Verification:
    bundle: str
    version: str | None = None
    files_checked: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def exit_code(self) -> int:
        return 0 if self.ok else 1

    def as_json(self) -> dict:
        return {
            "bundle": self.bundle,
            "version": self.version,
            "ok": self.ok,
            "files_checked": self.files_checked,
            "problems": [asdict(p) for p in self.problems],
        }

    def render(self) -> str:
        if self.ok:
            return f"ok: bundle {self.version} ({self.files_checked} files verified)"
        return "\n".join(p.describe() for p in self.problems)


def verify_bundle(path: Path) -> Verification:
    files = open_bundle(path)
    result = Verification(bundle=files.label)
    if not files.has(MANIFEST):
        result.problems.append(Problem(MANIFEST, "missing"))
        return result
    try:
        manifest = BundleManifest.model_validate_json(files.read(MANIFEST))
    except ValidationError as error:
        result.problems.append(Problem(MANIFEST, "schema", first_problem(error)))
        return result
    result.version = manifest.bundle_version
    lines = [entry.line_sha256 for entry in manifest.fixtures]
    if content_digest(lines, manifest.formats) != manifest.content_sha256:
        result.problems.append(Problem(MANIFEST, "schema", "content_sha256 does not match its fixtures and formats"))
    present = set(files.names()) - {MANIFEST}
    for name in sorted(present | manifest.files.keys()):
        if name not in present:
            result.problems.append(Problem(name, "missing"))
            continue
        if name not in manifest.files:
            result.problems.append(Problem(name, "extra"))
            continue
        result.files_checked += 1
        if file_sha256(files.read(name)) != manifest.files[name]:
            result.problems.append(Problem(name, "tampered", "sha256 differs from the manifest"))
    result.problems.extend(_schema_problems(files, manifest, present))
    return result


def _schema_problems(files: BundleFiles, manifest: BundleManifest, present: set[str]) -> list[Problem]:
    problems = []
    if FIXTURES in present:
        problems.extend(_line_problems(files, manifest))
    for name in sorted(present):
        if not name.startswith(f"{MATTERMOST}/"):
            continue
        try:
            if name == RUBRICS:
                _RUBRIC_MAP.validate_json(files.read(name))
            else:
                ThreadExport.model_validate_json(files.read(name))
                problems += [Problem(name, "schema", p) for p in go_problems(json.loads(files.read(name)))]
        except ValidationError as error:
            problems.append(Problem(name, "schema", first_problem(error)))
    return problems


def _line_problems(files: BundleFiles, manifest: BundleManifest) -> list[Problem]:
    problems = []
    expected = {entry.id: entry.line_sha256 for entry in manifest.fixtures}
    seen = set()
    for number, raw in enumerate(files.read(FIXTURES).decode("utf-8", "replace").splitlines(), start=1):
        where = f"{FIXTURES}:{number}"
        try:
            line = BundleLine.model_validate_json(raw)
        except ValidationError as error:
            problems.append(Problem(where, "schema", first_problem(error)))
            seen.add(_id_of(raw))  # reported once, as a schema problem, not also as missing
            continue
        seen.add(line.id)
        if line.id not in expected:
            problems.append(Problem(where, "extra", f"fixture {line.id} is not in the manifest"))
        elif sha256(raw.encode("utf-8")) != expected[line.id]:
            problems.append(Problem(where, "tampered", f"fixture {line.id} differs from the manifest"))
    for fixture_id in sorted(expected.keys() - seen):
        problems.append(Problem(FIXTURES, "missing", f"fixture {fixture_id}"))
    return problems


def _id_of(raw: str) -> str | None:
    try:
        found = json.loads(raw).get("id")
    except (ValueError, AttributeError):
        return None
    return found if isinstance(found, str) else None
