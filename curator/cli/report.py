"""curator report: one self-contained HTML page over a bundle, a gate report and eval runs."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from curator.cli.common import prints_result

if TYPE_CHECKING:
    from curator.report.page import ReportWritten

_PATH = click.Path(path_type=Path)


@click.command()
@click.option(
    "--bundle",
    required=True,
    type=_PATH,
    metavar="DIR",
    help="A built bundle (directory or .tar.gz).",
)
@click.option(
    "--gate", type=_PATH, metavar="REPORT.json", help="A report.json written by `curator gate`."
)
@click.option(
    "--runs",
    multiple=True,
    type=_PATH,
    metavar="EVALS.jsonl|DIR",
    help="An eval run's evals.jsonl or its folder (repeatable, oldest first): the newest is "
    "compared with the one before.",
)
@click.option(
    "--name",
    "names",
    multiple=True,
    metavar="NAME",
    help="What the page calls a run (repeatable, in --runs order; default: the folder of an "
    "evals.jsonl, else the file's name).",
)
@click.option(
    "--out", required=True, type=_PATH, metavar="FILE.html", help="Where to write the page."
)
@prints_result
def report(
    bundle: Path, gate: Path | None, runs: tuple[Path, ...], names: tuple[str, ...], out: Path
) -> ReportWritten:
    """Write one HTML file: composition, accuracy, calibration, faithfulness, run comparison,
    failing fixtures. It needs no network and no script; open it in any browser.

    \b
    Example:
      curator report --bundle bundles/1.2.0 --gate gate-report/report.json \\
          --runs last/evals.jsonl --runs eval-out --name before --name after \\
          --out report.html
    """
    from curator.report import write_report

    return write_report(bundle, out, gate=gate, runs=runs, names=names)
