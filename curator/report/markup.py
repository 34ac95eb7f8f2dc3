"""Small HTML builders the report's sections share: escaped text, tables, numbers."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape


def table(
    headers: Sequence[str],
    rows: Sequence[Sequence[object]],
    *,
    numeric: Sequence[int] = (),
    free: Sequence[int] = (),
    caption: str = "",
) -> str:
    """A table; cells are escaped unless they are `Raw`. Columns in `numeric` align right;
    columns in `free` hold free text (answers, values) that may break anywhere, so one
    long token cannot widen the page. Headers that are all empty make a key/value table."""
    classes = {i: "num" for i in numeric} | {i: "free" for i in free}
    head = ""
    if any(headers):
        cells = "".join(
            f'<th scope="col"{_class(i, classes)}>{escape(h)}</th>' for i, h in enumerate(headers)
        )
        head = f"<thead><tr>{cells}</tr></thead>"
    body = "".join(
        "<tr>"
        + "".join(f"<td{_class(i, classes)}>{cell_html(cell)}</td>" for i, cell in enumerate(row))
        + "</tr>"
        for row in rows
    )
    cap = f"<caption>{escape(caption)}</caption>" if caption else ""
    return f"<table>{cap}{head}<tbody>{body}</tbody></table>"


class Raw(str):
    """HTML that is already safe: a table cell that is not escaped again."""


def cell_html(cell: object) -> str:
    if isinstance(cell, Raw):
        return str(cell)
    return escape("" if cell is None else str(cell))


def percent(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.0%}"


def number(value: float | None, digits: int = 3) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def figure(chart: str, caption: str, legend: str = "") -> str:
    return f"<figure>{chart}<figcaption>{escape(caption)}{legend}</figcaption></figure>"


def section(anchor: str, title: str, body: str) -> str:
    return f'<section id="{anchor}"><h2>{escape(title)}</h2>{body}</section>'


def paragraph(text: str) -> str:
    return f"<p>{escape(text)}</p>"


def _class(index: int, classes: dict[int, str]) -> str:
    return f' class="{classes[index]}"' if index in classes else ""
