"""`curator gate` as a library call: score a bundle's predictions and check the quality floors.

Gates: overall accuracy >= floor, adversarial accuracy >= floor, Brier score <= max, and
mean faithfulness no more than max_faithfulness_drop below the baseline report's, paired
on the fixtures both runs reported it for. Predictions from repeated runs (`curator eval
run --repeat N`) add the mean pass rate and the share of flaky fixtures; verdicts that name
one of curator's judges are trusted only with a calibration of that judge on this bundle
that meets the judge floors. A gate with nothing to measure is skipped.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from curator import atomic, clock
from curator.config import load_toml
from curator.model import (
    CalibrationRecord,
    FixtureScore,
    Floors,
    FloorsFile,
    GateCheck,
    GateReport,
    Prediction,
    task_label,
)
from curator.score import metrics
from curator.score.predictions import load_predictions
from curator.score.report import fixture_score, load_baseline, regressions, render_json
from curator.score.scoring import SimpleCase, score_fixture

# Accuracies are exact fractions and floors decimals: 0.9 must pass a 9/10 run.
TOLERANCE = 1e-9
REPORT_FILE = "report.json"
SUMMARY_FILE = "summary.md"
JUNIT_FILE = "junit.xml"
PLOT_FILE = "reliability.png"


@dataclass
class GateRun:
    report: GateReport
    written: list[Path] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        return 0 if self.report.passed else 1

    def as_json(self) -> GateReport:
        return self.report  # the same document as report.json

    def render(self) -> str:
        report = self.report
        overall = report.accuracy["overall"]
        lines = [
            f"gate {'passed' if report.passed else 'FAILED'}: "
            f"{report.fixtures_passed}/{report.fixtures_total} fixtures right, "
            f"{overall['right']}/{overall['total']} items"
        ]
        for check in report.gates:
            lines.append(f"  {check.status.upper():4}  {check.name}: {check.detail}")
        if report.missing_fixtures:
            lines.append(f"  no prediction for: {', '.join(report.missing_fixtures)}")
        for regression in report.regressions:
            lines.append(
                f"  regressed: {regression.id} {regression.before} -> {regression.after} "
                f"({', '.join(regression.classes) or 'no class'})"
            )
        lines += [f"  wrote {path}" for path in self.written]
        return "\n".join(lines)

    def failed_gates(self) -> list[str]:
        return [check.name for check in self.report.gates if check.status == "fail"]


def load_floors(path: Path | None) -> FloorsFile:
    """floors.toml, or the defaults when no file is given."""
    if path is None:
        return FloorsFile()
    return load_toml(path, FloorsFile)


def build_report(
    cases: list[SimpleCase],
    predictions: dict[str, Prediction],
    *,
    floors: FloorsFile | None = None,
    baseline: GateReport | None = None,
    bundle_name: str = "",
    predictions_name: str = "",
    predictions_sha256: str = "",
    baseline_name: str | None = None,
    calibrations: dict[tuple[str, str], CalibrationRecord | None] | None = None,
) -> GateReport:
    """Score every case (a case without a prediction counts wrong) and check the floors.

    `calibrations` maps each (judge, prompt version) the verdicts name to its calibration
    on this bundle, or None when it has none.
    """
    floors = floors or FloorsFile()
    weights = floors.weights.model_dump()
    results = [
        score_fixture(case, predictions.get(task_label(case.fixture.id, case.task)))
        for case in cases
    ]
    scores = [fixture_score(result, weights, predictions.get(result.name)) for result in results]
    accuracy = metrics.accuracy_table(results)
    pairs = metrics.confidence_pairs(results)
    brier = metrics.brier(pairs)
    checks = gate_checks(accuracy, brier, scores, baseline, floors.floors)
    checks += [
        *task_checks(accuracy.get("by_task", {}), floors.floors),
        *repetition_checks(scores, floors.floors),
        calibration_check(calibrations or {}, floors.floors),
    ]
    return GateReport(
        generated_at=clock.now_iso(),
        bundle=bundle_name,
        predictions=predictions_name,
        predictions_sha256=predictions_sha256,
        baseline=baseline_name,
        passed=all(check.status != "fail" for check in checks),
        gates=checks,
        floors=floors.floors,
        accuracy=accuracy,
        fixtures_passed=sum(score.passed for score in scores),
        fixtures_total=len(scores),
        missing_fixtures=[score.name for score in scores if score.missing],
        failure_classes=metrics.failure_counts(results),
        calibration={
            "brier": brier,
            "confidences": len(pairs),
            "reliability": metrics.reliability(pairs),
        },
        quality=metrics.quality(results, weights),
        repetitions=repetition_summary(scores),
        regressions=regressions(scores, baseline),
        fixtures=scores,
    )


def gate_checks(
    accuracy: dict,
    brier: float | None,
    scores: list[FixtureScore],
    baseline: GateReport | None,
    floors: Floors,
) -> list[GateCheck]:
    overall, adversarial = accuracy["overall"], accuracy["adversarial"]
    return [
        # Nothing to score at all fails: a gate that measured nothing must not pass a release.
        _at_least(
            "overall_accuracy", overall, floors.overall_accuracy, "fail", "no labelled items"
        ),
        _at_least(
            "adversarial_accuracy",
            adversarial,
            floors.adversarial_accuracy,
            "skip",
            "no adversarial fixtures",
        ),
        _brier_check(brier, floors.max_brier),
        faithfulness_check(scores, baseline, floors.max_faithfulness_drop),
    ]


def task_checks(by_task: dict, floors: Floors) -> list[GateCheck]:
    """One check per task a floor names (`[floors.task_accuracy]`): that task's item accuracy."""
    return [
        _at_least(
            f"task_accuracy:{task}",
            by_task.get(task, metrics.tally([])),
            floor,
            "skip",
            f"no fixture has the task {task}",
        )
        for task, floor in sorted(floors.task_accuracy.items())
    ]


