"""PDF form fields (AcroForm): each filled field as a "name: value" line of its page.

A filled form keeps its values in the form's field dictionaries, not in the page's content
stream, so pdfplumber's text layer never holds them. Each field with a value becomes one
line, `name: value`, the name being the field's name as the form spells it, after its
parents' (/T of each, joined by " / " rather than the spec's ".": "applicant.name" reads as
a host name to the anonymiser, ".name" being a top-level domain). The lines follow the
page's own text (see curator/ingest/documents.py), ordered as a reader meets the fields:
by each field's first widget on the page, top to bottom, then left to right.

Values: a text field's text; a checkbox "Yes" or "No" (its on-state's name is internal to
the PDF: "Yes", "On", "1"); a radio group its chosen option's name; a list or combo box
its chosen options' shown texts, joined by ", ". An empty field, an unchosen radio group,
a push button, a signature and a password field (whose text is a secret no finder knows)
give no line. A value that cannot be decoded, a filled field with no place on any page (no
widget, or one without a /Rect) and an XFA form (whose data curator does not read) are
said in a warning; the import goes on without them. Warnings name a field by its page and
place, never by name or value, since warnings are stored as they are said.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from curator.ingest.source import RawSource

# Field flags (PDF 32000-1, 12.7.4.2.1 and 12.7.4.3, tables 226 and 228): bit 14 password,
# bit 16 radio, bit 17 push button.
PASSWORD = 1 << 13
RADIO = 1 << 15
PUSH_BUTTON = 1 << 16
# A /Parent chain deeper than this is a loop or a hostile file, not a form.
MAX_DEPTH = 32
# Line breaks a multi-line text field may hold; every other control character is unreadable.
_BREAKS = "\t\n\r"


class Unreadable(Exception):
    """A field whose name or value does not decode to text."""


@dataclass
class FormText:
    """The form's lines, per page (0-based), and what could not be read."""

    lines: list[list[str]]
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Widget:
    """One widget annotation of a field on a page, where a reader meets it."""

    key: int  # which field it belongs to (the field's object number, else its identity)
    annotation: dict[str, Any]  # the widget's own dictionary (its /AS, its /Rect)
    chain: tuple[dict[str, Any], ...]  # the field, then its parents
    top: float  # distance from the shown page's top edge
    bottom: float
    left: float


def read_form(source: RawSource, page_count: int) -> FormText:
    """The form field lines of each of a PDF's `page_count` pages; none without a form."""
    from pdfminer.pdfdocument import PDFDocument
    from pdfminer.pdfpage import PDFPage
    from pdfminer.pdfparser import PDFParser
    from pdfminer.pdftypes import resolve1

    empty = FormText([[] for _ in range(page_count)])
    try:
        document = PDFDocument(PDFParser(io.BytesIO(source.data)))
        form = resolve1(resolve1(document.catalog).get("AcroForm"))
        if not isinstance(form, dict):
            return empty
        pages = [_page_widgets(page) for page in PDFPage.create_pages(document)]
        result = _form_text(pages[:page_count], form)
    except Exception as error:  # pdfminer raises many types for a damaged form
        empty.warnings.append(
            f"the form fields cannot be read ({type(error).__name__}); their values are left out"
        )
        return empty
    result.lines += [[] for _ in range(page_count - len(result.lines))]
    return result


def _form_text(pages: list[list[_Widget]], form: dict[str, Any]) -> FormText:
    text = FormText([])
    placed: set[int] = set()
    for number, widgets in enumerate(pages, start=1):
        lines = []
        for place, widget in enumerate(widgets, start=1):
            if widget.key in placed:
                continue  # a radio group's other buttons, a field shown twice
            placed.add(widget.key)
            try:
                line = _line(widget)
            except Unreadable as error:
                text.warnings.append(
                    f"page {number}: form field {place} (in reading order) cannot be read "
                    f"({error}); its value is left out"
                )
                continue
            if line is not None:
                lines.append(line)
        text.lines.append(lines)
    unplaced = sum(
        1 for key, chain in _terminal_fields(form) if key not in placed and _filled(chain)
    )
    if unplaced:
        text.warnings.append(
            f"{unplaced} filled form field{'s have' if unplaced > 1 else ' has'} no place on any "
            "page; left out"
        )
    if "XFA" in form and not any(text.lines):
        text.warnings.append(
            "the PDF holds an XFA form, which curator does not read; values only it holds are "
            "left out"
        )
    return text


