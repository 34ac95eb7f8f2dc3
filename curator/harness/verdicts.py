"""curator's scoring of one harness answer, from an export's metadata alone.

Every adapter inside a harness (inspect_ai scorer, DeepEval metric, Ragas metric,
promptfoo assertion) and `curator gate` reading a harness's results call this, and it calls
the gate's own item scoring (curator.score.scoring.score_items), so a field is right in
the harness exactly when the gate says so: compared by type ("2024-01-15" is "January 15,
2024"), any accepted variant right, an expected-absent field right only when left empty,
an unanswerable field no item at all.

An answer is the system's output: a JSON object of field name -> value (a value may be
{"value": ..., "confidence": ...}), or a curator prediction ({"fields": {...}, "rubrics":
[{"rubric": ..., "pass": ...}]}); JSON inside a Markdown code fence is read too. Output
that holds no JSON object answers no field (each one omitted).
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import ValidationError

from curator.harness.render import PAGE_BREAK
from curator.model import FieldLabel, FieldPrediction, LabelRevision, Prediction, RubricVerdict
from curator.normalise import normalise_text
from curator.score.scoring import ItemResult, score_items

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


def labels_of(metadata: dict[str, Any]) -> LabelRevision:
    """The fixture's truth as an export's metadata states it."""
    fields = {
        name: FieldLabel.model_validate(
            {k: v for k, v in spec.items() if v is not None or k == "value"}
        )
        for name, spec in metadata.get("fields", {}).items()
    }
    return LabelRevision.model_validate(
        {
            "rev": metadata.get("label_rev") or 1,
            "time": "",
            "author": "",
            "source": "manual",
            "fields": fields,
            "rubrics": metadata.get("rubrics", []),
            "locale": metadata.get("locale"),
        }
    )


def parse_answer(output: str | dict[str, Any] | None) -> dict[str, Any] | None:
    """The JSON object a system answered with, or None when its output holds none."""
    if isinstance(output, dict) or output is None:
        return output
    candidates = [output.strip(), *(m.strip() for m in _FENCE.findall(output))]
    start, end = output.find("{"), output.rfind("}")
    if 0 <= start < end:
        candidates.append(output[start : end + 1])
    for text in candidates:
        try:
            found = json.loads(text)
        except ValueError:
            continue
        if isinstance(found, dict):
            return found
    return None


def prediction_of(
    fixture_id: str,
    output: str | dict[str, Any] | None,
    labels: LabelRevision,
    rubric_verdicts: list[RubricVerdict] | None = None,
    task: str | None = None,
) -> Prediction:
    """A curator prediction from a system's output, as leniently as a harness needs: a value
    that is not a curator field value is kept as its JSON text (so it scores wrong, not as
    an error), a rubric verdict for a rubric the labels lack is dropped."""
    answer = parse_answer(output) or {}
    nested = isinstance(answer.get("fields"), dict)
    raw_fields = answer["fields"] if nested else answer
    raw_rubrics = answer.get("rubrics", []) if nested else []
    fields = {str(name): _field(value) for name, value in raw_fields.items()}
    known = {normalise_text(r.text) for r in labels.rubrics}
    verdicts: dict[str, RubricVerdict] = {}
    for raw in [*(raw_rubrics if isinstance(raw_rubrics, list) else []), *(rubric_verdicts or [])]:
        verdict = raw if isinstance(raw, RubricVerdict) else _verdict(raw)
        key = normalise_text(verdict.rubric) if verdict else ""
        if verdict and key in known:
            verdicts[key] = verdict  # a harness's own verdict (given last) wins
    return Prediction(
        fixture_id=fixture_id, task=task, fields=fields, rubrics=list(verdicts.values())
    )


def score_answer(
    metadata: dict[str, Any],
    output: str | dict[str, Any] | None,
    input_text: str = "",
    rubric_verdicts: list[RubricVerdict] | None = None,
) -> list[ItemResult]:
    """Each field and rubric of the fixture `metadata` describes, judged as the gate judges.

    `input_text` is the input the harness gave the system (only which failure class a wrong
    value gets depends on it: a value the document does not hold is a hallucination)."""
    labels = labels_of(metadata)
    fixture_id = str(metadata.get("fixture_id") or "?")  # a sample of no curator export: no id
    prediction = prediction_of(fixture_id, output, labels, rubric_verdicts)
    document_text = input_text.replace(PAGE_BREAK, "\n")
    return score_items(labels, prediction, document_text, list(metadata.get("mutations", [])))


def summary(items: list[ItemResult]) -> str:
    """One line a harness shows as the explanation: each item's outcome."""
    if not items:
        return "no labelled item"
    return "; ".join(f"{item.name}: {item.outcome}" for item in items)


def _field(value: Any) -> FieldPrediction:
    if isinstance(value, dict) and "value" in value:
        try:
            return FieldPrediction.model_validate(value)
        except ValidationError:
            value = value["value"]
    if value is None or (isinstance(value, str | int | float) and not isinstance(value, bool)):
        return FieldPrediction(value=value)
    return FieldPrediction(value=json.dumps(value, ensure_ascii=False))


def _verdict(raw: Any) -> RubricVerdict | None:
    try:
        return RubricVerdict.model_validate(raw)
    except ValidationError:
        return None
