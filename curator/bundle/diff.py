"""What changed between two bundles: membership, labels field by field, content, metadata.

Works on the parsed fixtures.jsonl lines of each side, so it serves `curator bundle diff`
(two built bundles) and CHANGELOG.md (the previous bundle against the one being built).
Value changes that normalise to the same typed value ("2024-01-15" -> "January 15, 2024")
are flagged `equivalent`, so reviewers see a reformat is not a relabel.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from curator.bundle.load import checked_lines
from curator.bundle.manifest import parse_manifest
from curator.bundle.reader import FIXTURES, BundleFiles, open_bundle
from curator.errors import CuratorError
from curator.json_input import parse
from curator.limits import DEFAULT
from curator.model import LimitSettings
from curator.normalise import same_value
from curator.reading import Reading, reading_of

# Fixture metadata whose change a diff reports (the rest is provenance bookkeeping).
_META_KEYS = ("kind", "doc_type", "category", "adversarial", "mutation_kinds")
_META_FROM_METADATA = ("status", "tags", "title")


@dataclass(frozen=True)
class FieldChange:
    field: str
    change: str  # added | removed | changed
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    attributes: list[str]  # which parts of the label changed: value, variants, evidence, ...
    equivalent: bool = False  # values differ in writing only

    def describe(self) -> str:
        if self.change == "added":
            return f"{self.field}: added {_shown(self.after)}"
        if self.change == "removed":
            return f"{self.field}: removed (was {_shown(self.before)})"
        if "value" in self.attributes or "expected_absent" in self.attributes:
            note = " (same value, rewritten)" if self.equivalent else ""
            return f"{self.field}: {_shown(self.before)} -> {_shown(self.after)}{note}"
        return f"{self.field}: {', '.join(self.attributes)} changed"


@dataclass(frozen=True)
class Relabel:
    id: str
    rev_before: int | None
    rev_after: int | None
    fields: list[FieldChange] = field(default_factory=list)
    rubrics_added: list[str] = field(default_factory=list)
    rubrics_removed: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class BundleDiff:
    before: str
    after: str
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    relabelled: list[Relabel] = field(default_factory=list)
    content_changed: list[str] = field(default_factory=list)
    metadata_changed: dict[str, dict[str, list[Any]]] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not (
            self.added
            or self.removed
            or self.relabelled
            or self.content_changed
            or self.metadata_changed
        )

    exit_code = 0

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    def render(self) -> str:
        """Human text: one section per kind of change, a line per fixture or field."""
        if self.empty:
            return f"no differences between {self.before} and {self.after}"
        lines = [f"{self.before} -> {self.after}"]
        lines += [f"+ {fixture_id}" for fixture_id in self.added]
        lines += [f"- {fixture_id}" for fixture_id in self.removed]
        for relabel in self.relabelled:
            lines.append(f"~ {relabel.id}: labels rev {relabel.rev_before} -> {relabel.rev_after}")
            lines += [f"    {change.describe()}" for change in relabel.fields]
            lines += [f"    rubric added: {text}" for text in relabel.rubrics_added]
            lines += [f"    rubric removed: {text}" for text in relabel.rubrics_removed]
        lines += [f"~ {fixture_id}: content changed" for fixture_id in self.content_changed]
        for fixture_id, changes in self.metadata_changed.items():
            for key, (old, new) in changes.items():
                lines.append(f"~ {fixture_id}: {key} {old!r} -> {new!r}")
        return "\n".join(lines)


def lines_by_id(lines: Iterable[str], label: str) -> dict[str, dict[str, Any]]:
    found = {}
    for raw in lines:
        line = parse(raw, f"{label}/{FIXTURES}")
        if not isinstance(line, dict) or not isinstance(line.get("id"), str):
            raise CuratorError(f"{label}/{FIXTURES}: a line is not a bundle fixture line")
        found[line["id"]] = line
    return found


def raw_lines(files: BundleFiles) -> list[str]:
    """The fixture lines' texts, once their hashes match the manifest."""
    if not files.has(FIXTURES):
        raise CuratorError(f"{files.label}: no {FIXTURES} (not a bundle?)")
    try:
        return [raw.decode("utf-8") for _, raw in checked_lines(files)]
    except UnicodeDecodeError:
        raise CuratorError(f"{files.label}/{FIXTURES}: not UTF-8 text") from None


