"""The reliability PNG is readable: counts clear of bars, title and each other; legend off the
plot."""

from __future__ import annotations

import itertools

from curator import palette
from curator.score.gate import build_report
from curator.score.plot import reliability_figure
from tests.score.score_builders import all_right, document_case, prediction

# Every bin filled, tall bars (accuracy 1.0) next to crowded ones, counts of 1 to 4 digits:
# the layout the old single-panel plot wrote "n=" labels over bars and the title in.
COUNTS = [3, 120, 7, 50, 1, 999, 12, 40, 25, 1109]
ACCURACIES = [0.0, 1.0, 0.5, 1.0, 1.0, 0.9, 0.2, 1.0, 1.0, 0.8]


def _report():
    case = document_case()
    report = build_report([case], {case.fixture.id: prediction(**all_right(0.9))})
    bins = [
        {
            "low": i / 10,
            "high": (i + 1) / 10,
            "count": n,
            "mean_confidence": i / 10 + 0.05,
            "accuracy": a,
            "gap": i / 10 + 0.05 - a,
        }
        for i, (n, a) in enumerate(zip(COUNTS, ACCURACIES, strict=True))
    ]
    return report.model_copy(
        update={"calibration": {"brier": 0.1234, "confidences": sum(COUNTS), "reliability": bins}}
    )


def _overlap(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def test_counts_title_and_legend_never_overlap():
    figure = reliability_figure(_report())
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    top, bottom = figure.axes
    labels = [text for text in bottom.texts]
    assert [t.get_text() for t in labels] == [str(n) for n in COUNTS]
    boxes = [t.get_window_extent(renderer) for t in labels]
    bars = [patch.get_window_extent(renderer) for patch in bottom.patches]
    title = top.title.get_window_extent(renderer)
    inside = bottom.get_window_extent(renderer)
    for box in boxes:
        assert not any(_overlap(box, bar) for bar in bars)
        assert not _overlap(box, title)
        assert (
            inside.y0 <= box.y0 and box.y1 <= inside.y1
        )  # within its panel, not over the one above
    assert not any(_overlap(a, b) for a, b in itertools.combinations(boxes, 2))
    legend = figure.legends[0].get_window_extent(renderer)
    assert not _overlap(legend, top.get_window_extent(renderer))  # it cannot cover the diagonal
    assert not _overlap(legend, inside)
    assert top.get_title() == "Reliability (Brier 0.1234)"
    assert (top.get_ylabel(), bottom.get_xlabel(), bottom.get_ylabel()) == (
        "observed accuracy",
        "confidence",
        "items",
    )


def test_colours_are_okabe_ito():
    from matplotlib.colors import to_hex

    top, bottom = reliability_figure(_report()).axes
    assert to_hex(top.patches[0].get_facecolor(), keep_alpha=False) == palette.ACCURACY.lower()
    assert to_hex(bottom.patches[0].get_facecolor(), keep_alpha=False) == palette.COUNT.lower()
