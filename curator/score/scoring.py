"""Judge one fixture's prediction against its labels, item by item, and classify the misses.

An item is a labelled field (documents) or a rubric statement (threads). Field values are
compared with curator.normalise, so "2024-01-15" and "January 15, 2024" are one answer,
read as the document writes them: in the locale the labels record, an amount written
without a currency in the document's one currency.
Failure classes are independent predicates (an item may carry several); docs/guide/gate.md
defines each one and tests/score/test_gate_scoring.py checks each on a hand-built case.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from curator.model import (
    Content,
    FieldLabel,
    FieldPrediction,
    FieldType,
    Fixture,
    LabelRevision,
    Prediction,
    task_label,
    task_truths,
)
from curator.normalise import find_value, matches_any, normalise_text
from curator.reading import Reading, reading_of

# Item outcomes.
RIGHT = "right"
WRONG = "wrong"  # a value that is not an accepted answer, or a failed rubric
OMITTED = "omitted"  # left empty while a value was expected
MISSING = "missing"  # no prediction at all (no line for the fixture, no verdict for the rubric)

# Failure classes, in the order reports list them.
HALLUCINATION = "hallucination"
FIELD_TARGETING = "field_targeting"
TRUNCATION_ARTIFACT = "truncation_artifact"
CONFIDENCE_MISMATCH = "confidence_mismatch"
OMISSION = "omission"
WRONG_VALUE = "wrong_value"
RUBRIC_FAILED = "rubric_failed"
FAILURE_CLASSES = (
    HALLUCINATION,
    FIELD_TARGETING,
    TRUNCATION_ARTIFACT,
    OMISSION,
    WRONG_VALUE,
    RUBRIC_FAILED,
    MISSING,
    CONFIDENCE_MISMATCH,  # last: it qualifies one of the others
)

_WORD = re.compile(r"\w+")

# A wrong answer given with at least this confidence is a confidence mismatch.
OVERCONFIDENT = 0.9


class Case(Protocol):
    """One bundle fixture as the scorer needs it (curator.bundle.load yields these); read only."""

    @property
    def fixture(self) -> Fixture: ...

    @property
    def content(self) -> Content: ...

    @property
    def labels(self) -> LabelRevision | None: ...


@dataclass(frozen=True)
class SimpleCase:
    """A Case built directly: tests and the fallback loader use it. With `task`, the case
    is that named task of the fixture and `labels` its truth (LabelRevision.for_task)."""

    fixture: Fixture
    content: Content
    labels: LabelRevision | None
    task: str | None = None

    @property
    def name(self) -> str:
        return task_label(self.fixture.id, self.task)


def task_cases(cases: Iterable[Case]) -> list[SimpleCase]:
    """Each fixture once per task (in label order), with that task's truth; a fixture without
    named tasks is one case, as it was."""
    return [
        SimpleCase(case.fixture, case.content, truth, task)
        for case in cases
        for task, truth in task_truths(case.labels)
    ]


@dataclass
class ItemResult:
    name: str  # field name, or the rubric text
    kind: str  # "field" or "rubric"
    outcome: str
    classes: list[str] = field(default_factory=list)
    expected: str | None = None
    variants: list[str] = field(default_factory=list)
    expected_absent: bool = False
    predicted: str | None = None
    confidence: float | None = None
    score: float | None = None  # a rubric judge's score, when given

    @property
    def right(self) -> bool:
        return self.outcome == RIGHT

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "outcome": self.outcome,
            "classes": self.classes,
        }
        if self.kind == "field":
            data.update(
                expected=self.expected,
                variants=self.variants,
                expected_absent=self.expected_absent,
                predicted=self.predicted,
                confidence=self.confidence,
            )
        else:
            data["score"] = self.score
        return data


@dataclass
class FixtureResult:
    id: str
    kind: str
    category: str
    adversarial: bool
    mutations: list[str]
    missing: bool  # no prediction line for this fixture
    items: list[ItemResult]
    metrics: dict[str, float] = field(default_factory=dict)
    extra_fields: list[str] = field(default_factory=list)  # predicted fields the labels lack
    task: str | None = None  # the named task scored; None: the fixture's only one

    @property
    def name(self) -> str:
        return task_label(self.id, self.task)

    @property
    def right(self) -> int:
        return sum(item.right for item in self.items)

    @property
    def total(self) -> int:
        return len(self.items)

    @property
    def passed(self) -> bool:
        return not self.missing and self.right == self.total

    @property
    def classes(self) -> list[str]:
        seen = {c for item in self.items for c in item.classes}
        return [c for c in FAILURE_CLASSES if c in seen]


def score_fixture(case: Case, prediction: Prediction | None) -> FixtureResult:
    """One case's items judged; a SimpleCase of a named task scores as that task."""
    fixture = case.fixture
    labels = case.labels or LabelRevision(rev=1, time="", author="", source="manual")
    mutations = [step.name for step in fixture.lineage.mutations] if fixture.lineage else []
    result = FixtureResult(
        id=fixture.id,
        kind=str(fixture.kind),
        category=fixture.category,
        adversarial=fixture.adversarial,
        mutations=mutations,
        missing=prediction is None,
        items=[],
        task=case.task if isinstance(case, SimpleCase) else None,
    )
    # An unanswerable field (noise garbled its value past recovery) is no item: no system
    # could answer it from this text.
    fields = {name: label for name, label in labels.fields.items() if not label.unanswerable}
    if prediction is None:
        result.items = [_missing_field(name, label) for name, label in fields.items()]
        result.items += [ItemResult(r.text, "rubric", MISSING, [MISSING]) for r in labels.rubrics]
        return result
    result.items = score_items(labels, prediction, case.content.full_text(), mutations)
    result.extra_fields = sorted(set(prediction.fields) - set(labels.fields))
    if prediction.metrics is not None:
        result.metrics = prediction.metrics.model_dump(exclude_none=True)
    return result


