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
from curator.limits import size_text
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

    def too_large(self, max_bytes: int | None) -> str | None:
        """Why the answer is too large to record (its text and field values together are
        over `max_bytes`: evals.jsonl would hold it once per item), or None."""
        if max_bytes is None:
            return None
        values = [
            given.get("value") if isinstance(given, Mapping) else given
            for given in self.fields.values()
        ]
        size = len((self.text or "").encode("utf-8")) + sum(
            len(str(value).encode("utf-8")) for value in values if value is not None
        )
        if size <= max_bytes:
            return None
        return (
            f"the system's answer is {size_text(size)}, over the cap of {size_text(max_bytes)} "
            "([judge] max_reply_bytes)"
        )

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
