"""curator judge calibrate: a judge measured on answers made from a bundle's fixtures."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from curator.cli.common import prints_result
from curator.cli.env import Env, pass_env
from curator.cli.judge_options import judge_options, judge_setup, make_judge

if TYPE_CHECKING:
    from curator.judge.calibration import Calibrated


@click.group()
def judge() -> None:
    """Rubric judges."""


@judge.command("calibrate")
@click.argument("bundle", type=click.Path(path_type=Path), metavar="BUNDLE")
@judge_options(required=True)
@click.option(
    "--floors",
    type=click.Path(path_type=Path),
    metavar="FLOORS.toml",
    help="Judge floors to report against (default: built-in; the gate applies its own).",
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="Same seed, same known-bad answers."
)
@click.option(
    "--min-negatives",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    metavar="N",
    help="Known-bad answers each rubric kind needs (else exit 2, nothing judged).",
)
@click.option(
    "--min-positives",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    metavar="N",
    help="References and true values each rubric kind needs (else exit 2, nothing judged).",
)
@prints_result
@pass_env
def calibrate(
    env: Env,
    bundle: Path,
    judge_name: str,
    judge_model: str | None,
    judge_dir: Path | None,
    offline: bool,
    concurrency: int | None,
    floors: Path | None,
    seed: int,
    min_negatives: int,
    min_positives: int,
) -> Calibrated:
    """Judge every rubric, and every labelled field, on answers whose verdict is known:
    reviewed references and true values (must pass), hand-written known-bad answers and
    known-bad answers curator makes from the fixtures (must fail). Record accuracy, false-pass
    and false-fail rates per rubric kind with Wilson 95 % intervals, and agreement per rubric,
    where `curator gate` finds it. Exit 1 when the judge falls below the judge floors (the
    upper bound of a false-pass rate above max_judge_false_pass); exit 2 when the bundle
    cannot give each rubric kind enough known answers.

    \b
    Example:
      curator judge calibrate bundles/1.0.0 --judge openai --judge-model gpt-4o-mini
    """
    from curator.eval.items import load_items
    from curator.judge.calibration import calibrate_and_save
    from curator.judge.location import judge_dir as folder_of
    from curator.score.gate import load_floors

    judge_floors = load_floors(floors).floors
    root, settings = judge_setup(env, concurrency)
    rubrics = (rubric for item in load_items(bundle).items for rubric in item.rubrics)
    cached = make_judge(judge_name, judge_model, judge_dir, offline, root, settings, rubrics)
    try:
        return calibrate_and_save(
            bundle,
            cached,
            folder_of(judge_dir, root),
            judge_floors,
            threshold=settings.threshold,
            concurrency=settings.concurrency,
            seed=seed,
            min_negatives=min_negatives,
            min_positives=min_positives,
        )
    finally:
        cached.close()
