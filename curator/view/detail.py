"""What the detail view shows of one item, as titled sections: the app shows them on a
screen, the PR comment folds them into `<details>`."""

from __future__ import annotations

from curator.eval.results import Item


def sections(item: Item, old: Item | None = None) -> list[tuple[str, str]]:
    """(title, text) pairs; sections with nothing to say are left out."""
    line = item.line
    found = [
        ("Test", f"{line.name}  ({item.result}, score {item.score:.2f})"),
        ("Rubric", line.rubric),
        ("Expected", f"{line.field} = {line.expected}" if line.field else (line.expected or "")),
        ("Output", line.output),
        ("Reasoning", line.reasoning),
        ("Evidence", _evidence(item)),
        ("Error", line.error or ""),
        ("Failure class", line.failure_class or ""),
        ("Lineage", _lineage(item)),
        ("Repetitions", _repetitions(item)),
        ("Previous run", f"{old.result}, score {old.score:.2f}: {old.line.output}" if old else ""),
        ("Fixture", _fixture(item)),
    ]
    return [(title, text) for title, text in found if text]


def _evidence(item: Item) -> str:
    line = item.line
    if not line.evidence:
        return ""
    found = {True: "found in the fixture", False: "NOT found in the fixture", None: "not checked"}[
        line.verified
    ]
    judge = f" (judge {line.judge})" if line.judge else ""
    return f"\u201c{line.evidence}\u201d: {found}{judge}"


def _lineage(item: Item) -> str:
    line = item.line
    if line.parent:
        return f"variant of golden {line.parent}, made by {' + '.join(line.mutations)}"
    if item.mutation == "promoted":
        return "promoted from a production failure"
    if line.fixture_id:
        return "a golden (no mutation)"
    return ""


def _repetitions(item: Item) -> str:
    if len(item.lines) < 2:
        return ""
    return ", ".join(
        f"#{line.run_number} {'error' if line.error else 'pass' if line.passed else 'fail'} "
        f"{line.score:.2f}"
        for line in item.lines
    )


def _fixture(item: Item) -> str:
    line = item.line
    parts = [
        f"id {line.fixture_id}" if line.fixture_id else "",
        f"category {line.category}" if line.category else "",
        f"bundle {line.bundle_version}" if line.bundle_version else "",
        f"sha256 {line.fixture_sha256[:12]}" if line.fixture_sha256 else "",
        f"{line.latency_ms:.0f} ms" if line.latency_ms is not None else "",
    ]
    return ", ".join(part for part in parts if part)
