"""curator gate: score predictions against a bundle and check the quality floors."""

from __future__ import annotations

from pathlib import Path

import click

from curator.cli.common import emit, exit_with, json_option

_PATH = click.Path(path_type=Path)


@click.command()
@click.option("--bundle", required=True, type=_PATH, metavar="DIR",
              help="The built bundle (directory or .tar.gz) to score against.")
@click.option("--predictions", required=True, type=_PATH, metavar="FILE",
              help="Predictions JSONL, one line per fixture (schemas/predictions.schema.json).")
@click.option("--floors", type=_PATH, metavar="FLOORS.toml", help="Quality floors (default: built-in).")
@click.option("--baseline", type=_PATH, metavar="REPORT.json",
              help="A previous report.json: regressions and faithfulness drop are measured against it.")
@click.option("--out", type=_PATH, metavar="DIR", default=Path("gate-report"), show_default=True,
              help="Where report.json, summary.md and junit.xml are written.")
@click.option("--plot", is_flag=True, help="Also write reliability.png (a reliability diagram).")
@click.option("--judge-dir", type=_PATH, metavar="DIR",
              help="Where judge calibrations are kept (default: $CURATOR_JUDGE_DIR, else the store's .curator/judge).")
@json_option
@click.pass_context
def gate(ctx: click.Context, bundle: Path, predictions: Path, floors: Path | None,
         baseline: Path | None, out: Path, plot: bool, judge_dir: Path | None, as_json: bool) -> None:
    """Score predictions against a bundle; exit 1 naming each floor that fails.

    Writes report.json (pass it as --baseline next time), summary.md (a pull-request
    comment) and junit.xml into --out. Bad input (a malformed line, an unknown fixture,
    a confidence outside [0, 1]) is an error naming the line, exit 2.

    \b
    Example:
      curator gate --bundle bundles/1.0.0 --predictions preds.jsonl \\
          --floors floors.toml --baseline last/report.json --plot
    """
    from curator.score.gate import run_gate
    from curator.score.report import render_json

    run = run_gate(bundle, predictions, floors=floors, baseline=baseline, out=out, plot=plot,
                   judge_dir=judge_dir)
    report = run.report

    def text() -> str:
        overall = report.accuracy["overall"]
        lines = [f"gate {'passed' if report.passed else 'FAILED'}: "
                 f"{report.fixtures_passed}/{report.fixtures_total} fixtures right, "
                 f"{overall['right']}/{overall['total']} items"]
        for check in report.gates:
            lines.append(f"  {check.status.upper():4}  {check.name}: {check.detail}")
        if report.missing_fixtures:
            lines.append(f"  no prediction for: {', '.join(report.missing_fixtures)}")
        for regression in report.regressions:
            lines.append(f"  regressed: {regression.id} {regression.before} -> {regression.after} "
                         f"({', '.join(regression.classes) or 'no class'})")
        lines += [f"  wrote {path}" for path in run.written]
        return "\n".join(lines)

    if as_json:
        click.echo(render_json(report), nl=False)
    else:
        emit(False, None, text)
    if not report.passed:
        failed = ", ".join(c.name for c in report.gates if c.status == "fail")
        click.echo(f"curator: gate failed: {failed}", err=True)
    exit_with(ctx, run.exit_code)