def repetition_summary(scores: list[FixtureScore]) -> dict | None:
    repeated = [s for s in scores if s.pass_rate is not None]
    if not repeated:
        return None
    flaky = [s.name for s in repeated if s.flaky]
    return {
        "fixtures": len(repeated),
        "pass_rate": sum(s.pass_rate or 0.0 for s in repeated) / len(repeated),
        "flaky": flaky,
        "flaky_share": len(flaky) / len(repeated),
    }


def repetition_checks(scores: list[FixtureScore], floors: Floors) -> list[GateCheck]:
    summary = repetition_summary(scores)
    if summary is None:
        detail = "predictions carry no run counts (curator eval run writes them)"
        return [
            GateCheck(
                name="pass_rate", status="skip", threshold=floors.min_pass_rate, detail=detail
            ),
            GateCheck(
                name="flaky_share", status="skip", threshold=floors.max_flaky_share, detail=detail
            ),
        ]
    rate, share = summary["pass_rate"], summary["flaky_share"]
    rate_ok = rate >= floors.min_pass_rate - TOLERANCE
    share_ok = share <= floors.max_flaky_share + TOLERANCE
    flaky = summary["flaky"]
    return [
        GateCheck(
            name="pass_rate",
            status="pass" if rate_ok else "fail",
            value=rate,
            threshold=floors.min_pass_rate,
            detail=f"mean pass rate {rate:.3f} {'>=' if rate_ok else '<'} {floors.min_pass_rate:g} "
            f"over {summary['fixtures']} fixtures",
        ),
        GateCheck(
            name="flaky_share",
            status="pass" if share_ok else "fail",
            value=share,
            threshold=floors.max_flaky_share,
            detail=f"{len(flaky)}/{summary['fixtures']} flaky {'<=' if share_ok else '>'} "
            f"{floors.max_flaky_share:g}" + (f": {', '.join(flaky[:5])}" if flaky else ""),
        ),
    ]


def calibration_check(
    calibrations: dict[tuple[str, str], CalibrationRecord | None], floors: Floors
) -> GateCheck:
    """Verdicts of curator's judges count only when that judge is calibrated on this bundle:
    its accuracy meets the floor and every rubric kind's false-pass rate is, at the upper
    bound of its 95 % interval, within max_judge_false_pass."""
    from curator.judge.calibration import kind_rates, shortfalls

    name, threshold = "judge_calibration", floors.min_judge_accuracy
    if not calibrations:
        return GateCheck(
            name=name, status="skip", threshold=threshold, detail="no verdict names a curator judge"
        )
    problems, trusted = [], []
    for (judge, prompt_version), record in sorted(calibrations.items()):
        if record is None:
            problems.append(
                f"{judge} ({prompt_version}) has no calibration on this bundle "
                f"(run `curator judge calibrate BUNDLE --judge ...`)"
            )
            continue
        below = shortfalls(record, floors)
        if below:
            problems.append(f"{judge} ({prompt_version}) refused: {', '.join(below)}")
        else:
            bound = max(rates.false_pass.high or 0.0 for rates in kind_rates(record.results))
            trusted.append(
                f"{judge} accuracy {record.accuracy:.3f}, false-pass rate at most {bound:.3f}"
            )
    if problems:
        return GateCheck(name=name, status="fail", threshold=threshold, detail="; ".join(problems))
    return GateCheck(name=name, status="pass", threshold=threshold, detail="; ".join(trusted))


def judges_named(predictions: dict[str, Prediction]) -> set[tuple[str, str]]:
    return {
        (v.judge, v.prompt_version or "")
        for p in predictions.values()
        for v in p.rubrics
        if v.judge
    }


