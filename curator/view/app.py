"""`curator view`: the Textual app over evals.jsonl, a thin layer over the pure functions of
curator.view (results, compare, detail). Keys follow Mattermost's evalviewer (up/down and
j/k, Enter, Esc, f, q) plus `/` to search and `c` to toggle the comparison."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input, Static

from curator.eval.compare import Comparison, visible_changes
from curator.eval.results import Item, counts, visible
from curator.view.detail import sections
from curator.view.summary import by_task_line

ITEM_COLUMNS = ("TEST", "RUBRIC", "RESULT", "SCORE", "CATEGORY", "MUTATION")
CHANGE_COLUMNS = ("CHANGE", "TEST", "RUBRIC", "BEFORE", "NOW", "CATEGORY", "MUTATION")
RESULT_STYLE = {
    "pass": "green",
    "fail": "bold red",
    "flaky": "bold yellow",
    "error": "bold magenta",
}
CELL = 40  # widest TEST and RUBRIC cell: long ones are read in full in the detail view


class DetailScreen(Screen[None]):
    """One item: rubric, output, reasoning, the judge's evidence, lineage."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Back"), Binding("q", "app.quit", "Quit")]

    def __init__(self, found: list[tuple[str, str]]) -> None:
        super().__init__()
        self.found = found

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="detail"):
            for title, text in self.found:
                yield Static(f"[b]{title}[/b]", classes="title", markup=True)
                yield Static(text, classes="text", markup=False)
        yield Footer()


class EvalViewer(App[None]):
    TITLE = "curator view"
    CSS = """
    #counts { height: auto; padding: 0 1; background: $boost; }
    #search { display: none; }
    #search.open { display: block; }
    DetailScreen .title { margin-top: 1; color: $accent; }
    DetailScreen .text { padding: 0 2; }
    """
    BINDINGS = [
        Binding("j", "move(1)", "Down", show=False),
        Binding("k", "move(-1)", "Up", show=False),
        Binding("f", "toggle_failures", "Failures only"),
        Binding("slash", "search", "Search"),
        Binding("c", "toggle_compare", "Compare"),
        Binding("escape", "close_search", "Clear search", show=False),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self,
        items: Sequence[Item],
        *,
        title: str,
        comparison: Comparison | None = None,
        against: str | None = None,
        failures_only: bool = False,
    ) -> None:
        super().__init__()
        self.items = list(items)
        self.comparison = comparison
        self.against = against
        self.failures_only = failures_only
        self.search_text = ""
        self.comparing = self.comparison is not None
        self.sub_title = title
        self.rows: list[
            tuple[Item, Item | None]
        ] = []  # (item shown, its previous run) per table row

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="counts")
        yield DataTable(id="results", cursor_type="row", zebra_stripes=True)
        yield Input(
            placeholder="search test, task, rubric, output, reasoning, category, mutation",
            id="search",
        )
        yield Footer()

    def on_mount(self) -> None:
        self.show()
        self.query_one(DataTable).focus()

    def show(self) -> None:
        """Fill the header and table from the current mode, filter and search."""
        table = self.query_one(DataTable)
        table.clear(columns=True)
        if self.comparing and self.comparison is not None:
            table.add_columns(*CHANGE_COLUMNS)
            changes = visible_changes(
                self.comparison, failures_only=self.failures_only, query=self.search_text
            )
            self.rows = [(change.item, change.old if change.new else None) for change in changes]
            for change in changes:
                item = change.item
                table.add_row(
                    Text(change.group),
                    _clip(item.name),
                    _clip(item.rubric),
                    _result(change.old),
                    _result(change.new),
                    Text(item.category),
                    Text(item.mutation),
                )
        else:
            table.add_columns(*ITEM_COLUMNS)
            shown = visible(self.items, failures_only=self.failures_only, query=self.search_text)
            self.rows = [(item, None) for item in shown]
            for item in shown:
                table.add_row(
                    _clip(item.name),
                    _clip(item.rubric),
                    _result(item),
                    Text(f"{item.score:.2f}"),
                    Text(item.category),
                    Text(item.mutation),
                )
        self.query_one("#counts", Static).update(Text(self.header_text()))

    def header_text(self) -> str:
        lines = [counts(self.items).header()]
        tasks = by_task_line(self.items)
        if tasks is not None:
            lines.append(tasks)
        if self.comparison is not None:
            state = "shown" if self.comparing else "hidden: c shows it"
            lines.append(f"against {self.against}: {self.comparison.header()} ({state})")
        filters = [f"{len(self.rows)} rows"]
        if self.failures_only:
            filters.append("failures only")
        if self.search_text:
            filters.append(f"search: {self.search_text}")
        lines.append(", ".join(filters))
        return "\n".join(lines)

    def action_move(self, step: int) -> None:
        table = self.query_one(DataTable)
        table.action_cursor_down() if step > 0 else table.action_cursor_up()

    def action_toggle_failures(self) -> None:
        self.failures_only = not self.failures_only
        self.show()

    def action_toggle_compare(self) -> None:
        if self.comparison is None:
            self.notify("no comparison: start with --compare OLD.jsonl", severity="warning")
            return
        self.comparing = not self.comparing
        self.show()

    def action_search(self) -> None:
        search = self.query_one("#search", Input)
        search.add_class("open")
        search.value = self.search_text
        search.focus()

    def action_close_search(self) -> None:
        search = self.query_one("#search", Input)
        if search.has_class("open") or self.search_text:
            search.remove_class("open")
            self.search_text = ""
            self.show()
            self.query_one(DataTable).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.search_text = event.value
        self.show()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.query_one("#search", Input).remove_class("open")
        self.query_one(DataTable).focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        item, old = self.rows[event.cursor_row]
        self.push_screen(DetailScreen(sections(item, old)))


def _result(item: Item | None) -> Text:
    if item is None:
        return Text("-")
    return Text(item.result.upper(), style=RESULT_STYLE[item.result])


def _clip(text: str) -> Text:
    """One line at most CELL wide; plain text (a rubric may hold square brackets)."""
    flat = " ".join(text.split())
    return Text(flat if len(flat) <= CELL else flat[: CELL - 1] + "…")
