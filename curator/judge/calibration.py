"""Judge calibration: is a judge right about answers whose verdict is known?

Every rubric of a bundle fixture, and every labelled field asked as a rubric, is judged on
answers made from the fixtures themselves (curator.judge.known_answers): reviewed
references and true values must pass; hand-written known-bad answers and the ones derived
from the fixtures (evidence removed, a fact contradicted, another fixture's reference, an
empty and an off-topic answer; for fields a parent's, a neighbour's or a shifted value) must
fail. Each rubric kind ("rubric", "field") needs enough of both, or nothing is judged.

The record says the judge's accuracy (judgements that agree), per kind its false-pass rate
(known-bad judgements that passed) and false-fail rate (must-pass judgements that did not),
each with a Wilson 95 % interval, and the agreement per rubric; a judgement the judge failed
to make counts as disagreeing. A judge is trusted when its accuracy meets the floor and the
upper bound of every kind's false-pass rate is within `max_judge_false_pass`: a few lucky
answers are not evidence. The record is kept in the judge folder under the bundle's content
digest and the judge's name and prompt version, where `curator gate` looks it up before it
trusts that judge's verdicts on that bundle.
"""

from __future__ import annotations

import math
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from curator import atomic, clock
from curator.bundle import BundledFixture
from curator.errors import CuratorError
from curator.judge.context import fixture_context
from curator.judge.known_answers import KnownAnswer, known_answers
from curator.judge.verdict import Judge, RubricCase
from curator.model import (
    CalibrationCase,
    CalibrationRecord,
    ErrorRate,
    Floors,
    KindRates,
    RubricAgreement,
)

CALIBRATIONS = "calibrations"
MIN_CASES = 3  # known-bad and must-pass judgements each rubric kind needs, by default
_Z95 = 1.959963984540054
_TOLERANCE = 1e-9  # rates are fractions and floors decimals
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def calibrate(
    bundle: Path,
    judge: Judge,
    *,
    threshold: float = 0.6,
    concurrency: int = 4,
    seed: int = 0,
    min_negatives: int = MIN_CASES,
    min_positives: int = MIN_CASES,
) -> CalibrationRecord:
    """Judge every rubric and field of the bundle on its known answers. A bundle that cannot
    give each rubric kind `min_negatives` known-bad and `min_positives` must-pass answers is
    refused before any judge call (the gate could never trust the judge on it)."""
    from curator.bundle import load
    from curator.bundle.manifest import read_manifest

    manifest = read_manifest(bundle)
    line_sha256 = {entry.id: entry.line_sha256 for entry in manifest.fixtures}
    items = list(load(bundle))
    answers = known_answers(items, line_sha256, seed)
    _enough(manifest.bundle_version, items, answers, min_negatives, min_positives)
    contexts = {item.id: fixture_context(item.content) for item in items}

    def ask(answer: KnownAnswer) -> CalibrationCase:
        case = RubricCase(
            answer.fixture_id,
            answer.fixture_sha256,
            answer.rubric,
            answer.text,
            contexts[answer.fixture_id],
        )
        verdict = judge.judge(case)
        return CalibrationCase(
            fixture_id=answer.fixture_id,
            task=answer.task,
            rubric=answer.rubric,
            answer=answer.made,
            expected_pass=answer.expected_pass,
            passed=verdict.passes(threshold),
            score=verdict.score,
            reasoning=verdict.reasoning,
            error=verdict.error,
            kind=answer.kind,
            field=answer.field,
            text=answer.text,
            detail=answer.detail,
        )

    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        results = list(pool.map(ask, answers))
    bad = [r for r in results if not r.expected_pass]
    return CalibrationRecord(
        bundle_version=manifest.bundle_version,
        bundle_content_sha256=manifest.content_sha256,
        judge=judge.name,
        prompt_version=judge.prompt_version,
        calibrated_at=clock.now_iso(),
        cases=len(results),
        known_bad=len(bad),
        reference=len(results) - len(bad),
        errors=sum(r.error is not None for r in results),
        accuracy=sum(r.agrees for r in results) / len(results),
        false_pass_rate=sum(r.passed for r in bad) / len(bad) if bad else None,
        by_rubric=_by_rubric(results),
        results=results,
        by_kind=kind_rates(results),
        seed=seed,
    )


