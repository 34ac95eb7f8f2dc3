"""Sections over scores: accuracy (gate items and run pass rates), calibration, faithfulness."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from curator import palette
from curator.eval.results import groupings, pass_rates
from curator.report import svg
from curator.report.inputs import ReportInputs
from curator.report.markup import figure, number, paragraph, percent, section, table
from curator.score.metrics import NO_MUTATION

QUALITY_LABELS = {
    "context_recall": "context recall",
    "faithfulness": "faithfulness",
    "answer_relevancy": "answer relevancy",
    "composite": "weighted composite",
}


def accuracy(inputs: ReportInputs) -> str:
    body = ""
    gate = inputs.gate
    if gate is not None:
        table_ = gate.accuracy
        floors = gate.floors
        subsets = [
            _tally_bar("overall", table_["overall"], palette.BLACK, floors.overall_accuracy),
            _tally_bar("golden", table_["golden"], palette.BLUE),
            _tally_bar(
                "adversarial",
                table_["adversarial"],
                palette.VERMILLION,
                floors.adversarial_accuracy,
            ),
        ]
        floor_legend = svg.legend([("marker", "floor of the gate")])
        body += figure(
            svg.bar_chart(subsets, svg.percent_axis("items right"), "accuracy by subset"),
            f"Gate: items right, overall and by subset (predictions {gate.predictions}).",
            floor_legend,
        )
        for key, name in (("by_category", "category"), ("by_mutation", "mutation")):
            groups = sorted(table_[key], key=lambda group: (group != NO_MUTATION, group))
            bars = [_tally_bar(group, table_[key][group], palette.BLUE) for group in groups]
            caption = f"Gate: items right by {name}."
            if key == "by_mutation":
                caption += (
                    " A fixture made by several mutations counts under each; none: no mutation."
                )
            body += figure(
                svg.bar_chart(bars, svg.percent_axis("items right"), f"accuracy by {name}"), caption
            )
    if gate is not None and gate.accuracy.get("by_task"):
        by_task = gate.accuracy["by_task"]
        bars = [
            _tally_bar(task, by_task[task], palette.BLUE, gate.floors.task_accuracy.get(task))
            for task in sorted(by_task)
        ]
        body += figure(
            svg.bar_chart(bars, svg.percent_axis("items right"), "accuracy by task"),
            "Gate: items right by named task (the fixtures asked several things, each judged "
            "on its own rubrics).",
            floor_legend,
        )
    if inputs.runs:
        latest = inputs.runs[-1]
        for by in groupings(latest.items):
            rates = pass_rates(latest.items, by)
            bars = [
                svg.Bar(
                    r.group,
                    [svg.Segment(r.rate, palette.BLUISH_GREEN)],
                    f"{r.passed}/{r.total} ({percent(r.rate)})",
                )
                for r in rates
            ]
            body += figure(
                svg.bar_chart(bars, svg.percent_axis("tests passed"), f"pass rate by {by}"),
                f"Eval run {latest.label}: tests passed by {by} (a flaky or erroring test did "
                "not pass).",
            )
    if not body:
        body = paragraph("No gate report or eval run given: nothing was scored.")
    return section("accuracy", "Accuracy", body)


def calibration(inputs: ReportInputs) -> str:
    gate = inputs.gate
    if gate is None or not gate.calibration.get("confidences"):
        reason = "no gate report given" if gate is None else "the predictions carry no confidences"
        return section(
            "calibration", "Calibration", paragraph(f"No reliability diagram: {reason}.")
        )
    rows = gate.calibration["reliability"]
    bins = [
        svg.Bin(r["low"], r["high"], r["count"], r["mean_confidence"], r["accuracy"]) for r in rows
    ]
    legend = svg.legend(
        [
            (palette.ACCURACY, "observed accuracy of the bin"),
            (
                f"dot:{palette.CONFIDENCE}",
                "mean confidence of the bin (on the diagonal when calibrated)",
            ),
            ("dashed", "perfect calibration"),
            (palette.COUNT, "items in the bin"),
        ]
    )
    brier = gate.calibration["brier"]
    caption = (
        f"Reliability diagram: Brier score {number(brier, 4)} (0 is perfect; the gate's maximum is "
        f"{number(gate.floors.max_brier, 2)}) over {gate.calibration['confidences']} answered "
        "fields."
    )
    filled = [r for r in rows if r["count"]]
    grid = table(
        ["confidence bin", "items", "mean confidence", "accuracy", "gap"],
        [
            (
                f"{r['low']:.1f}-{r['high']:.1f}",
                r["count"],
                number(r["mean_confidence"], 2),
                number(r["accuracy"], 2),
                number(r["gap"], 2),
            )
            for r in filled
        ],
        numeric=(1, 2, 3, 4),
    )
    return section(
        "calibration",
        "Calibration",
        figure(svg.reliability_chart(bins, "reliability diagram"), caption, legend) + grid,
    )


def faithfulness(inputs: ReportInputs) -> str:
    gate = inputs.gate
    quality: Mapping[str, Any] = gate.quality if gate is not None else {}
    means = [(name, quality.get(name)) for name in QUALITY_LABELS]
    if gate is None or all(value is None for _, value in means):
        reason = (
            "no gate report given"
            if gate is None
            else "the predictions report no retrieval metrics"
        )
        return section(
            "faithfulness",
            "Faithfulness and retrieval quality",
            paragraph(f"Nothing to show: {reason}."),
        )
    bars = [
        svg.Bar(QUALITY_LABELS[name], [svg.Segment(value or 0.0, palette.ORANGE)], number(value, 3))
        for name, value in means
    ]
    weights = quality.get("weights", {})
    caption = (
        "Means over the fixtures that report each metric; the composite weighs "
        + ", ".join(f"{QUALITY_LABELS[k]} {v:g}" for k, v in weights.items())
        + "."
    )
    body = figure(svg.bar_chart(bars, svg.percent_axis("mean score"), "retrieval quality"), caption)
    by_category = quality.get("composite_by_category") or {}
    if by_category:
        category_bars = [
            svg.Bar(category, [svg.Segment(value, palette.ORANGE)], number(value, 3))
            for category, value in by_category.items()
        ]
        body += figure(
            svg.bar_chart(
                category_bars, svg.percent_axis("mean composite"), "composite by category"
            ),
            "Weighted composite by category.",
        )
    drop = next((c for c in gate.gates if c.name == "faithfulness_drop"), None)
    if drop is not None:
        body += paragraph(f"Faithfulness against the baseline: {drop.status}: {drop.detail}.")
    return section("faithfulness", "Faithfulness and retrieval quality", body)


def _tally_bar(
    label: str, tally: Mapping[str, Any], colour: str, floor: float | None = None
) -> svg.Bar:
    value = tally.get("accuracy")
    note = f"{tally['right']}/{tally['total']} ({percent(value)})"
    if floor is not None:
        note += f", floor {percent(floor)}"
    return svg.Bar(label, [svg.Segment(value or 0.0, colour)], note, floor)
