"""CHANGELOG.md of a bundle: what changed against the previous version, and why fixtures
joined or left it (`membership`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from curator.bundle.diff import BundleDiff
from curator.model import Status

if TYPE_CHECKING:
    from curator.model import BundleManifest, Fixture
    from curator.store import Store


@dataclass(frozen=True)
class Move:
    """A fixture that joined or left the bundle since the previous version, and why."""

    id: str
    why: str
    was_active: bool = False  # a leaver that the previous version bundled as active

    @property
    def unplanned(self) -> bool:
        """An active fixture left without being retired: what `bundle build --strict` refuses."""
        return self.was_active and not self.why.startswith("retired")

    def as_dict(self) -> dict[str, str]:
        return {"id": self.id, "why": self.why}


def membership(
    store: Store, previous: BundleManifest | None, ids: Sequence[str], statuses: Sequence[Status]
) -> tuple[list[Move], list[Move]]:
    """(joined, left): the fixtures in this build and not the previous one, and the reverse."""
    if previous is None:
        return [], []
    before = {entry.id: entry for entry in previous.fixtures}
    now = set(ids)
    joined = [Move(i, _why_here(store.load_fixture(i))) for i in sorted(now - set(before))]
    left = [
        Move(i, _why_gone(store, i, statuses), before[i].status is Status.active)
        for i in sorted(set(before) - now)
    ]
    return joined, left


def _why_here(fixture: Fixture) -> str:
    what = (
        f"a {'+'.join(m.name for m in fixture.lineage.mutations)} variant of "
        f"{fixture.lineage.parent}"
        if fixture.lineage
        else f"a {fixture.category} {fixture.kind.value}"
    )
    return f"now {fixture.status.value}: {what}"


def _why_gone(store: Store, fixture_id: str, statuses: Sequence[Status]) -> str:
    if not store.exists(fixture_id):
        return "no longer in the store"
    fixture = store.load_fixture(fixture_id)
    if fixture.status is Status.retired:
        return "retired"
    if fixture.status not in statuses:
        return (
            f"now {fixture.status.value}, which this build does not take "
            f"({', '.join(s.value for s in statuses)})"
        )
    return f"still {fixture.status.value} but left out"


def render(
    version: str, diff: BundleDiff | None, total: int, reasons: Mapping[str, str] | None = None
) -> str:
    lines = [f"# Bundle {version}", ""]
    if diff is None:
        lines += [f"First version: {total} fixtures.", ""]
        return "\n".join(lines)
    lines += [f"Against {diff.before}: {total} fixtures.", ""]
    if diff.empty:
        lines += ["No fixture changed.", ""]
        return "\n".join(lines)
    why = reasons or {}
    _section(lines, "Added", [f"- {i}" + (f": {why[i]}" if i in why else "") for i in diff.added])
    _section(
        lines, "Removed", [f"- {i}" + (f": {why[i]}" if i in why else "") for i in diff.removed]
    )
    relabelled = []
    for relabel in diff.relabelled:
        relabelled.append(f"- {relabel.id} (label rev {relabel.rev_before} -> {relabel.rev_after})")
        relabelled += [f"  - {change.describe()}" for change in relabel.fields]
        relabelled += [f"  - rubric added: {text}" for text in relabel.rubrics_added]
        relabelled += [f"  - rubric removed: {text}" for text in relabel.rubrics_removed]
    _section(lines, "Relabelled", relabelled, count=len(diff.relabelled))
    _section(lines, "Content changed", [f"- {fixture_id}" for fixture_id in diff.content_changed])
    metadata = [
        f"- {fixture_id}: {key} {old!r} -> {new!r}"
        for fixture_id, changes in diff.metadata_changed.items()
        for key, (old, new) in changes.items()
    ]
    _section(lines, "Metadata changed", metadata, count=len(diff.metadata_changed))
    return "\n".join(lines)


def _section(lines: list[str], title: str, items: list[str], count: int | None = None) -> None:
    if not items:
        return
    lines += [f"## {title} ({len(items) if count is None else count})", "", *items, ""]
