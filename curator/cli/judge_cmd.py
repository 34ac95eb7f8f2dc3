"""curator judge calibrate: a judge measured on a bundle's known-bad and reference answers."""

from __future__ import annotations

from pathlib import Path

import click

from curator.cli.common import emit, exit_with, json_option
from curator.cli.judge_options import judge_options, make_judge


@click.group()
def judge() -> None:
    """Rubric judges."""


@judge.command("calibrate")
@click.argument("bundle", type=click.Path(path_type=Path), metavar="BUNDLE")
@judge_options(required=True)
@click.option("--floors", type=click.Path(path_type=Path), metavar="FLOORS.toml",
              help="Judge floors to report against (default: built-in; the gate applies its own).")
@json_option
@click.pass_context
def calibrate(ctx: click.Context, bundle: Path, judge_name: str, judge_model: str | None,
              judge_dir: Path | None, offline: bool, concurrency: int | None, floors: Path | None,
              as_json: bool) -> None:
    """Judge every rubric on the bundle's known-bad answers (must fail) and reviewed reference
    answers (must pass); record accuracy, false-pass rate and agreement per rubric where
    `curator gate` finds it. Exit 1 when the judge falls below the judge floors.

    \b
    Example:
      curator judge calibrate bundles/1.0.0 --judge openai --judge-model gpt-4o-mini
    """
    from curator.judge import calibration
    from curator.judge.location import judge_dir as resolve_judge_dir
    from curator.judge.location import store_root
    from curator.score.gate import load_floors

    floor_values = load_floors(floors).floors
    cached, settings = make_judge(judge_name, judge_model, judge_dir, offline, concurrency)
    try:
        record = calibration.calibrate(bundle, cached, threshold=settings.threshold,
                                       concurrency=settings.concurrency)
    finally:
        cached.close()
    path = calibration.save(resolve_judge_dir(judge_dir, store_root()), record)
    below = calibration.shortfalls(record, floor_values)

    def text() -> str:
        false_pass = "-" if record.false_pass_rate is None else f"{record.false_pass_rate:.3f}"
        lines = [f"judge {record.judge} on bundle {record.bundle_version}: accuracy {record.accuracy:.3f}, "
                 f"false-pass rate {false_pass} over {record.cases} judgements "
                 f"({record.known_bad} known-bad, {record.reference} reference, {record.errors} errors)"]
        lines += [f"  {row.agreed}/{row.cases} agree  {row.rubric}" for row in record.by_rubric]
        lines.append(f"  {'REFUSED: ' + '; '.join(below) if below else 'meets the judge floors'}")
        lines.append(f"  wrote {path}")
        return "\n".join(lines)

    emit(as_json, {**record.model_dump(mode="json"), "record": str(path), "shortfalls": below}, text)
    exit_with(ctx, 1 if below else 0)
