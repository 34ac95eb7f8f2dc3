"""Charts as inline SVG, generated here rather than drawn by matplotlib.

Why: the page must be one file with no network, and stay byte-identical for the same
inputs. Inline SVG is text in the page (no base64 image, no embedded font), scales with
the page, keeps its labels as real, selectable text in the page's own font, and lets the
browser test measure every label's box. The layout leaves each kind of text its own lane
(row labels in a left gutter, values in a right gutter, tick labels under the axis, counts
in their own strip), sized from the longest text, so labels cannot overlap whatever the
data. Legends are HTML next to the chart, never on top of it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

from curator import palette

FONT = 12  # px; the page sets the family
CHAR = 0.65 * FONT  # a generous average glyph width: gutters are sized from it
MAX_LABEL = 28  # characters of a row label; longer ones end in "…" (the full text is the tooltip)
ROW = 26
BAR = 16


@dataclass(frozen=True)
class Segment:
    value: float
    colour: str
    tooltip: str = ""


@dataclass(frozen=True)
class Bar:
    label: str
    segments: list[Segment]
    note: str  # the value in words, right of the plot: "77/88 (88%)"
    marker: float | None = None  # a floor, drawn as a black tick across the row


@dataclass(frozen=True)
class Axis:
    title: str
    maximum: float = 1.0
    percent: bool = True
    ticks: list[float] = field(default_factory=list)


def percent_axis(title: str) -> Axis:
    return Axis(title, 1.0, True, [0, 0.25, 0.5, 0.75, 1.0])


def count_axis(title: str, largest: float) -> Axis:
    step = _nice_step(max(largest, 1) / 4)
    top = step * math.ceil(max(largest, 1) / step)
    return Axis(title, top, False, [step * i for i in range(int(round(top / step)) + 1)])


def bar_chart(bars: Sequence[Bar], axis: Axis, label: str) -> str:
    """Horizontal bars, one row each; `label` is the chart's accessible name."""
    label_width = min(MAX_LABEL, max((len(b.label) for b in bars), default=4)) * CHAR + 12
    note_width = max((len(b.note) for b in bars), default=4) * CHAR + 12
    width = max(640, int(label_width + note_width + 280))
    x0, x1 = label_width, width - note_width
    top = 6
    height = top + ROW * len(bars) + 46

    def x(value: float) -> float:
        return x0 + (x1 - x0) * max(0.0, min(value, axis.maximum)) / axis.maximum

    parts = [_open(width, height, label)]
    axis_y = top + ROW * len(bars)
    for tick in axis.ticks:
        parts.append(
            f'<line x1="{x(tick):.1f}" y1="{top}" x2="{x(tick):.1f}" y2="{axis_y}" class="grid"/>'
        )
        parts.append(_text(x(tick), axis_y + 16, _tick_label(tick, axis), "middle", "tick"))
    for index, bar in enumerate(bars):
        y = top + ROW * index + (ROW - BAR) / 2
        parts.append(_text(x0 - 8, y + BAR - 3, _clip(bar.label), "end", "label", bar.label))
        start = 0.0
        for segment in bar.segments:
            if segment.value > 0:
                parts.append(
                    f'<rect x="{x(start):.1f}" y="{y:.1f}" '
                    f'width="{x(start + segment.value) - x(start):.1f}" height="{BAR}" '
                    f'fill="{segment.colour}">'
                    f"<title>{escape(segment.tooltip or bar.note)}</title></rect>"
                )
            start += segment.value
        if bar.marker is not None:
            parts.append(
                f'<line x1="{x(bar.marker):.1f}" y1="{y - 3:.1f}" x2="{x(bar.marker):.1f}" '
                f'y2="{y + BAR + 3:.1f}" class="marker"/>'
            )
        parts.append(_text(x1 + 8, y + BAR - 3, bar.note, "start", "note"))
    parts.append(f'<line x1="{x0:.1f}" y1="{axis_y}" x2="{x1:.1f}" y2="{axis_y}" class="axis"/>')
    parts.append(_text((x0 + x1) / 2, axis_y + 38, axis.title, "middle", "axis-title"))
    return "".join(parts) + "</svg>"


@dataclass(frozen=True)
class Bin:
    low: float
    high: float
    count: int
    mean_confidence: float | None
    accuracy: float | None


