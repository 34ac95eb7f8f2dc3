"""Judge calibration: is a judge right about answers whose verdict is known?

Every rubric of a bundle fixture is judged on the fixture's known-bad answers (production
failures: each must fail, since the fixture's rubrics are the corrections of what it got
wrong) and on its reviewed reference answer (`curator label set ID --reference TEXT`:
must pass). The record says the judge's accuracy (judgements that agree), its false-pass
rate (known-bad judgements that passed) and the agreement per rubric; a judgement the judge
failed to make counts as disagreeing. It is kept in the judge folder under the bundle's
content digest and the judge's name and prompt version, where `curator gate` looks it up
before it trusts that judge's verdicts on that bundle.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from curator import atomic, clock
from curator.errors import CuratorError
from curator.judge.context import fixture_context
from curator.judge.verdict import Judge, RubricCase
from curator.model import (
    CalibrationCase,
    CalibrationRecord,
    Floors,
    RubricAgreement,
    task_truths,
)

CALIBRATIONS = "calibrations"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class _Question:
    case: RubricCase
    answer: str  # "known-bad" | "reference"
    task: str | None = None  # the named task whose rubric and reference it is


def calibrate(
    bundle: Path, judge: Judge, *, threshold: float = 0.6, concurrency: int = 4
) -> CalibrationRecord:
    """Judge every rubric on the bundle's known-bad and reference answers (per task: a named
    task's rubrics on its own reference, and on the fixture's known-bad answers); nothing to
    judge is an error (the gate could never trust the judge on this bundle)."""
    from curator.bundle import load
    from curator.bundle.manifest import read_manifest

    manifest = read_manifest(bundle)
    line_sha256 = {entry.id: entry.line_sha256 for entry in manifest.fixtures}
    questions: list[_Question] = []
    for item in load(bundle):
        if item.labels is None:
            continue
        context = fixture_context(item.content)
        for task, truth in task_truths(item.labels):
            assert truth is not None
            answers = [("known-bad", bad.text) for bad in item.fixture.known_bad if bad.text]
            if truth.reference:
                answers.append(("reference", truth.reference))
            for answer, text in answers:
                for rubric in truth.rubrics:
                    case = RubricCase(item.id, line_sha256[item.id], rubric.text, text, context)
                    questions.append(_Question(case, answer, task))
    if not questions:
        raise CuratorError(
            f"bundle {manifest.bundle_version} has no known-bad or reference answers on fixtures "
            "with rubrics: nothing to calibrate a judge on (add one with "
            "`curator label set ID --reference TEXT`)"
        )
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        verdicts = list(pool.map(lambda q: judge.judge(q.case), questions))
    results = [
        CalibrationCase(
            fixture_id=q.case.fixture_id,
            task=q.task,
            rubric=q.case.rubric,
            answer=q.answer,
            expected_pass=q.answer == "reference",
            passed=v.passes(threshold),
            score=v.score,
            reasoning=v.reasoning,
            error=v.error,
        )
        for q, v in zip(questions, verdicts, strict=True)
    ]
    bad = [r for r in results if r.answer == "known-bad"]
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
    )


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
            f"({record.known_bad} known-bad, {record.reference} reference, {record.errors} "
            "errors)"
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
) -> Calibrated:
    """Calibrate, keep the record in the judge folder, and say how it fares against `floors`."""
    record = calibrate(bundle, judge, threshold=threshold, concurrency=concurrency)
    return Calibrated(record, save(folder, record), shortfalls(record, floors))


def shortfalls(record: CalibrationRecord, floors: Floors) -> list[str]:
    """Why the gate must not trust this judge: empty when it meets the floors."""
    problems = []
    if record.accuracy < floors.min_judge_accuracy - 1e-9:
        problems.append(f"accuracy {record.accuracy:.3f} < {floors.min_judge_accuracy:g}")
    if (
        record.false_pass_rate is not None
        and record.false_pass_rate > floors.max_judge_false_pass + 1e-9
    ):
        problems.append(
            f"false-pass rate {record.false_pass_rate:.3f} > {floors.max_judge_false_pass:g}"
        )
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
        return CalibrationRecord.model_validate_json(path.read_bytes())
    except FileNotFoundError:
        return None
    except ValidationError:
        raise CuratorError(f"{path}: not a calibration record") from None


def _by_rubric(results: list[CalibrationCase]) -> list[RubricAgreement]:
    grouped: dict[str, list[CalibrationCase]] = {}
    for result in results:
        grouped.setdefault(result.rubric, []).append(result)
    rows = []
    for rubric, cases in grouped.items():
        agreed = sum(case.agrees for case in cases)
        rows.append(
            RubricAgreement(
                rubric=rubric, cases=len(cases), agreed=agreed, agreement=agreed / len(cases)
            )
        )
    return rows
