"""curator view: look at evals.jsonl in a terminal app, or check it and comment on a PR without
one."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from curator.cli.common import prints_result

if TYPE_CHECKING:
    from curator.view.session import ViewReport

_FILE = click.Path(path_type=Path, dir_okay=False)


@click.command()
@click.argument("evals", metavar="EVALS.jsonl", type=_FILE)
@click.option("--failures-only", is_flag=True, help="Start with only what did not pass.")
@click.option(
    "--compare",
    "old",
    metavar="OLD.jsonl",
    type=_FILE,
    help="An earlier run: regressed, fixed, new, dropped, still failing (same fixture content "
    "only).",
)
@click.option(
    "--check", is_flag=True, help="No app: print the counts and failures; exit 1 on any failure."
)
@click.option(
    "--comment", metavar="FILE", type=_FILE, help="No app: write a Markdown PR comment to FILE."
)
@prints_result
def view(
    evals: Path, failures_only: bool, old: Path | None, check: bool, comment: Path | None
) -> ViewReport:
    """Browse an eval run: counts, a TEST | RUBRIC | RESULT | SCORE table, details.

    Keys: up/down or j/k move, Enter opens a test, Esc goes back, f failures
    only, / search, c comparison on and off, q quit. A flaky test passed in some
    repetitions and failed in others; an error is a line whose system or judge
    failed.

    \b
    Example:
      curator view evals.jsonl --compare last-release/evals.jsonl
      curator view evals.jsonl --check --comment comment.md
    """
    from curator.errors import CuratorError
    from curator.view.session import open_session

    session = open_session(evals, old)
    if comment is not None:
        session.write_comment(comment)
    if check or comment is not None or click.get_current_context().params["as_json"]:
        return session.report(check=check)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CuratorError("curator view needs a terminal; use --check, --comment FILE or --json")
    session.app(failures_only=failures_only).run()
    return session.report(check=False, brief=True)
