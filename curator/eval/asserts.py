"""Assertions for eval tests: fields compared by type, rubrics asked of the judge.

    def test_extraction(curator_item):
        assert_fields(curator_item, my_extractor(curator_item.pages))

    def test_summary(curator_item):
        summary = my_summariser(curator_item.thread)
        for rubric in curator_item.rubrics:
            assert_rubric(curator_item, summary, rubric)

Both record evals.jsonl lines through the active recorder (the pytest plugin installs one
per session); without one, they only assert.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from curator import clock
from curator.eval.answer import Answer, BadAnswer
from curator.eval.items import EvalItem
from curator.eval.records import field_line, rubric_line
from curator.judge.context import fixture_context
from curator.judge.verdict import Judge, RubricCase, Verdict
from curator.model import EvalLine, Prediction
from curator.score.scoring import SimpleCase, score_fixture


@dataclass
class Recorder:
    """Where assertions find their judge and put their evals.jsonl lines."""

    judge: Judge | None = None
    threshold: float = 0.6
    max_answer_bytes: int | None = None  # a larger answer fails, and is not recorded
    test: str | None = None  # the pytest node id of the test running now
    lines: list[EvalLine] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def record(self, line: EvalLine) -> None:
        if self.test is not None:
            line = line.model_copy(update={"test": self.test})
        with self._lock:
            self.lines.append(line)


_active: Recorder | None = None


def activate(recorder: Recorder | None) -> None:
    global _active
    _active = recorder


def active() -> Recorder | None:
    return _active


def assert_fields(item: EvalItem, prediction: Mapping[str, Any] | Answer) -> None:
    """Every labelled field of the item is right: equal to the expected value or an accepted
    variant after type-aware normalisation ("2024-01-15" = "January 15, 2024"), and empty
    where the field is expected absent. `prediction` maps field -> value or
    {"value": ..., "confidence": ...}."""
    if item.labels is None or not item.labels.fields:
        raise ValueError(f"{item.id} has no labelled fields (a thread? use assert_rubric)")
    answer = prediction if isinstance(prediction, Answer) else Answer(fields=dict(prediction))
    recorder, now = active(), clock.now_iso()
    too_large = answer.too_large(recorder.max_answer_bytes if recorder else None)
    try:
        fields = {} if too_large else answer.field_predictions()
    except BadAnswer as error:
        raise AssertionError(f"{item.id}: {error}") from None
    scored = score_fixture(
        SimpleCase(item.fixture, item.content, item.labels, item.task),
        Prediction(fixture_id=item.id, task=item.task, fields=fields),
    )
    wrong = []
    for result in scored.items:
        if result.kind != "field":
            continue
        if recorder is not None:
            recorder.record(field_line(item, result, now, error=too_large))
        if too_large:
            continue
        if not result.right:
            expected = "(absent)" if result.expected_absent else repr(result.expected)
            variants = f" or {', '.join(map(repr, result.variants))}" if result.variants else ""
            wrong.append(
                f"{result.name}: expected {expected}{variants}, got {result.predicted!r} "
                f"[{', '.join(result.classes)}]"
            )
    if too_large:
        raise AssertionError(f"{item.id}: {too_large}")
    if wrong:
        raise AssertionError(f"{item.id}: {len(wrong)} field(s) wrong\n  " + "\n  ".join(wrong))


def assert_rubric(
    item: EvalItem, output: str, rubric: str, *, threshold: float | None = None
) -> Verdict:
    """The judge finds that `output` meets `rubric`: its verdict passes with a score of at
    least `threshold` (the session's, 0.6 by default, as Mattermost's LLMRubricT)."""
    recorder = active()
    if recorder is None or recorder.judge is None:
        raise RuntimeError(
            "assert_rubric needs a judge: run pytest with --curator-judge rules|openai"
        )
    needed = recorder.threshold if threshold is None else threshold
    judge = recorder.judge
    if too_large := Answer(text=output).too_large(recorder.max_answer_bytes):
        recorder.record(
            rubric_line(
                item,
                rubric,
                None,
                None,
                needed,
                clock.now_iso(),
                judge=judge.name,
                prompt_version=judge.prompt_version,
                error=too_large,
            )
        )
        raise AssertionError(f"{item.id}: {too_large}")
    case = RubricCase(item.id, item.fixture_sha256, rubric, output, fixture_context(item.content))
    verdict = judge.judge(case)
    recorder.record(
        rubric_line(
            item,
            rubric,
            output,
            verdict,
            needed,
            clock.now_iso(),
            judge=judge.name,
            prompt_version=judge.prompt_version,
        )
    )
    if not verdict.passes(needed):
        why = verdict.error or verdict.reasoning or "no reasoning"
        raise AssertionError(
            f"{item.id}: rubric not met: {rubric!r} (judge {judge.name}: pass={verdict.passed}, "
            f"score {verdict.score:.2f} vs {needed:g}, evidence "
            f"{'verified' if verdict.verified else 'unverified'}): {why}"
        )
    return verdict
