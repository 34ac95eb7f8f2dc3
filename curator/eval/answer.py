"""What a system returns: an Answer, or the shorthand a system may use instead.

Answer(fields={"tenant": "Jordan Blake", "monthly_rent": {"value": "$1,250.00", "confidence": 0.9}})
Answer(text="@sam.lee will roll back the deploy.", metrics={"context_recall": 0.9})
{"tenant": "Jordan Blake"}      a mapping: the fields
"Sam will roll back."           a text: the answer judged on the rubrics
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from curator.errors import first_problem
from curator.model import FieldPrediction, PredictionMetrics


class BadAnswer(Exception):
    """The system returned something that is not an answer: an error for that run."""


@dataclass(frozen=True)
class Answer:
    fields: Mapping[str, Any] = field(
        default_factory=dict
    )  # name -> value or {"value", "confidence"}
    text: str | None = None  # a summary or reply, judged on the fixture's rubrics
    metrics: Mapping[str, float] = field(
        default_factory=dict
    )  # context_recall, answer_relevancy, ...

    def field_predictions(self) -> dict[str, FieldPrediction]:
        predictions = {}
        for name, given in self.fields.items():
            data = given if isinstance(given, Mapping) else {"value": given}
            try:
                predictions[name] = FieldPrediction.model_validate(data)
            except ValidationError as error:
                raise BadAnswer(f"field {name}: {first_problem(error)}") from None
        return predictions

    def checked_metrics(self) -> dict[str, float]:
        try:
            return PredictionMetrics.model_validate(dict(self.metrics)).model_dump(
                exclude_none=True
            )
        except ValidationError as error:
            raise BadAnswer(f"metrics: {first_problem(error)}") from None


def as_answer(returned: object) -> Answer:
    if isinstance(returned, Answer):
        return returned
    if isinstance(returned, str):
        return Answer(text=returned)
    if isinstance(returned, Mapping):
        return Answer(fields=dict(returned))
    raise BadAnswer(
        f"a system returns an Answer, a mapping of fields or a text, not {type(returned).__name__}"
    )
