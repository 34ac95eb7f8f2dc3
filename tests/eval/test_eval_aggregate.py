"""Repetitions folded into one predictions line: the majority answer, with the run counts."""

from __future__ import annotations

import pytest

from curator.eval.aggregate import fold
from curator.eval.items import EvalItem
from curator.eval.outcome import RunResult
from curator.model import FieldPrediction, Prediction, RubricVerdict
from curator.score.scoring import FixtureResult
from tests.score.score_builders import document_case


def runs(fields: list[dict], rubric_passes: list[bool], passed: list[bool]) -> list[RunResult]:
    case = document_case("lease-a-0000000a")
    results = []
    for number, (given, rubric, ok) in enumerate(zip(fields, rubric_passes, passed, strict=True)):
        item = EvalItem(
            id=case.fixture.id,
            kind="document",
            doc_type="lease",
            category="clean",
            adversarial=False,
            mutations=(),
            parent=None,
            fields={},
            pages=(),
            thread=None,
            rubrics=("says hi",),
            bundle_version="1.0.0",
            fixture_sha256="a" * 64,
            fixture=case.fixture,
            content=case.content,
            labels=case.labels,
            run_number=number,
        )
        prediction = Prediction(
            fixture_id=item.id,
            fields={
                name: FieldPrediction(value=value, confidence=confidence)
                for name, (value, confidence) in given.items()
            },
            rubrics=[
                RubricVerdict.model_validate(
                    {
                        "rubric": "says hi",
                        "pass": rubric,
                        "score": 0.8 if rubric else 0.2,
                        "judge": "rules",
                        "prompt_version": "rules-1",
                    }
                )
            ],
        )
        scored = FixtureResult(item.id, "document", "clean", False, [], False, [])
        results.append(
            RunResult(item, None, None if ok else "boom", 1.0, {}, None, prediction, scored)
        )
    return results


def test_the_majority_value_compared_by_type_wins_with_its_mean_confidence():
    folded = fold(
        runs(
            [
                {"monthly_rent": ("$1,250.00", 0.9)},
                {"monthly_rent": ("1250", 0.7)},
                {"monthly_rent": ("$980.00", 1.0)},
            ],
            [True, False, False],
            [True, True, False],
        )
    )
    rent = folded.fields["monthly_rent"]
    assert rent.value == "$1,250.00" and rent.confidence == pytest.approx(
        0.8
    )  # "1250" counts with "$1,250.00"
    assert folded.rubrics[0].passed is False and folded.rubrics[0].score == pytest.approx(
        0.4
    )  # 1 of 3 passed
    assert folded.rubrics[0].judge == "rules"
    assert (folded.runs.repetitions, folded.runs.passed, folded.runs.errors) == (3, 2, 1)


def test_a_tie_goes_to_the_earliest_answer_and_a_rubric_tie_fails():
    folded = fold(
        runs(
            [{"tenant": ("Ana Lima", 0.6)}, {"tenant": ("Ben Cole", 0.9)}],
            [True, False],
            [True, False],
        )
    )
    assert folded.fields["tenant"].value == "Ana Lima"
    assert folded.rubrics[0].passed is False  # half is not a majority
