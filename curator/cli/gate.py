"""curator gate: score predictions against a bundle and check the quality floors."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from curator.cli.common import prints_result
from curator.cli.env import Env, pass_env

if TYPE_CHECKING:
    from curator.score.gate import GateRun

_PATH = click.Path(path_type=Path)


@click.command()
@click.option(
    "--bundle",
    required=True,
    type=_PATH,
    metavar="DIR",
    help="The built bundle (directory or .tar.gz) to score against.",
)
@click.option(
    "--predictions",
    required=True,
    type=_PATH,
    metavar="FILE",
    help="Predictions JSONL, one line per fixture (schemas/predictions.schema.json).",
)
@click.option(
    "--floors", type=_PATH, metavar="FLOORS.toml", help="Quality floors (default: built-in)."
)
@click.option(
    "--baseline",
    type=_PATH,
    metavar="REPORT.json",
    help="A previous report.json: regressions and faithfulness drop are measured against it.",
)
@click.option(
    "--out",
    type=_PATH,
    metavar="DIR",
    default=Path("gate-report"),
    show_default=True,
    help="Where report.json, summary.md and junit.xml are written.",
)
@click.option("--plot", is_flag=True, help="Also write reliability.png (a reliability diagram).")
@click.option(
    "--judge-dir",
    type=_PATH,
    metavar="DIR",
    help="Where judge calibrations are kept (default: $CURATOR_JUDGE_DIR, else the store's "
    ".curator/judge).",
)
@prints_result
@pass_env
def gate(
    env: Env,
    bundle: Path,
    predictions: Path,
    floors: Path | None,
    baseline: Path | None,
    out: Path,
    plot: bool,
    judge_dir: Path | None,
) -> GateRun:
    """Score predictions against a bundle; exit 1 naming each floor that fails.

    Writes report.json (pass it as --baseline next time), summary.md (a pull-request
    comment) and junit.xml into --out. Bad input (a malformed line, an unknown fixture,
    a confidence outside [0, 1]) is an error naming the line, exit 2.

    \b
    Example:
      curator gate --bundle bundles/1.0.0 --predictions preds.jsonl \\
          --floors floors.toml --baseline last/report.json --plot
    """
    from curator.judge.location import judge_dir as folder_of
    from curator.judge.location import store_root
    from curator.score.gate import run_gate

    folder = folder_of(judge_dir, store_root(Path(env.store_path) if env.store_path else None))
    run = run_gate(
        bundle, predictions, floors=floors, baseline=baseline, out=out, plot=plot, judge_dir=folder
    )
    if failed := run.failed_gates():
        click.echo(f"curator: gate failed: {', '.join(failed)}", err=True)
    return run
