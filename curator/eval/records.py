"""evals.jsonl, written and read: one curator.model.EvalLine per field or rubric per repetition.

The first members are Mattermost's eval log line (name, timestamp, run_number, rubric,
output, reasoning, score, pass), so its viewer reads the file; the rest pin each result to
the fixture content it came from. Lines are sorted by fixture, repetition and item, and
written whole (atomically), so the same run gives the same file. Reading takes every line
through the same model, so lines written by Mattermost's own eval package (only its eight
members) read too; a line that is not JSON or not an eval line is an error naming the file
and line, and a file with no line at all is an error too (no results is not a pass).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from curator import atomic
from curator.errors import CuratorError, first_problem
from curator.eval.items import EvalItem
from curator.eval.outcome import RunResult
from curator.json_input import parse_lines
from curator.judge.verdict import Verdict
from curator.limits import DEFAULT, read_limited
from curator.model import EvalLine, LimitSettings
from curator.score.scoring import ItemResult

FIELD_SCORE = {True: 1.0, False: 0.0}


def run_lines(run: RunResult) -> list[EvalLine]:
    """The lines of one item in one repetition: its fields, then its rubrics, in label order."""
    lines = []
    for scored in run.scored.items:
        if scored.kind == "field":
            lines.append(
                field_line(
                    run.item, scored, run.timestamp, error=run.error, latency_ms=run.system_ms
                )
            )
        else:
            verdict = run.verdicts.get(scored.name)
            lines.append(
                rubric_line(
                    run.item,
                    scored.name,
                    run.answer.text if run.answer else None,
                    verdict,
                    run.threshold,
                    run.timestamp,
                    judge=run.judge,
                    prompt_version=run.prompt_version,
                    error=run.error,
                )
            )
    return lines


def field_line(
    item: EvalItem,
    scored: ItemResult,
    timestamp: str,
    *,
    error: str | None = None,
    latency_ms: float | None = None,
) -> EvalLine:
    expected = "(absent)" if scored.expected_absent else scored.expected or ""
    classes = ", ".join(scored.classes)
    return EvalLine.model_validate(
        {
            **_about(item, timestamp),
            "rubric": f"{scored.name} = {expected}",
            "output": scored.predicted or "",
            "reasoning": error or (scored.outcome + (f": {classes}" if classes else "")),
            "score": FIELD_SCORE[scored.right],
            "pass": scored.right,
            "kind": "field",
            "field": scored.name,
            "expected": None if scored.expected_absent else scored.expected,
            "failure_class": ("system_error" if error else scored.classes[0])
            if not scored.right
            else None,
            "error": error,
            "latency_ms": latency_ms,
        }
    )


def rubric_line(
    item: EvalItem,
    rubric: str,
    output: str | None,
    verdict: Verdict | None,
    threshold: float,
    timestamp: str,
    *,
    judge: str | None,
    prompt_version: str | None,
    error: str | None = None,
) -> EvalLine:
    data: dict[str, object] = {
        **_about(item, timestamp),
        "rubric": rubric,
        "output": output or "",
        "kind": "rubric",
        "judge": judge,
        "prompt_version": prompt_version,
    }
    if verdict is None:
        reason = error or "not judged"
        return EvalLine.model_validate(
            {
                **data,
                "reasoning": reason,
                "score": 0.0,
                "pass": False,
                "failure_class": "system_error" if error else None,
                "error": reason,
            }
        )
    return EvalLine.model_validate(
        {
            **data,
            "reasoning": verdict.reasoning or (verdict.error or ""),
            "score": verdict.score,
            "pass": verdict.passes(threshold),
            "evidence": verdict.evidence or None,
            "verified": verdict.verified,
            # A verdict that passes with a score below the threshold failed on its score alone.
            "failure_class": None
            if verdict.passes(threshold)
            else verdict.failure_class or "low_score",
            "error": verdict.error,
            "latency_ms": verdict.latency_ms,
            "prompt_tokens": verdict.prompt_tokens,
            "completion_tokens": verdict.completion_tokens,
        }
    )


def render(lines: Iterable[EvalLine]) -> str:
    return "".join(line.model_dump_json(by_alias=True) + "\n" for line in lines)


def write(path: Path, lines: Iterable[EvalLine]) -> None:
    atomic.write_text(path, render(lines))


def _about(item: EvalItem, timestamp: str) -> dict[str, object]:
    task = {} if item.task is None else {"task": item.task}
    return {
        **task,
        "name": item.name,
        "timestamp": timestamp,
        "run_number": item.run_number,
        "fixture_id": item.id,
        "bundle_version": item.bundle_version,
        "fixture_sha256": item.fixture_sha256,
        "category": item.category,
        "adversarial": item.adversarial,
        "mutations": list(item.mutations),
        "parent": item.parent,
    }


@dataclass(frozen=True)
class Run:
    """One evals.jsonl file: its lines in file order."""

    path: Path
    lines: list[EvalLine]

    @property
    def label(self) -> str:
        return self.path.name


def read_run(path: Path, limits: LimitSettings = DEFAULT) -> Run:
    """The run in `path`; a file with no line (empty or blank) is an error, not a run that
    passed: a CI step whose eval wrote nothing must not be green."""
    text = read_limited(path, limits.json_bytes, "max_json_mb")
    lines = []
    for number, data in parse_lines(text, str(path), limits):
        if not isinstance(data, dict):
            raise CuratorError(f"{path}:{number}: not an eval line (a JSON object)")
        try:
            lines.append(EvalLine.model_validate(data))
        except ValidationError as error:
            raise CuratorError(f"{path}:{number}: {first_problem(error)}") from None
    if not lines:
        raise CuratorError(f"{path}: no results were recorded (the file has no eval line)")
    return Run(path, lines)