def faithfulness_check(
    scores: list[FixtureScore], baseline: GateReport | None, max_drop: float
) -> GateCheck:
    name = "faithfulness_drop"
    if baseline is None:
        return GateCheck(name=name, status="skip", threshold=max_drop, detail="no baseline")
    before = {
        f.name: f.metrics["faithfulness"] for f in baseline.fixtures if "faithfulness" in f.metrics
    }
    if not before:
        return GateCheck(
            name=name, status="skip", threshold=max_drop, detail="the baseline has no faithfulness"
        )
    now = {s.name: s.metrics["faithfulness"] for s in scores if "faithfulness" in s.metrics}
    paired = sorted(set(before) & set(now))
    if not paired:
        return GateCheck(
            name=name,
            status="fail",
            threshold=max_drop,
            detail="no faithfulness for any fixture the baseline measured",
        )
    old = sum(before[i] for i in paired) / len(paired)
    new = sum(now[i] for i in paired) / len(paired)
    drop = old - new
    ok = drop <= max_drop + TOLERANCE
    return GateCheck(
        name=name,
        status="pass" if ok else "fail",
        value=drop,
        threshold=max_drop,
        detail=f"faithfulness {new:.3f} vs baseline {old:.3f} on {len(paired)} fixtures: "
        f"drop {drop:.3f} {'<=' if ok else '>'} {max_drop:g}",
    )


def run_gate(
    bundle: Path,
    predictions: Path,
    *,
    floors: Path | None = None,
    baseline: Path | None = None,
    out: Path | None = None,
    plot: bool = False,
    judge_dir: Path | None = None,
) -> GateRun:
    """Load and check every input first (bad input: CuratorError), then score and write.

    `judge_dir` is where calibration records are looked up (see curator.judge.location).
    """
    from curator.bundle.manifest import read_manifest
    from curator.judge import calibration
    from curator.judge.location import judge_dir as default_judge_dir
    from curator.judge.location import store_root
    from curator.score.source import load_cases

    floors_file = load_floors(floors)
    cases = load_cases(bundle)
    line_hashes = {entry.id: entry.line_sha256 for entry in read_manifest(bundle).fixtures}
    predicted = load_predictions(predictions, cases, line_hashes=line_hashes)
    baseline_report = load_baseline(baseline) if baseline else None
    named = judges_named(predicted)
    calibrations: dict[tuple[str, str], CalibrationRecord | None] = {}
    if named:
        folder = default_judge_dir(judge_dir, store_root())
        digest = read_manifest(bundle).content_sha256
        calibrations = {key: calibration.find(folder, digest, *key) for key in named}
    report = build_report(
        cases,
        predicted,
        floors=floors_file,
        baseline=baseline_report,
        bundle_name=bundle.resolve().name,
        predictions_name=predictions.name,
        predictions_sha256=hashlib.sha256(predictions.read_bytes()).hexdigest(),
        baseline_name=str(baseline) if baseline else None,
        calibrations=calibrations,
    )
    run = GateRun(report)
    if out is not None:
        run.written = write_outputs(report, out, plot=plot)
    return run


def write_outputs(report: GateReport, out: Path, *, plot: bool = False) -> list[Path]:
    from curator.score.junit import render_junit
    from curator.score.markdown import render_markdown

    files = {
        REPORT_FILE: render_json(report),
        SUMMARY_FILE: render_markdown(report),
        JUNIT_FILE: render_junit(report),
    }
    written = []
    for name, text in files.items():
        atomic.write_text(out / name, text)
        written.append(out / name)
    if plot:
        from curator.score.plot import write_reliability_png

        write_reliability_png(report, out / PLOT_FILE)
        written.append(out / PLOT_FILE)
    return written


def _at_least(name: str, tally: dict, floor: float, empty: str, nothing: str) -> GateCheck:
    value = tally["accuracy"]
    if value is None:
        return GateCheck(name=name, status=empty, threshold=floor, detail=nothing)
    ok = value >= floor - TOLERANCE
    return GateCheck(
        name=name,
        status="pass" if ok else "fail",
        value=value,
        threshold=floor,
        detail=f"{tally['right']}/{tally['total']} = {value:.3f} {'>=' if ok else '<'} {floor:g}",
    )


def _brier_check(brier: float | None, max_brier: float) -> GateCheck:
    if brier is None:
        return GateCheck(
            name="brier", status="skip", threshold=max_brier, detail="no confidences given"
        )
    ok = brier <= max_brier + TOLERANCE
    return GateCheck(
        name="brier",
        status="pass" if ok else "fail",
        value=brier,
        threshold=max_brier,
        detail=f"Brier {brier:.4f} {'<=' if ok else '>'} {max_brier:g}",
    )