def _enough(
    version: str,
    items: list[BundledFixture],
    answers: list[KnownAnswer],
    negatives: int,
    positives: int,
) -> None:
    """Every rubric kind the bundle has needs its known answers: a judge calibrated on fields
    alone would otherwise be trusted on rubrics it was never tried on."""
    kinds = [
        kind
        for kind, present in (
            ("rubric", any(item.labels and item.labels.all_rubrics() for item in items)),
            ("field", any(answer.kind == "field" for answer in answers)),
        )
        if present
    ]
    if not kinds:
        raise CuratorError(
            f"bundle {version} has no fixture with rubrics or labelled fields: nothing to "
            "calibrate a judge on"
        )
    short = []
    for kind in kinds:
        of_kind = [answer for answer in answers if answer.kind == kind]
        good = sum(answer.expected_pass for answer in of_kind)
        if len(of_kind) - good < negatives or good < positives:
            short.append(f"{kind} {len(of_kind) - good} known-bad and {good} must-pass")
    if short:
        raise CuratorError(
            f"bundle {version} gives {', '.join(short)} answers; calibration needs at least "
            f"{negatives} known-bad and {positives} must-pass per rubric kind (add reviewed "
            "answers with `curator label set ID --reference TEXT`)"
        )


def wilson(wrong: int, cases: int) -> tuple[float, float]:
    """The Wilson score 95 % interval of the rate wrong/cases (cases > 0)."""
    rate = wrong / cases
    spread = _Z95 * _Z95 / cases
    centre = (rate + spread / 2) / (1 + spread)
    half = _Z95 * math.sqrt(rate * (1 - rate) / cases + spread / (4 * cases)) / (1 + spread)
    return max(0.0, centre - half), min(1.0, centre + half)


def kind_rates(results: list[CalibrationCase]) -> list[KindRates]:
    """False-pass and false-fail rates per rubric kind, in the order the kinds first appear."""
    rates = []
    for kind in dict.fromkeys(result.kind for result in results):
        of_kind = [result for result in results if result.kind == kind]
        bad = [result for result in of_kind if not result.expected_pass]
        good = [result for result in of_kind if result.expected_pass]
        rates.append(
            KindRates(
                kind=kind,
                false_pass=_rate(sum(result.passed for result in bad), len(bad)),
                false_fail=_rate(sum(not result.agrees for result in good), len(good)),
            )
        )
    return rates


def _rate(wrong: int, cases: int) -> ErrorRate:
    if not cases:
        return ErrorRate(cases=0, wrong=0)
    low, high = wilson(wrong, cases)
    return ErrorRate(cases=cases, wrong=wrong, rate=wrong / cases, low=low, high=high)


def describe(rate: ErrorRate) -> str:
    """The rate as "3/40 = 0.075 (95% CI 0.026-0.199)", or "none judged"."""
    if rate.rate is None or rate.low is None or rate.high is None:
        return "none judged"
    return f"{rate.wrong}/{rate.cases} = {rate.rate:.3f} (95% CI {rate.low:.3f}-{rate.high:.3f})"


@dataclass(frozen=True)
class Calibrated:
    """A calibration as `curator judge calibrate` reports it: exit 1 below the judge floors."""

    record: CalibrationRecord
    path: Path
    shortfalls: list[str]

    @property
    def exit_code(self) -> int:
        return 1 if self.shortfalls else 0

    def as_json(self) -> dict[str, object]:
        return {
            **self.record.model_dump(mode="json"),
            "record": str(self.path),
            "shortfalls": self.shortfalls,
        }

    def render(self) -> str:
        record = self.record
        false_pass = "-" if record.false_pass_rate is None else f"{record.false_pass_rate:.3f}"
        lines = [
            f"judge {record.judge} on bundle {record.bundle_version}: accuracy "
            f"{record.accuracy:.3f}, false-pass rate {false_pass} over {record.cases} judgements "
            f"({record.known_bad} known-bad, {record.reference} must-pass, {record.errors} "
            "errors)"
        ]
        lines += [
            f"  {rates.kind}: false-pass {describe(rates.false_pass)}, "
            f"false-fail {describe(rates.false_fail)}"
            for rates in record.by_kind
        ]
        lines += [f"  {row.agreed}/{row.cases} agree  {row.rubric}" for row in record.by_rubric]
        verdict = (
            "REFUSED: " + "; ".join(self.shortfalls)
            if self.shortfalls
            else "meets the judge floors"
        )
        lines.append(f"  {verdict}")
        lines.append(f"  wrote {self.path}")
        return "\n".join(lines)


