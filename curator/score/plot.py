"""Reliability diagram (PNG) of a gate report: how often each confidence bin was right.

Two panels: observed accuracy per confidence bin against the diagonal, and below it how
many items each bin holds, each count written above its own bar with room to spare.
The legend sits under the figure, so it never covers the diagonal or a bar.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from curator import atomic, palette
from curator.model import GateReport


def reliability_figure(report: GateReport) -> Any:  # matplotlib.figure.Figure
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # no display in CI
    from matplotlib.figure import Figure

    bins = report.calibration["reliability"]
    rows = [row for row in bins if row["count"]]
    width = (bins[0]["high"] - bins[0]["low"]) if bins else 0.1
    figure = Figure(figsize=(5.6, 6.8), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    top, bottom = figure.subplots(2, 1, sharex=True, height_ratios=(3, 1))
    top.plot(
        [0, 1], [0, 1], linestyle="--", color=palette.GREY, label="perfect calibration", zorder=3
    )
    top.bar(
        [row["low"] for row in rows],
        [row["accuracy"] for row in rows],
        width=width,
        align="edge",
        color=palette.ACCURACY,
        alpha=0.75,
        edgecolor=palette.BLACK,
        linewidth=0.6,
        label="observed accuracy of the bin",
    )
    top.plot(
        [row["mean_confidence"] for row in rows],
        [row["accuracy"] for row in rows],
        linestyle="none",
        marker="o",
        color=palette.CONFIDENCE,
        markeredgecolor=palette.BLACK,
        label="mean confidence of the bin",
    )
    top.set(xlim=(0, 1), ylim=(0, 1.02), ylabel="observed accuracy")
    brier = report.calibration["brier"]
    top.set_title("Reliability" + ("" if brier is None else f" (Brier {brier:.4f})"))

    counts = [row["count"] for row in rows]
    bottom.bar(
        [row["low"] for row in rows],
        counts,
        width=width,
        align="edge",
        color=palette.COUNT,
        edgecolor=palette.BLACK,
        linewidth=0.6,
    )
    for row in rows:
        bottom.annotate(
            str(row["count"]),
            (row["low"] + width / 2, row["count"]),
            textcoords="offset points",
            xytext=(0, 2),
            ha="center",
            va="bottom",
            fontsize=8,
        )
    bottom.set(
        xlim=(0, 1), ylim=(0, max(counts, default=1) * 1.45), xlabel="confidence", ylabel="items"
    )
    figure.legend(
        *top.get_legend_handles_labels(),
        loc="outside lower center",
        ncols=2,
        fontsize=8,
        frameon=False,
    )
    return figure


def write_reliability_png(report: GateReport, path: Path) -> None:
    figure = reliability_figure(report)
    buffer = io.BytesIO()
    # No Software tag (it names the matplotlib version): same report, same PNG bytes.
    figure.savefig(buffer, format="png", metadata={"Software": None})
    atomic.write_bytes(path, buffer.getvalue())
