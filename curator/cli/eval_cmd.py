"""curator eval run: a system over a bundle, judged; predictions.jsonl and evals.jsonl."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from curator.cli.common import prints_result
from curator.cli.env import Env, pass_env
from curator.cli.judge_options import judge_options, judge_setup, make_judge

if TYPE_CHECKING:
    from curator.eval.runner import EvalRun


@click.group("eval")
def eval_group() -> None:
    """Run a system over a bundle."""


@eval_group.command("run")
@click.argument("bundle", type=click.Path(path_type=Path), metavar="BUNDLE")
@click.option(
    "--system",
    "system_spec",
    required=True,
    metavar="MODULE:FUNCTION",
    help="The system: called with each fixture as a curator.eval.EvalItem.",
)
@click.option(
    "--repeat", type=int, metavar="N", help="Runs per fixture (default: $CURATOR_EVALS, else 1)."
)
@judge_options(required=False)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=60.0,
    show_default=True,
    metavar="SECONDS",
    help="A system call taking longer is an error for that fixture.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=Path("eval-out"),
    show_default=True,
    metavar="DIR",
    help="Where predictions.jsonl and evals.jsonl are written.",
)
@prints_result
@pass_env
def run(
    env: Env,
    bundle: Path,
    system_spec: str,
    repeat: int | None,
    judge_name: str | None,
    judge_model: str | None,
    judge_dir: Path | None,
    offline: bool,
    concurrency: int | None,
    timeout: float,
    out: Path,
) -> EvalRun:
    """Call the system on every fixture of BUNDLE (N times each), judge its rubrics and write
    predictions.jsonl (what `curator gate` reads) and evals.jsonl (Mattermost's eval log).

    \b
    Example:
      curator eval run bundles/1.0.0 --system mysystem:answer --judge rules --repeat 3
      curator gate --bundle bundles/1.0.0 --predictions eval-out/predictions.jsonl
    """
    from curator.eval.items import load_items
    from curator.eval.runner import repetitions, run_eval
    from curator.eval.system import load_system

    bundle_items = load_items(bundle)
    system = load_system(system_spec)
    root, settings = judge_setup(env, concurrency)
    rubrics = (rubric for item in bundle_items.items for rubric in item.rubrics)
    judge = (
        make_judge(judge_name, judge_model, judge_dir, offline, root, settings, rubrics)
        if judge_name
        else None
    )
    try:
        return run_eval(
            bundle_items,
            system,
            judge=judge,
            repeat=repetitions(repeat),
            concurrency=settings.concurrency,
            timeout=timeout,
            threshold=settings.threshold,
            out=out,
            max_answer_bytes=settings.max_reply_bytes,
        )
    finally:
        if judge is not None:
            judge.close()