def diff_bundles(before: Path, after: Path, limits: LimitSettings = DEFAULT) -> BundleDiff:
    a, b = open_bundle(before, limits), open_bundle(after, limits)
    return diff_raw(raw_lines(a), raw_lines(b), before_name=_name(a), after_name=_name(b))


def diff_raw(
    before: list[str], after: list[str], *, before_name: str, after_name: str
) -> BundleDiff:
    """Like diff_lines, from line texts: a line found on both sides is an unchanged fixture,
    so only the lines that differ are parsed (a release usually changes a few of thousands)."""
    same = set(before) & set(after)
    return diff_lines(
        lines_by_id((line for line in before if line not in same), before_name),
        lines_by_id((line for line in after if line not in same), after_name),
        before_name=before_name,
        after_name=after_name,
    )


def _name(files: BundleFiles) -> str:
    """The bundle's version from its manifest, else its file name: what a reader calls it."""
    try:
        return parse_manifest(files).bundle_version
    except CuratorError:
        return Path(files.label).name


def diff_lines(
    before: dict[str, dict[str, Any]],
    after: dict[str, dict[str, Any]],
    *,
    before_name: str,
    after_name: str,
) -> BundleDiff:
    """Differences from the `before` lines to the `after` lines (each keyed by fixture id)."""
    result = BundleDiff(before=before_name, after=after_name)
    result.added.extend(sorted(after.keys() - before.keys()))
    result.removed.extend(sorted(before.keys() - after.keys()))
    for fixture_id in sorted(before.keys() & after.keys()):
        old, new = before[fixture_id], after[fixture_id]
        if old == new:
            continue
        relabel = _relabel(fixture_id, old.get("expected"), new.get("expected"))
        if relabel is not None:
            result.relabelled.append(relabel)
        if old.get("input") != new.get("input"):
            result.content_changed.append(fixture_id)
        meta = _metadata_changes(old, new)
        if meta:
            result.metadata_changed[fixture_id] = meta
    return result


def _relabel(fixture_id: str, old: dict | None, new: dict | None) -> Relabel | None:
    old, new = old or {}, new or {}
    old_fields, new_fields = old.get("fields", {}), new.get("fields", {})
    reading = reading_of("", new.get("locale"))  # the locale the new truth is read in
    changes = []
    for name in sorted(old_fields.keys() | new_fields.keys()):
        change = _field_change(name, old_fields.get(name), new_fields.get(name), reading)
        if change is not None:
            changes.append(change)
    old_rubrics, new_rubrics = _rubric_texts(old), _rubric_texts(new)
    added = [t for t in new_rubrics if t not in old_rubrics]
    removed = [t for t in old_rubrics if t not in new_rubrics]
    if not (changes or added or removed):
        return None
    return Relabel(fixture_id, old.get("rev"), new.get("rev"), changes, added, removed)


def _rubric_texts(expected: dict) -> list[str]:
    """Its rubric statements, those of a named task as `task: statement`."""
    return [r["text"] for r in expected.get("rubrics", [])] + [
        f"{name}: {r['text']}"
        for name, task in expected.get("tasks", {}).items()
        for r in task.get("rubrics", [])
    ]


def _field_change(
    name: str, old: dict | None, new: dict | None, reading: Reading
) -> FieldChange | None:
    if old == new:
        return None
    if old is None:
        return FieldChange(name, "added", None, new, ["value"])
    if new is None:
        return FieldChange(name, "removed", old, None, ["value"])
    attributes = sorted(key for key in old.keys() | new.keys() if old.get(key) != new.get(key))
    equivalent = False
    if "value" in attributes and old.get("value") is not None and new.get("value") is not None:
        equivalent = same_value(old["value"], new["value"], new.get("type", "text"), reading)
    return FieldChange(name, "changed", old, new, attributes, equivalent)


def _metadata_changes(old: dict, new: dict) -> dict[str, list[Any]]:
    changes: dict[str, list[Any]] = {}
    for key in _META_KEYS:
        if old.get(key) != new.get(key):
            changes[key] = [old.get(key), new.get(key)]
    old_meta, new_meta = old.get("metadata") or {}, new.get("metadata") or {}
    for key in _META_FROM_METADATA:
        if old_meta.get(key) != new_meta.get(key):
            changes[key] = [old_meta.get(key), new_meta.get(key)]
    return changes


def _shown(label: dict | None) -> str:
    if label is None:
        return "nothing"
    if label.get("expected_absent"):
        return "(expected absent)"
    return repr(label.get("value"))
