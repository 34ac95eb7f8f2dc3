"""A run summed up without a terminal: the `--check` lines and the Markdown PR comment
(`--comment`): pass rate per category and per mutation (and, for a run over fixtures with
named tasks, per task and per fixture), then each failure folded in `<details>` with the
sections the detail view shows."""

from __future__ import annotations

import html
from collections.abc import Sequence

from curator.eval.compare import GROUPS, Change, Comparison
from curator.eval.results import Item, counts, groupings, has_tasks, pass_rates
from curator.view.detail import sections

MARK = {"pass": "✅", "fail": "❌", "flaky": "⚠️", "error": "💥"}


def check_text(items: Sequence[Item], comparison: Comparison | None = None) -> str:
    """One header line, the comparison when given, then one line per item that does not pass."""
    lines = [counts(items).header()]
    tasks = by_task_line(items)
    if tasks is not None:
        lines.append(tasks)
    if comparison is not None:
        lines.append(comparison.header())
    lines += [
        f"{item.result.upper():5}  {item.name}  {item.rubric}" for item in items if not item.passed
    ]
    return "\n".join(lines)


def comment_markdown(
    items: Sequence[Item],
    title: str,
    comparison: Comparison | None = None,
    against: str | None = None,
) -> str:
    total = counts(items)
    lines = [
        f"## Eval results: {_cell(title)}",
        "",
        f"**{total.header()}**"
        + (f" over {total.repetitions} repetitions" if total.repetitions > 1 else ""),
        "",
    ]
    if comparison is not None:
        lines += _comparison(comparison, against or "the previous run")
    for by in groupings(items):
        lines += [
            f"### Pass rate by {by}",
            "",
            f"| {by} | passed | tests | rate |",
            "|---|---:|---:|---:|",
        ]
        lines += [
            f"| {_cell(r.group)} | {r.passed} | {r.total} | {r.rate:.0%} |"
            for r in pass_rates(items, by)
        ]
        lines.append("")
    failures = [item for item in items if not item.passed]
    lines += [f"### Failures ({len(failures)})", ""]
    if not failures:
        lines += ["None: every test passed.", ""]
    for item in failures:
        lines += _folded(item)
    return "\n".join(lines)


def by_task_line(items: Sequence[Item]) -> str | None:
    """`by task: summary 4/4 (100%) | ...`, for a run with named tasks; else None."""
    if not has_tasks(items):
        return None
    rates = pass_rates(items, "task")
    return "by task: " + " | ".join(f"{r.group} {r.passed}/{r.total} ({r.rate:.0%})" for r in rates)


def _comparison(comparison: Comparison, against: str) -> list[str]:
    groups = [*GROUPS, "still passing"]
    numbers = comparison.as_dict()
    lines = [
        f"### Compared with {_cell(against)} (same fixture content and rubric only)",
        "",
        "| " + " | ".join(groups) + " |",
        "|" + "---:|" * len(groups),
        "| " + " | ".join(str(numbers[group]) for group in groups) + " |",
        "",
    ]
    tasked = [c for c in comparison.changes if c.item.line.task is not None]
    if tasked:
        lines += _changes_by_task(tasked)
    for change in comparison.changes:
        if change.group in ("regressed", "fixed"):
            lines.append(
                f"- **{change.group}**: `{_code(change.item.name)}` {_cell(change.item.rubric)}"
            )
    return [*lines, ""] if lines[-1] else lines


def _changes_by_task(changes: Sequence[Change]) -> list[str]:
    tasks = sorted({change.item.task for change in changes})
    lines = ["| task | " + " | ".join(GROUPS) + " |", "|---|" + "---:|" * len(GROUPS)]
    for task in tasks:
        mine = [change.group for change in changes if change.item.task == task]
        lines.append(f"| {_cell(task)} | " + " | ".join(str(mine.count(g)) for g in GROUPS) + " |")
    return [*lines, ""]


def _folded(item: Item) -> list[str]:
    summary = (
        f"{MARK[item.result]} <code>{html.escape(item.name)}</code>: {html.escape(item.rubric)} "
        f"({item.result})"
    )
    lines = ["<details>", f"<summary>{summary}</summary>", ""]
    for title, text in sections(item)[1:]:  # the summary already names the test
        lines += [f"**{title}**", ""] + [
            f"> {_text(part)}" if part else ">" for part in text.splitlines()
        ]
        lines.append("")
    return [*lines, "</details>", ""]


def _text(text: str) -> str:
    """Literal text in GitHub Markdown: no HTML, and no `$...$` read as maths."""
    return html.escape(text).replace("$", "\\$")


def _cell(text: str) -> str:
    return _text(text).replace("|", "\\|").replace("\n", " ")


def _code(text: str) -> str:
    return text.replace("`", "'")