def calibrate_and_save(
    bundle: Path,
    judge: Judge,
    folder: Path,
    floors: Floors,
    *,
    threshold: float = 0.6,
    concurrency: int = 4,
    seed: int = 0,
    min_negatives: int = MIN_CASES,
    min_positives: int = MIN_CASES,
) -> Calibrated:
    """Calibrate, keep the record in the judge folder, and say how it fares against `floors`."""
    record = calibrate(
        bundle,
        judge,
        threshold=threshold,
        concurrency=concurrency,
        seed=seed,
        min_negatives=min_negatives,
        min_positives=min_positives,
    )
    return Calibrated(record, save(folder, record), shortfalls(record, floors))


def shortfalls(record: CalibrationRecord, floors: Floors) -> list[str]:
    """Why the gate must not trust this judge: empty when it meets the floors. Rates are
    recomputed from the judgements, so a record written before intervals is held to them too."""
    problems = []
    if record.accuracy < floors.min_judge_accuracy - _TOLERANCE:
        problems.append(f"accuracy {record.accuracy:.3f} < {floors.min_judge_accuracy:g}")
    ceiling = floors.max_judge_false_pass
    for rates in kind_rates(record.results):
        high = rates.false_pass.high
        if high is None:
            problems.append(f"{rates.kind}: no known-bad answer judged, so no false-pass rate")
        elif high > ceiling + _TOLERANCE:
            problems.append(
                f"{rates.kind} false-pass {describe(rates.false_pass)}: upper bound > {ceiling:g}"
            )
    if not record.results:
        problems.append("no judgement recorded")
    return problems


def record_path(folder: Path, content_sha256: str, judge: str, prompt_version: str) -> Path:
    name = _UNSAFE.sub("_", f"{judge}@{prompt_version}") + ".json"
    return folder / CALIBRATIONS / content_sha256 / name


def save(folder: Path, record: CalibrationRecord) -> Path:
    path = record_path(folder, record.bundle_content_sha256, record.judge, record.prompt_version)
    atomic.write_text(path, record.model_dump_json(indent=2) + "\n")
    return path


def find(
    folder: Path, content_sha256: str, judge: str, prompt_version: str
) -> CalibrationRecord | None:
    """The calibration of this judge on the bundle with this content, if it was made."""
    path = record_path(folder, content_sha256, judge, prompt_version)
    try:
        record = CalibrationRecord.model_validate_json(path.read_bytes())
    except FileNotFoundError:
        return None
    except ValidationError:
        raise CuratorError(f"{path}: not a calibration record") from None
    # A record copied or renamed into this place is no calibration of this bundle.
    mine = (record.bundle_content_sha256, record.judge, record.prompt_version)
    return record if mine == (content_sha256, judge, prompt_version) else None


def _by_rubric(results: list[CalibrationCase]) -> list[RubricAgreement]:
    grouped: dict[str, list[CalibrationCase]] = {}
    for result in results:
        name = f"field {result.field}" if result.kind == "field" else result.rubric
        grouped.setdefault(name, []).append(result)
    rows = []
    for rubric, cases in grouped.items():
        agreed = sum(case.agrees for case in cases)
        rows.append(
            RubricAgreement(
                rubric=rubric, cases=len(cases), agreed=agreed, agreement=agreed / len(cases)
            )
        )
    return rows
