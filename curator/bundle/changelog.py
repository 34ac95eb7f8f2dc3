"""CHANGELOG.md of a bundle: what changed against the previous version."""

from __future__ import annotations

from curator.bundle.diff import BundleDiff


def render(version: str, diff: BundleDiff | None, total: int) -> str:
    lines = [f"# Bundle {version}", ""]
    if diff is None:
        lines += [f"First version: {total} fixtures.", ""]
        return "\n".join(lines)
    lines += [f"Against {diff.before}: {total} fixtures.", ""]
    if diff.empty:
        lines += ["No fixture changed.", ""]
        return "\n".join(lines)
    _section(lines, "Added", [f"- {fixture_id}" for fixture_id in diff.added])
    _section(lines, "Removed", [f"- {fixture_id}" for fixture_id in diff.removed])
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
