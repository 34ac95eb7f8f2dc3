"""Repetitions to one predictions line per fixture: the majority answer, and how often it passed.

`curator gate` scores one answer per item, so N runs are folded into the answer most runs
gave: per field the value given most often (compared by its type and read as the scorer
reads it, so on a dollar invoice "$1,250" and "1250.00" count together; a tie goes to the
value given first), with the mean confidence of the runs
that gave it; per rubric a pass when more than half the runs passed (a tie fails), with the
mean score; metrics averaged. `runs` keeps what the majority hides: in how many runs the
fixture passed, which the gate's pass-rate and flaky-share floors read.
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import fmean

from curator.eval.outcome import RunResult
from curator.model import FieldPrediction, Prediction, PredictionMetrics, RubricVerdict, RunStats
from curator.normalise import UnparsableValue, normalise, normalise_text
from curator.reading import Reading, reading_of
from curator.score.scoring import value_text


def fold(runs: Sequence[RunResult]) -> Prediction:
    """One fixture's (or one task's) runs, all of the same item, as its predictions line."""
    first = runs[0]
    labels = first.item.labels
    types = {name: label.type for name, label in labels.fields.items()} if labels else {}
    reading = reading_of(first.item.content.full_text(), labels.locale if labels else None)
    names = list(types) + sorted({n for r in runs for n in r.prediction.fields} - set(types))
    majority = {
        name: _majority_field(
            [r.prediction.fields.get(name) for r in runs], types.get(name, "text"), reading
        )
        for name in names
    }
    fields = {name: prediction for name, prediction in majority.items() if prediction is not None}
    rubrics = [
        _majority_verdict([r.prediction.rubrics[i] for r in runs])
        for i in range(len(first.prediction.rubrics))
    ]
    metrics: dict[str, float] = {}
    for name in ("context_recall", "faithfulness", "answer_relevancy"):
        values = [
            getattr(r.prediction.metrics, name) for r in runs if r.prediction.metrics is not None
        ]
        present = [v for v in values if v is not None]
        if present:
            metrics[name] = fmean(present)
    return Prediction(
        fixture_id=first.item.id,
        task=first.item.task,
        fields=fields,
        rubrics=rubrics,
        metrics=PredictionMetrics(**metrics) if metrics else None,
        runs=RunStats(
            repetitions=len(runs),
            passed=sum(r.passed for r in runs),
            errors=sum(r.error is not None for r in runs),
        ),
    )


def _majority_field(
    given: list[FieldPrediction | None], field_type: str, reading: Reading
) -> FieldPrediction | None:
    groups: dict[str | None, list[FieldPrediction | None]] = {}
    for prediction in given:
        groups.setdefault(_key(prediction, field_type, reading), []).append(prediction)
    # max() keeps the first of equal counts, and dicts keep first-seen order: ties go to the
    # earliest.
    key = max(groups, key=lambda k: len(groups[k]))
    chosen = groups[key]
    if key is None:
        return (
            None
            if all(p is None for p in chosen)
            else FieldPrediction(value=None, confidence=_mean_confidence(chosen))
        )
    representative = next(p for p in chosen if p is not None)
    return FieldPrediction(value=representative.value, confidence=_mean_confidence(chosen))


def _key(prediction: FieldPrediction | None, field_type: str, reading: Reading) -> str | None:
    text = value_text(prediction.value) if prediction is not None else None
    if text is None:
        return None
    try:
        return normalise(text, field_type, reading)
    except UnparsableValue:
        return normalise_text(text)


def _mean_confidence(chosen: list[FieldPrediction | None]) -> float | None:
    values = [p.confidence for p in chosen if p is not None and p.confidence is not None]
    return fmean(values) if values else None


def _majority_verdict(verdicts: list[RubricVerdict]) -> RubricVerdict:
    passed = sum(v.passed for v in verdicts) * 2 > len(verdicts)
    scores = [v.score for v in verdicts if v.score is not None]
    judged = next((v for v in verdicts if v.judge), verdicts[0])
    return RubricVerdict.model_validate(
        {
            "rubric": verdicts[0].rubric,
            "pass": passed,
            "score": fmean(scores) if scores else None,
            "judge": judged.judge,
            "prompt_version": judged.prompt_version,
        }
    )
