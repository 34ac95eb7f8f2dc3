"""One `curator view` invocation as a library object: the run (and the run it is compared
with) read once, then shown in the app, checked, or summed up as a PR comment."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from curator import atomic
from curator.eval.compare import Comparison, compare
from curator.eval.records import Run, read_run
from curator.eval.results import Item, counts, items_of
from curator.view.summary import check_text, comment_markdown

if TYPE_CHECKING:
    from curator.view.app import EvalViewer


@dataclass(frozen=True)
class Session:
    run: Run
    items: list[Item]
    old_run: Run | None = None
    old_items: list[Item] | None = None
    comparison: Comparison | None = None

    @property
    def failing(self) -> bool:
        return any(not item.passed for item in self.items)

    def comment(self) -> str:
        against = self.old_run.label if self.old_run else None
        return comment_markdown(self.items, self.run.label, self.comparison, against)

    def write_comment(self, path: Path) -> None:
        atomic.write_text(path, self.comment(), mode=0o644)

    def report(self, *, check: bool, brief: bool = False) -> ViewReport:
        return ViewReport(self, check, brief)

    def as_dict(self) -> dict:
        comparison = self.comparison
        return {
            "evals": str(self.run.path),
            "counts": asdict(counts(self.items)),
            "failures": [
                {
                    "name": i.name,
                    "rubric": i.rubric,
                    "result": i.result,
                    "fixture_sha256": i.line.fixture_sha256,
                }
                for i in self.items
                if not i.passed
            ],
            "compare": str(self.old_run.path) if self.old_run else None,
            "comparison": comparison.as_dict() if comparison else None,
        }

    def app(self, *, failures_only: bool = False) -> EvalViewer:
        from curator.view.app import EvalViewer

        return EvalViewer(
            self.items,
            title=self.run.label,
            comparison=self.comparison,
            against=self.old_run.label if self.old_run else None,
            failures_only=failures_only,
        )


def open_session(evals: Path, old: Path | None = None) -> Session:
    run = read_run(evals)
    items = items_of(run.lines)
    if old is None:
        return Session(run, items)
    old_run = read_run(old)
    old_items = items_of(old_run.lines)
    return Session(run, items, old_run, old_items, compare(old_items, items))


@dataclass(frozen=True)
class ViewReport:
    """What `curator view` says without the app: `--check`'s lines (exit 1 when a test did
    not pass and `check` asks so) or the `--json` document; `brief` keeps the counts only."""

    session: Session
    check: bool
    brief: bool = False

    @property
    def exit_code(self) -> int:
        return 1 if self.check and self.session.failing else 0

    def render(self) -> str:
        text = check_text(self.session.items, self.session.comparison)
        return (
            "\n".join(text.splitlines()[: 2 if self.session.comparison else 1])
            if self.brief
            else text
        )

    def as_json(self) -> dict:
        return self.session.as_dict()