def score_items(
    labels: LabelRevision, prediction: Prediction, document_text: str, mutations: list[str]
) -> list[ItemResult]:
    """Every answerable field, then every rubric, of one fixture judged against a prediction:
    what the gate does, and what curator's scorers inside eval harnesses call."""
    truncated = any(is_truncation(name) for name in mutations)
    reading = reading_of(document_text, labels.locale)
    items = [
        score_field(
            name, label, prediction.fields.get(name), labels, document_text, truncated, reading
        )
        for name, label in labels.fields.items()
        if not label.unanswerable
    ]
    return items + score_rubrics(labels, prediction)


def score_field(
    name: str,
    label: FieldLabel,
    predicted: FieldPrediction | None,
    labels: LabelRevision,
    document_text: str,
    truncated: bool,
    reading: Reading | None = None,
) -> ItemResult:
    """Judge one field of a fixture whose whole text is `document_text`, its values read
    by `reading` (made from that text when None)."""
    reading = reading or reading_of(document_text, labels.locale)
    value = value_text(predicted.value) if predicted else None
    confidence = predicted.confidence if predicted else None
    accepted = [] if label.expected_absent else [label.value or "", *label.variants]
    item = ItemResult(
        name,
        "field",
        RIGHT,
        expected=label.value,
        variants=list(label.variants),
        expected_absent=label.expected_absent,
        predicted=value,
        confidence=confidence,
    )
    if label.expected_absent:
        if value is None:
            return item
        item.outcome = WRONG
        item.classes.append(HALLUCINATION)
        if _targets_other_field(name, value, labels, reading):
            item.classes.append(FIELD_TARGETING)
    elif value is None:
        item.outcome = OMITTED
        item.classes.append(TRUNCATION_ARTIFACT if truncated else OMISSION)
    elif matches_any(value, accepted, label.type, reading):
        return item
    else:
        item.outcome = WRONG
        if not supported(value, label.type, labels, document_text, reading):
            item.classes.append(HALLUCINATION)
        if _targets_other_field(name, value, labels, reading):
            item.classes.append(FIELD_TARGETING)
        if any(is_partial(value, truth) for truth in accepted):
            item.classes.append(TRUNCATION_ARTIFACT)
        if not item.classes:
            item.classes.append(WRONG_VALUE)
    if confidence is not None and confidence >= OVERCONFIDENT:
        item.classes.append(CONFIDENCE_MISMATCH)
    item.classes.sort(key=FAILURE_CLASSES.index)
    return item


def score_rubrics(labels: LabelRevision, prediction: Prediction) -> list[ItemResult]:
    """Each rubric of the labels judged by the prediction's verdict; text compared normalised."""
    verdicts = {normalise_text(v.rubric): v for v in prediction.rubrics}
    items = []
    for rubric in labels.rubrics:
        verdict = verdicts.get(normalise_text(rubric.text))
        if verdict is None:
            items.append(ItemResult(rubric.text, "rubric", MISSING, [MISSING]))
        elif verdict.passed:
            items.append(ItemResult(rubric.text, "rubric", RIGHT, score=verdict.score))
        else:
            items.append(
                ItemResult(rubric.text, "rubric", WRONG, [RUBRIC_FAILED], score=verdict.score)
            )
    return items


def value_text(value: str | int | float | None) -> str | None:
    """A predicted value as text; None when the system left it empty."""
    if value is None or isinstance(value, bool):
        return None
    text = value if isinstance(value, str) else repr(value)
    return text if text.strip() else None


def supported(
    value: str,
    field_type: FieldType,
    labels: LabelRevision,
    document_text: str,
    reading: Reading | None = None,
) -> bool:
    """The document backs the value: its text holds it (as written, or in any form equal for
    the field's type: "2024-03-03" where it says "March 3, 2024"), or a labelled value equals it."""
    if find_value(document_text, value, FieldType.text):
        return True
    if field_type is not FieldType.text and find_value(document_text, value, field_type, reading):
        return True
    for other in labels.fields.values():
        known = [v for v in (other.value, other.evidence_text, *other.variants) if v]
        if matches_any(value, known, other.type, reading):
            return True
    return False


def is_partial(value: str, truth: str) -> bool:
    """The value is a proper part of the truth: a prefix of it, or a run of its words."""
    part, whole = normalise_text(value), normalise_text(truth)
    if not part or part == whole:
        return False
    if whole.startswith(part):
        return True
    words, run = _WORD.findall(whole), _WORD.findall(part)
    if not run:
        return False
    return any(words[i : i + len(run)] == run for i in range(len(words) - len(run) + 1))


def is_truncation(mutation: str) -> bool:
    return mutation.startswith("truncat")


def _targets_other_field(
    name: str, value: str, labels: LabelRevision, reading: Reading | None
) -> bool:
    for other_name, other in labels.fields.items():
        if other_name == name or other.expected_absent:
            continue
        if matches_any(value, [other.value or "", *other.variants], other.type, reading):
            return True
    return False


def _missing_field(name: str, label: FieldLabel) -> ItemResult:
    return ItemResult(
        name,
        "field",
        MISSING,
        [MISSING],
        expected=label.value,
        variants=list(label.variants),
        expected_absent=label.expected_absent,
    )
