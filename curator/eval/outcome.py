"""One item in one repetition: its answer judged and scored as `curator gate` scores it.

Rubrics go to the judge (a rubric passes when the verdict passes with at least the
threshold score); a thread answer's statements are checked for faithfulness when the judge
can; then the run's own prediction line is scored by curator.score, so an item is right or
wrong here exactly when the gate would say so.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from curator.eval.answer import Answer
from curator.eval.items import EvalItem
from curator.eval.system import SystemResult
from curator.judge.context import fixture_context
from curator.judge.verdict import Faithfulness, Judge, RubricCase, Verdict
from curator.model import Prediction, PredictionMetrics, RubricVerdict
from curator.score.scoring import FixtureResult, SimpleCase, score_fixture


@dataclass(frozen=True)
class RunResult:
    item: EvalItem
    answer: Answer | None
    error: str | None  # the system raised, timed out or returned no answer
    system_ms: float | None
    verdicts: dict[str, Verdict]  # rubric text -> verdict
    faithfulness: Faithfulness | None
    prediction: Prediction  # this run alone, as a predictions line
    scored: FixtureResult
    judge: str | None = None
    prompt_version: str | None = None
    threshold: float = 0.6
    timestamp: str = field(default="", compare=False)

    @property
    def run_number(self) -> int:
        return self.item.run_number

    @property
    def passed(self) -> bool:
        return self.error is None and self.scored.passed


def judge_run(
    item: EvalItem, result: SystemResult, judge: Judge | None, threshold: float, timestamp: str = ""
) -> RunResult:
    answer = result.answer
    verdicts: dict[str, Verdict] = {}
    faithfulness = None
    if answer is not None and (item.rubrics or answer.text):
        context = fixture_context(item.content)
        output = answer.text or ""
        if judge is not None:
            for rubric in item.rubrics:
                verdicts[rubric] = judge.judge(
                    RubricCase(item.id, item.fixture_sha256, rubric, output, context)
                )
            if item.kind in ("thread", "conversation") and output.strip():
                faithfulness = judge.faithfulness(
                    RubricCase(item.id, item.fixture_sha256, "", output, context)
                )
    prediction = run_prediction(item, answer, verdicts, faithfulness, threshold, judge)
    scored = score_fixture(
        SimpleCase(item.fixture, item.content, item.labels, item.task), prediction
    )
    return RunResult(
        item=item,
        answer=answer,
        error=result.error,
        system_ms=result.latency_ms,
        verdicts=verdicts,
        faithfulness=faithfulness,
        prediction=prediction,
        scored=scored,
        judge=judge.name if judge else None,
        prompt_version=judge.prompt_version if judge else None,
        threshold=threshold,
        timestamp=timestamp,
    )


def run_prediction(
    item: EvalItem,
    answer: Answer | None,
    verdicts: dict[str, Verdict],
    faithfulness: Faithfulness | None,
    threshold: float,
    judge: Judge | None,
) -> Prediction:
    """The predictions line of one run; a failed run predicts nothing and fails its rubrics."""
    metrics = dict(answer.checked_metrics()) if answer is not None else {}
    if faithfulness is not None and faithfulness.score is not None:
        metrics["faithfulness"] = faithfulness.score  # measured beats self-reported
    rubrics = [
        RubricVerdict.model_validate(
            {
                "rubric": rubric,
                "pass": rubric in verdicts and verdicts[rubric].passes(threshold),
                "score": verdicts[rubric].score if rubric in verdicts else None,
                "judge": judge.name if judge and rubric in verdicts else None,
                "prompt_version": judge.prompt_version if judge and rubric in verdicts else None,
            }
        )
        for rubric in item.rubrics
    ]
    return Prediction(
        fixture_id=item.id,
        task=item.task,
        fields=answer.field_predictions() if answer is not None else {},
        rubrics=rubrics,
        metrics=PredictionMetrics(**metrics) if metrics else None,
    )
