"""Reliability diagram (PNG) of a gate report: how often each confidence bin was right."""

from __future__ import annotations

import io
from pathlib import Path

from curator import atomic
from curator.model import GateReport


def write_reliability_png(report: GateReport, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")  # no display in CI
    import matplotlib.pyplot as plt

    rows = [row for row in report.calibration["reliability"] if row["count"]]
    figure, axes = plt.subplots(figsize=(5, 5), dpi=100)
    axes.plot([0, 1], [0, 1], linestyle="--", color="grey", label="perfect calibration")
    if rows:
        width = rows[0]["high"] - rows[0]["low"]
        axes.bar([row["low"] for row in rows], [row["accuracy"] for row in rows], width=width,
                 align="edge", edgecolor="black", alpha=0.7, label="observed accuracy")
        axes.plot([row["mean_confidence"] for row in rows], [row["accuracy"] for row in rows],
                  marker="o", color="black", linewidth=1, label="bin: mean confidence vs accuracy")
        for row in rows:
            axes.annotate(f"n={row['count']}", (row["low"] + width / 2, row["accuracy"]),
                          textcoords="offset points", xytext=(0, 4), ha="center", fontsize=8)
    brier = report.calibration["brier"]
    title = "Reliability" + ("" if brier is None else f" (Brier {brier:.4f})")
    axes.set(xlim=(0, 1), ylim=(0, 1), xlabel="confidence", ylabel="accuracy", title=title)
    axes.legend(loc="upper left")
    buffer = io.BytesIO()
    # No Software tag (it names the matplotlib version): same report, same PNG bytes.
    figure.savefig(buffer, format="png", metadata={"Software": None})
    plt.close(figure)
    atomic.write_bytes(path, buffer.getvalue())