def _page_widgets(page: Any) -> list[_Widget]:
    """The page's field widgets in reading order: rows top to bottom, each left to right."""
    from pdfminer.pdftypes import resolve1

    widgets = []
    for reference in resolve1(page.annots) or []:
        annotation = resolve1(reference)
        if not isinstance(annotation, dict) or _name(annotation.get("Subtype")) != "Widget":
            continue
        rect = _rect(annotation)
        if rect is None:
            continue  # nowhere to be shown: its field is one with no place on any page
        chain = _chain(annotation)
        top, bottom, left = _shown_box(rect, page)
        key = _key(reference if "T" in annotation else annotation.get("Parent"), chain[0])
        widgets.append(_Widget(key, annotation, chain, top, bottom, left))
    return _reading_order(widgets)


def _rect(annotation: dict[str, Any]) -> list[float] | None:
    """The widget's /Rect, four numbers; None for anything else."""
    from pdfminer.pdftypes import resolve1

    rect = resolve1(annotation.get("Rect"))
    corners = [resolve1(v) for v in rect] if isinstance(rect, list) else []
    if len(corners) != 4 or not all(isinstance(v, (int, float)) for v in corners):
        return None
    return [float(v) for v in corners]


def _chain(annotation: dict[str, Any]) -> tuple[dict[str, Any], ...]:
    """The widget's field, then that field's parents, each once (a hostile /Parent loop
    ends where it comes round). A widget holding no /T is one of several widgets of its
    /Parent field (a radio group's buttons)."""
    from pdfminer.pdftypes import resolve1

    reference: Any = annotation if "T" in annotation else annotation.get("Parent")
    chain: list[dict[str, Any]] = []
    while len(chain) < MAX_DEPTH:
        node = resolve1(reference)
        if not isinstance(node, dict) or any(node is seen for seen in chain):
            break
        chain.append(node)
        reference = node.get("Parent")
    return tuple(chain) or (annotation,)


def _key(reference: Any, node: dict[str, Any]) -> int:
    from pdfminer.pdftypes import PDFObjRef

    return reference.objid if isinstance(reference, PDFObjRef) else id(node)


def _shown_box(rect: list[float], page: Any) -> tuple[float, float, float]:
    """(top, bottom, left) of a widget's /Rect as the page is shown, after its /Rotate."""
    x0, x1 = sorted(rect[0::2])
    y0, y1 = sorted(rect[1::2])
    turned = {
        0: (-y1, -y0, x0),
        90: (x0, x1, y0),
        180: (y0, y1, -x1),
        270: (-x1, -x0, -y1),
    }
    return turned.get(page.rotate, turned[0])


def _reading_order(widgets: list[_Widget]) -> list[_Widget]:
    """Rows top to bottom, a widget joining the row whose first widget's height holds its
    middle (a checkbox beside a taller text box is on its line), each row left to right."""
    rows: list[list[_Widget]] = []
    for widget in sorted(widgets, key=lambda w: (w.top, w.left)):
        middle = (widget.top + widget.bottom) / 2
        if rows and rows[-1][0].top <= middle <= rows[-1][0].bottom:
            rows[-1].append(widget)
        else:
            rows.append([widget])
    return [widget for row in rows for widget in sorted(row, key=lambda w: w.left)]


def _terminal_fields(form: dict[str, Any]) -> Iterator[tuple[int, tuple[dict[str, Any], ...]]]:
    """(key, chain) of every field holding a value of its own, from the form's field tree."""
    from pdfminer.pdftypes import resolve1

    seen: set[int] = set()

    def walk(reference: Any, parents: tuple[dict[str, Any], ...]) -> Iterator[Any]:
        node = resolve1(reference)
        if not isinstance(node, dict) or len(parents) >= MAX_DEPTH:
            return
        key = _key(reference, node)
        if key in seen:
            return
        seen.add(key)
        chain = (node, *parents)
        kids = [kid for kid in resolve1(node.get("Kids")) or [] if "T" in (resolve1(kid) or {})]
        if not kids:
            yield key, chain
        for kid in kids:
            yield from walk(kid, chain)

    for reference in resolve1(form.get("Fields")) or []:
        yield from walk(reference, ())


def _filled(chain: tuple[dict[str, Any], ...]) -> bool:
    value = _inherited(chain, "V")
    return (
        _holds_text(chain)
        and value is not None
        and _name(value) != "Off"
        and value not in (b"", [])
    )


def _kind(chain: tuple[dict[str, Any], ...]) -> tuple[str | None, int]:
    """The field's type (/FT: "Tx", "Btn", "Ch", "Sig") and flags (/Ff)."""
    flags = _inherited(chain, "Ff")
    return _name(_inherited(chain, "FT")), flags if isinstance(flags, int) else 0


