"""curator eval run: a system over a bundle, judged; predictions.jsonl and evals.jsonl."""

from __future__ import annotations

from pathlib import Path

import click

from curator.cli.common import emit, json_option
from curator.cli.judge_options import judge_options, make_judge


@click.group("eval")
def eval_group() -> None:
    """Run a system over a bundle."""


@eval_group.command("run")
@click.argument("bundle", type=click.Path(path_type=Path), metavar="BUNDLE")
@click.option("--system", "system_spec", required=True, metavar="MODULE:FUNCTION",
              help="The system: called with each fixture as a curator.eval.EvalItem.")
@click.option("--repeat", type=int, metavar="N", help="Runs per fixture (default: $CURATOR_EVALS, else 1).")
@judge_options(required=False)
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=60.0, show_default=True,
              metavar="SECONDS", help="A system call taking longer is an error for that fixture.")
@click.option("--out", type=click.Path(path_type=Path), default=Path("eval-out"), show_default=True,
              metavar="DIR", help="Where predictions.jsonl and evals.jsonl are written.")
@json_option
def run(bundle: Path, system_spec: str, repeat: int | None, judge_name: str | None, judge_model: str | None,
        judge_dir: Path | None, offline: bool, concurrency: int | None, timeout: float, out: Path,
        as_json: bool) -> None:
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
    judge, settings = make_judge(judge_name, judge_model, judge_dir, offline, concurrency)
    try:
        result = run_eval(bundle_items, system, judge=judge, repeat=repetitions(repeat),
                          concurrency=settings.concurrency, timeout=timeout, threshold=settings.threshold,
                          out=out)
    finally:
        if judge is not None:
            judge.close()
    emit(as_json, result.summary(), result.render)
