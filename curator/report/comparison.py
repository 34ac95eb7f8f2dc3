"""The runs section: each eval run's counts, and the newest run compared with the one
before it, restricted to identical fixtures (curator.eval.compare)."""

from __future__ import annotations

from html import escape

from curator import palette
from curator.eval.compare import GROUPS, compare
from curator.eval.results import Item, counts
from curator.report import svg
from curator.report.inputs import ReportInputs
from curator.report.markup import Raw, figure, paragraph, percent, section, table

COLOURS = {
    "regressed": palette.VERMILLION,
    "fixed": palette.BLUISH_GREEN,
    "new": palette.SKY_BLUE,
    "dropped": palette.GREY,
    "still failing": palette.ORANGE,
    "still passing": palette.BLUE,
}


def runs(inputs: ReportInputs) -> str:
    if not inputs.runs:
        return section(
            "runs", "Run comparison", paragraph("No eval runs given (--runs evals.jsonl ...).")
        )
    rows = []
    for run in inputs.runs:
        total = counts(run.items)
        rate = total.passed / total.tests if total.tests else None
        rows.append(
            (
                run.label,
                total.tests,
                total.passed,
                total.failed,
                total.flaky,
                total.errors,
                total.repetitions,
                percent(rate),
            )
        )
    body = table(
        ["run", "tests", "passed", "failed", "flaky", "errors", "repetitions", "pass rate"],
        rows,
        numeric=tuple(range(1, 8)),
        caption="Eval runs, oldest first",
    )
    if len(inputs.runs) < 2:
        return section("runs", "Run comparison", body + paragraph("Give two runs to compare them."))
    old, new = inputs.runs[-2], inputs.runs[-1]
    comparison = compare(old.items, new.items)
    numbers = comparison.as_dict()
    bars = [
        svg.Bar(group, [svg.Segment(numbers[group], COLOURS[group])], str(numbers[group]))
        for group in COLOURS
    ]
    chart = svg.bar_chart(bars, svg.count_axis("tests", max(numbers.values())), "run comparison")
    body += figure(
        chart,
        f"{new.label} against {old.label}: tests paired only when the fixture content "
        "(sha256) and the rubric are the same; a fixture whose content changed is dropped and new.",
    )
    changes = [
        (
            change.group,
            Raw(f"<code>{escape(change.item.name)}</code>"),
            change.item.rubric,
            _result(change.old),
            _result(change.new),
        )
        for change in comparison.changes
    ]
    body += table(
        ["change", "test", "rubric", "before", "now"],
        changes,
        caption=" | ".join(f"{comparison.count(g)} {g}" for g in GROUPS),
    )
    return section("runs", "Run comparison", body)


def _result(item: Item | None) -> str:
    return "-" if item is None else item.result