def _holds_text(chain: tuple[dict[str, Any], ...]) -> bool:
    """False for a field whose value is no text for the page: a signature, a push button,
    a password."""
    kind, flags = _kind(chain)
    return not (
        kind == "Sig"
        or (kind == "Btn" and flags & PUSH_BUTTON)
        or (kind == "Tx" and flags & PASSWORD)
    )


def _inherited(chain: tuple[dict[str, Any], ...], key: str) -> Any:
    """A field attribute, from the field or the nearest parent that has it (/FT, /Ff, /V)."""
    from pdfminer.pdftypes import resolve1

    for node in chain:
        if key in node:
            return resolve1(node[key])
    return None


def _line(widget: _Widget) -> str | None:
    value = _value(widget)
    if not value:
        return None
    return f"{_full_name(widget.chain)}: {value}"


def _full_name(chain: tuple[dict[str, Any], ...]) -> str:
    names = [_text(node["T"]) for node in reversed(chain) if "T" in node]
    return " / ".join(name for name in names if name) or "field"


def _value(widget: _Widget) -> str | None:
    """The field's value as a reader sees it; None when it holds none."""
    kind, flags = _kind(widget.chain)
    value = _inherited(widget.chain, "V")
    if not _holds_text(widget.chain):
        return None
    if kind == "Btn":
        state = _name(value if value is not None else widget.annotation.get("AS"))
        if flags & RADIO:
            return _option(widget.chain, state) if state and state != "Off" else None
        return "No" if state in (None, "Off") else "Yes"
    if value is None:
        return None
    if kind == "Ch":
        chosen = value if isinstance(value, list) else [value]
        shown = _shown_options(widget.chain[0])
        return ", ".join(shown.get(text, text) for text in (_text(v) for v in chosen) if text)
    return _text(value).strip()


def _option(chain: tuple[dict[str, Any], ...], state: str) -> str:
    """A radio button's option: /Opt's text for a button named by its index, else its name."""
    from pdfminer.pdftypes import resolve1

    options = resolve1(chain[0].get("Opt")) or []
    if state.isdigit() and int(state) < len(options):
        return _text(options[int(state)])
    return state


def _shown_options(node: dict[str, Any]) -> dict[str, str]:
    """A choice field's export values mapped to the texts it shows (/Opt pairs)."""
    from pdfminer.pdftypes import resolve1

    shown = {}
    for option in resolve1(node.get("Opt")) or []:
        pair = resolve1(option)
        if isinstance(pair, list) and len(pair) == 2:
            shown[_text(pair[0])] = _text(pair[1])
    return shown


def _name(value: Any) -> str | None:
    """A PDF name's text (/Widget → "Widget"); None for anything else."""
    from pdfminer.psparser import PSLiteral

    if not isinstance(value, PSLiteral):
        return None
    # pdfminer keeps a name that is not UTF-8 as its bytes: one character per byte
    return value.name if isinstance(value.name, str) else value.name.decode("latin-1")


def _text(value: Any) -> str:
    """A PDF text string (UTF-16BE or UTF-8 with a byte order mark, else PDFDocEncoding), a
    text stream or a name, as text; Unreadable when it decodes to no text."""
    from pdfminer.pdftypes import PDFStream, resolve1
    from pdfminer.psparser import PSLiteral
    from pdfminer.utils import PDFDocEncoding

    value = resolve1(value)
    if isinstance(value, PSLiteral):
        return str(_name(value))
    if isinstance(value, PDFStream):
        try:
            value = value.get_data()
        except Exception as error:  # a damaged or unsupported stream filter
            raise Unreadable(
                f"a text stream that fails to decode: {type(error).__name__}"
            ) from None
    if not isinstance(value, bytes):
        raise Unreadable(f"a {type(value).__name__}, not text")
    try:
        if value.startswith(b"\xfe\xff"):
            text = value[2:].decode("utf-16-be")
        elif value.startswith(b"\xef\xbb\xbf"):
            text = value[3:].decode("utf-8")
        else:
            text = "".join(PDFDocEncoding[byte] for byte in value)
    except UnicodeDecodeError as error:
        raise Unreadable(f"not valid {error.encoding} text") from None
    if any(unicodedata.category(ch) == "Cc" and ch not in _BREAKS for ch in text):
        raise Unreadable("control bytes, not text")
    return text.replace("\r\n", "\n").replace("\r", "\n")
