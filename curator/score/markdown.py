"""The gate's Markdown summary, sized for a pull-request comment."""

from __future__ import annotations

from typing import Any

from curator.model import FixtureScore, GateReport

MAX_LISTED = 25  # fixtures listed per section; a PR comment should stay readable
STATUS = {"pass": "✅ pass", "fail": "❌ fail", "skip": "➖ skip"}
COMPARISON = {
    "overall_accuracy": "≥",
    "adversarial_accuracy": "≥",
    "brier": "≤",
    "faithfulness_drop": "≤",
    "pass_rate": "≥",
    "flaky_share": "≤",
    "judge_calibration": "≥",
}


def render_markdown(report: GateReport) -> str:
    verdict = "✅ passed" if report.passed else "❌ failed"
    lines = [
        f"## curator gate {verdict}",
        "",
        f"Bundle `{report.bundle}` · predictions `{report.predictions}`"
        + (f" · baseline `{report.baseline}`" if report.baseline else " · no baseline"),
        "",
        "| Gate | Status | Value | Floor | Detail |",
        "|---|---|---|---|---|",
    ]
    for check in report.gates:
        value = "–" if check.value is None else f"{check.value:.4f}"
        floor = f"{COMPARISON.get(check.name, '')} {check.threshold:g}"
        lines.append(
            f"| {check.name} | {STATUS[check.status]} | {value} | {floor} | {check.detail} |"
        )
    lines += ["", f"**Fixtures passing:** {report.fixtures_passed}/{report.fixtures_total}", ""]
    lines += _accuracy_section("Accuracy by category", "Category", report.accuracy["by_category"])
    lines += _accuracy_section("Accuracy by mutation", "Mutation", report.accuracy["by_mutation"])
    lines += _calibration(report.calibration)
    lines += _quality(report.quality)
    lines += _repetitions(report.repetitions)
    lines += _failures(report)
    return "\n".join(lines).rstrip() + "\n"


def _accuracy_section(title: str, column: str, table: dict[str, dict[str, Any]]) -> list[str]:
    if not table:
        return []
    lines = [f"### {title}", "", f"| {column} | Right | Total | Accuracy |", "|---|---:|---:|---:|"]
    for name, tally in table.items():
        lines.append(
            f"| {name} | {tally['right']} | {tally['total']} | {_pct(tally['accuracy'])} |"
        )
    return lines + [""]


def _calibration(calibration: dict[str, Any]) -> list[str]:
    if calibration["brier"] is None:
        return ["### Calibration", "", "No confidences given.", ""]
    lines = [
        "### Calibration",
        "",
        f"Brier score **{calibration['brier']:.4f}** over {calibration['confidences']} "
        "confidences.",
        "",
        "| Confidence | Count | Mean confidence | Accuracy |",
        "|---|---:|---:|---:|",
    ]
    for row in calibration["reliability"]:
        if row["count"]:
            lines.append(
                f"| {row['low']:.1f}–{row['high']:.1f} | {row['count']} | "
                f"{row['mean_confidence']:.3f} | {_pct(row['accuracy'])} |"
            )
    return lines + [""]


def _quality(quality: dict[str, Any]) -> list[str]:
    names = ("context_recall", "faithfulness", "answer_relevancy", "composite")
    if all(quality.get(name) is None for name in names):
        return []
    lines = ["### Retrieval quality", "", "| Metric | Mean |", "|---|---:|"]
    for name in names:
        lines.append(f"| {name} | {_num(quality.get(name))} |")
    by_category = quality.get("composite_by_category") or {}
    if by_category:
        lines += ["", "| Category | Composite |", "|---|---:|"]
        lines += [f"| {category} | {_num(value)} |" for category, value in by_category.items()]
    return lines + [""]


def _repetitions(summary: dict[str, Any] | None) -> list[str]:
    if summary is None:
        return []
    lines = [
        "### Repeated runs",
        "",
        f"Mean pass rate **{_pct(summary['pass_rate'])}** over {summary['fixtures']} fixtures; "
        f"{len(summary['flaky'])} flaky (passed in some runs, failed in others).",
        "",
    ]
    lines += [f"- `{fixture_id}`" for fixture_id in summary["flaky"][:MAX_LISTED]]
    return lines + _more(len(summary["flaky"])) + ([""] if summary["flaky"] else [])


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _failures(report: GateReport) -> list[str]:
    lines: list[str] = []
    counts = {name: n for name, n in report.failure_classes.items() if n}
    if counts:
        lines += ["### Failure classes", "", "| Class | Items |", "|---|---:|"]
        lines += [f"| {name} | {n} |" for name, n in counts.items()] + [""]
    if report.baseline:
        lines += [f"### Regressed against the baseline ({len(report.regressions)})", ""]
        if report.regressions:
            lines += ["| Fixture | Before | After | Failure classes |", "|---|---:|---:|---|"]
            lines += [
                f"| `{r.id}` | {r.before} | {r.after} | {', '.join(r.classes) or '–'} |"
                for r in report.regressions[:MAX_LISTED]
            ]
            lines += _more(len(report.regressions))
        else:
            lines.append("None.")
        lines.append("")
    if report.missing_fixtures:
        lines += [f"### Fixtures with no prediction ({len(report.missing_fixtures)})", ""]
        lines += [f"- `{fixture_id}`" for fixture_id in report.missing_fixtures[:MAX_LISTED]]
        lines += _more(len(report.missing_fixtures)) + [""]
    failing = [f for f in report.fixtures if not f.passed and not f.missing]
    if failing:
        lines += [
            f"### Failing fixtures ({len(failing)})",
            "",
            "| Fixture | Category | Right | Failure classes | Wrong items |",
            "|---|---|---:|---|---|",
        ]
        lines += [_failing_row(f) for f in failing[:MAX_LISTED]]
        lines += _more(len(failing)) + [""]
    return lines


def _failing_row(fixture: FixtureScore) -> str:
    wrong = ", ".join(item.name for item in fixture.items if item.outcome != "right")
    return (
        f"| `{fixture.id}` | {fixture.category} | {fixture.right}/{fixture.total} | "
        f"{', '.join(fixture.classes)} | {_cell(wrong)} |"
    )


def _more(count: int) -> list[str]:
    return ["", f"…and {count - MAX_LISTED} more (see report.json)."] if count > MAX_LISTED else []


def _cell(text: str) -> str:
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= 120 else text[:117] + "…"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"