def reliability_chart(bins: Sequence[Bin], label: str) -> str:
    """Observed accuracy per confidence bin against the diagonal, and under it a strip
    with each bin's item count written above its own bar."""
    width, height = 560, 486
    x0, x1 = 76, 540
    y0, y1 = 10, 310  # the accuracy panel
    c0, c1 = (
        334,
        420,
    )  # the count strip: bars reach at most 64 px of its 86, the rest is for the numbers
    largest = max((b.count for b in bins), default=0) or 1

    def x(value: float) -> float:
        return x0 + (x1 - x0) * value

    def y(value: float) -> float:
        return y1 - (y1 - y0) * value

    parts = [_open(width, height, label)]
    for tick in (0, 0.2, 0.4, 0.6, 0.8, 1.0):
        parts.append(
            f'<line x1="{x0}" y1="{y(tick):.1f}" x2="{x1}" y2="{y(tick):.1f}" class="grid"/>'
        )
        parts.append(_text(x0 - 8, y(tick) + 4, f"{tick:.1f}", "end", "tick"))
        parts.append(
            f'<line x1="{x(tick):.1f}" y1="{y0}" x2="{x(tick):.1f}" y2="{c1}" class="grid"/>'
        )
        parts.append(_text(x(tick), c1 + 16, f"{tick:.1f}", "middle", "tick"))
    filled = [b for b in bins if b.count and b.accuracy is not None]
    for b in filled:
        assert b.accuracy is not None
        parts.append(
            f'<rect x="{x(b.low):.1f}" y="{y(b.accuracy):.1f}" width="{x(b.high) - x(b.low):.1f}" '
            f'height="{y1 - y(b.accuracy):.1f}" fill="{palette.ACCURACY}" fill-opacity="0.75" '
            'class="edge">'
            f"<title>{b.low:.1f}-{b.high:.1f}: accuracy {b.accuracy:.2f} over {b.count} "
            "items</title></rect>"
        )
        bar_height = 64 * b.count / largest
        parts.append(
            f'<rect x="{x(b.low):.1f}" y="{c1 - bar_height:.1f}" '
            f'width="{x(b.high) - x(b.low):.1f}" height="{bar_height:.1f}" '
            f'fill="{palette.COUNT}" class="edge"/>'
        )
        parts.append(
            _text((x(b.low) + x(b.high)) / 2, c1 - bar_height - 5, str(b.count), "middle", "count")
        )
    parts.append(f'<line x1="{x(0)}" y1="{y(0)}" x2="{x(1)}" y2="{y(1)}" class="diagonal"/>')
    for b in filled:
        assert b.accuracy is not None and b.mean_confidence is not None
        parts.append(
            f'<circle cx="{x(b.mean_confidence):.1f}" cy="{y(b.accuracy):.1f}" r="4.5" '
            f'fill="{palette.CONFIDENCE}" class="edge"/>'
        )
    parts.append(f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" class="frame"/>')
    parts.append(f'<line x1="{x0}" y1="{c1}" x2="{x1}" y2="{c1}" class="axis"/>')
    parts.append(_text(18, (y0 + y1) / 2, "observed accuracy", "middle", "axis-title", rotate=True))
    parts.append(_text(18, (c0 + c1) / 2, "items", "middle", "axis-title", rotate=True))
    parts.append(
        _text((x0 + x1) / 2, c1 + 42, "confidence the system gave", "middle", "axis-title")
    )
    return "".join(parts) + "</svg>"


def legend(entries: Sequence[tuple[str, str]]) -> str:
    """HTML legend: (colour or 'dashed'/'marker'/'dot', text) swatches, outside the chart."""
    items = "".join(
        f'<li><span class="swatch {_swatch_class(colour)}" style="{_swatch_style(colour)}">'
        f"</span>{escape(text)}</li>"
        for colour, text in entries
    )
    return f'<ul class="legend">{items}</ul>'


def _swatch_class(kind: str) -> str:
    return kind if kind in ("dashed", "marker") else "dot" if kind.startswith("dot:") else "box"


def _swatch_style(kind: str) -> str:
    if kind in ("dashed", "marker"):
        return ""
    return f"background:{kind.removeprefix('dot:')}"


def _open(width: int, height: int, label: str) -> str:
    return (
        f'<svg class="chart" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">'
    )


def _text(
    x: float, y: float, text: str, anchor: str, kind: str, tooltip: str = "", rotate: bool = False
) -> str:
    turn = f' transform="rotate(-90 {x:.1f} {y:.1f})"' if rotate else ""
    title = f"<title>{escape(tooltip)}</title>" if tooltip and tooltip != text else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" class="{kind}"{turn}>'
        f"{title}{escape(text)}</text>"
    )


def _clip(text: str) -> str:
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def _tick_label(tick: float, axis: Axis) -> str:
    return f"{tick:.0%}" if axis.percent else f"{tick:g}"


def _nice_step(raw: float) -> float:
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return factor * power
    return 10 * power
