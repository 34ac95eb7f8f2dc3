"""`curator bundle verify`: every file's sha256 against the manifest, and every schema.

Reports each tampered (hash differs), missing (listed, or a listed format's, and absent),
extra (present and unlisted, or of a format the manifest lacks) and schema-invalid file by
name; works the same on a bundle directory or its archive. What it proves: no file was
changed, added or removed by accident or by someone who left the manifest alone. What it
cannot: a manifest rewritten to match changed files; `curator bundle sign` and
`verify --key` cover that (see curator.bundle.signature).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from curator.bundle.formats.mattermost import FOLDER as MATTERMOST
from curator.bundle.formats.mattermost import RUBRICS, RubricMap
from curator.bundle.layout import layout_problems
from curator.bundle.manifest import content_digest
from curator.bundle.reader import FIXTURES, MANIFEST, BundleFiles, open_bundle
from curator.bundle.serialise import sha256
from curator.bundle.thread_file import go_problems
from curator.errors import first_problem
from curator.json_input import JsonInputError, lines, parse, parse_model
from curator.limits import DEFAULT
from curator.model import BundleLine, BundleManifest, LimitSettings, ThreadExport

_RUBRIC_MAP: TypeAdapter[RubricMap] = TypeAdapter(RubricMap)


@dataclass(frozen=True)
class Problem:
    path: str
    kind: str  # tampered | missing | extra | schema | signature
    detail: str = ""

    def describe(self) -> str:
        return f"{self.kind}: {self.path}" + (f": {self.detail}" if self.detail else "")


@dataclass
class Verification:
    bundle: str
    version: str | None = None
    files_checked: int = 0
    problems: list[Problem] = field(default_factory=list)
    signature_checked: bool = False  # verify --key: the signature passed unless a problem says

    def add_signature_problem(self, signature: Path, detail: str) -> None:
        self.problems.append(Problem(signature.name, "signature", detail))

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
            "signature_checked": self.signature_checked,
            "problems": [asdict(p) for p in self.problems],
        }

    def render(self) -> str:
        if self.ok:
            signed = ", signature verified" if self.signature_checked else ""
            return f"ok: bundle {self.version} ({self.files_checked} files verified{signed})"
        return "\n".join(p.describe() for p in self.problems)


def verify_bundle(path: Path, limits: LimitSettings = DEFAULT) -> Verification:
    """Every problem of the bundle at `path`. A bundle that is not safe to read at all (links,
    devices, `..` paths, a decompression bomb) raises CuratorError instead (exit 2)."""
    files = open_bundle(path, limits)
    result = Verification(bundle=files.label)
    if not files.has(MANIFEST):
        result.problems.append(Problem(MANIFEST, "missing"))
        return result
    try:
        manifest = parse_model(BundleManifest, files.read(MANIFEST), MANIFEST, limits)
    except JsonInputError as error:
        result.problems.append(Problem(MANIFEST, "schema", error.reason))
        return result
    result.version = manifest.bundle_version
    lines = [entry.line_sha256 for entry in manifest.fixtures]
    if content_digest(lines, manifest.formats) != manifest.content_sha256:
        result.problems.append(
            Problem(MANIFEST, "schema", "content_sha256 does not match its fixtures and formats")
        )
    present = set(files.names()) - {MANIFEST}
    listed = manifest.files.keys()
    for name, kind, why in layout_problems(manifest, present | listed | {MANIFEST}):
        # What the manifest does not list is reported below, as missing or extra, once.
        if name in listed or kind == "missing" or name == MATTERMOST:
            result.problems.append(Problem(name, kind, why))
    for name in sorted(present | manifest.files.keys()):
        if name not in present:
            result.problems.append(Problem(name, "missing"))
            continue
        if name not in manifest.files:
            result.problems.append(Problem(name, "extra"))
            continue
        result.files_checked += 1
        if files.sha256(name) != manifest.files[name]:
            result.problems.append(Problem(name, "tampered", "sha256 differs from the manifest"))
    result.problems.extend(_schema_problems(files, manifest, present))
    return result


def _schema_problems(
    files: BundleFiles, manifest: BundleManifest, present: set[str]
) -> list[Problem]:
    problems = []
    if FIXTURES in present:
        problems.extend(_line_problems(files, manifest))
    for name in sorted(present):
        if not name.startswith(f"{MATTERMOST}/"):
            continue
        try:
            data = parse(files.read(name), name, files.limits)
            if name == RUBRICS:
                _RUBRIC_MAP.validate_python(data)
            else:
                ThreadExport.model_validate(data)
                problems += [Problem(name, "schema", p) for p in go_problems(data)]
        except JsonInputError as error:
            problems.append(Problem(name, "schema", error.reason))
        except ValidationError as error:
            problems.append(Problem(name, "schema", first_problem(error)))
    return problems


def _line_problems(files: BundleFiles, manifest: BundleManifest) -> list[Problem]:
    problems = []
    expected = {entry.id: entry.line_sha256 for entry in manifest.fixtures}
    seen = set()
    for number, raw in lines(files.read(FIXTURES)):
        where = f"{FIXTURES}:{number}"
        try:
            line = parse_model(BundleLine, raw, where, files.limits)
        except JsonInputError as error:
            problems.append(Problem(where, "schema", error.reason))
            seen.add(
                _id_of(raw, files.limits)
            )  # reported once, as a schema problem, not also as missing
            continue
        seen.add(line.id)
        if line.id not in expected:
            problems.append(Problem(where, "extra", f"fixture {line.id} is not in the manifest"))
        elif sha256(raw) != expected[line.id]:
            problems.append(
                Problem(where, "tampered", f"fixture {line.id} differs from the manifest")
            )
    for fixture_id in sorted(expected.keys() - seen):
        problems.append(Problem(FIXTURES, "missing", f"fixture {fixture_id}"))
    return problems


def _id_of(raw: bytes, limits: LimitSettings) -> str | None:
    try:
        data = parse(raw, FIXTURES, limits)
    except JsonInputError:
        return None
    found = data.get("id") if isinstance(data, dict) else None
    return found if isinstance(found, str) else None
