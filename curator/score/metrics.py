"""Aggregate item results: accuracy tables, Brier score, reliability bins, quality composite.

Accuracy counts items (fields and rubrics), so a fixture with seven fields weighs seven;
a fixture with no prediction contributes all its items as wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from curator.score.scoring import FAILURE_CLASSES, MISSING, FixtureResult, ItemResult

QUALITY_METRICS = ("context_recall", "faithfulness", "answer_relevancy")
DEFAULT_WEIGHTS: dict[str, float] = {
    "context_recall": 0.35,
    "faithfulness": 0.40,
    "answer_relevancy": 0.25,
}
RELIABILITY_BINS = 10
NO_MUTATION = "none"  # the by-mutation group of fixtures that no mutation made


def tally(items: Iterable[ItemResult]) -> dict[str, Any]:
    items = list(items)
    right = sum(item.right for item in items)
    return {"right": right, "total": len(items), "accuracy": _ratio(right, len(items))}


def accuracy_table(results: list[FixtureResult]) -> dict[str, Any]:
    """Accuracy overall, for the adversarial and golden subsets, by category, by mutation and
    (when fixtures have named tasks) by task."""
    by_category: dict[str, list[ItemResult]] = {}
    by_mutation: dict[str, list[ItemResult]] = {}
    for result in results:
        by_category.setdefault(result.category, []).extend(result.items)
        for name in sorted(set(result.mutations)) or [NO_MUTATION]:
            by_mutation.setdefault(name, []).extend(result.items)
    table = {
        "overall": tally(i for r in results for i in r.items),
        "adversarial": tally(i for r in results if r.adversarial for i in r.items),
        "golden": tally(i for r in results if not r.adversarial for i in r.items),
        "by_category": {name: tally(by_category[name]) for name in sorted(by_category)},
        "by_mutation": {name: tally(by_mutation[name]) for name in sorted(by_mutation)},
    }
    by_task: dict[str, list[ItemResult]] = {}
    for result in results:
        if result.task is not None:
            by_task.setdefault(result.task, []).extend(result.items)
    if by_task:  # only bundles with named tasks: other reports keep their bytes
        table["by_task"] = {name: tally(by_task[name]) for name in sorted(by_task)}
    return table


def confidence_pairs(results: list[FixtureResult]) -> list[tuple[float, bool]]:
    """(confidence, right) for every answered field that carries a confidence."""
    return [
        (item.confidence, item.right)
        for result in results
        for item in result.items
        if item.kind == "field" and item.confidence is not None and item.outcome != MISSING
    ]


def brier(pairs: list[tuple[float, bool]]) -> float | None:
    """Mean of (confidence - outcome)^2 with outcome 1 for right, 0 for wrong; None if no pairs."""
    if not pairs:
        return None
    return sum((confidence - float(right)) ** 2 for confidence, right in pairs) / len(pairs)


def reliability(
    pairs: list[tuple[float, bool]], bins: int = RELIABILITY_BINS
) -> list[dict[str, Any]]:
    """Equal-width confidence bins [lo, hi) (the last one closed): how often each bin was right."""
    grouped: list[list[tuple[float, bool]]] = [[] for _ in range(bins)]
    for confidence, right in pairs:
        grouped[_bin(confidence, bins)].append((confidence, right))
    table = []
    for index, inside in enumerate(grouped):
        low, high = index / bins, (index + 1) / bins
        mean_confidence = _mean(c for c, _ in inside)
        accuracy = _mean(float(r) for _, r in inside)
        table.append(
            {
                "low": low,
                "high": high,
                "count": len(inside),
                "mean_confidence": mean_confidence,
                "accuracy": accuracy,
                "gap": None
                if accuracy is None or mean_confidence is None
                else mean_confidence - accuracy,
            }
        )
    return table


def quality(
    results: list[FixtureResult], weights: Mapping[str, float] | None = None
) -> dict[str, Any]:
    """Mean of each retrieval metric over the fixtures that report it, and the weighted composite.

    A fixture's composite needs all three metrics; the overall composite is the mean of those.
    Weights are divided by their sum, so they need not add up to 1.
    """
    weights = dict(weights or DEFAULT_WEIGHTS)
    means = {
        name: _mean(r.metrics[name] for r in results if name in r.metrics)
        for name in QUALITY_METRICS
    }
    composites = [
        (r.category, c) for r in results if (c := fixture_composite(r.metrics, weights)) is not None
    ]
    by_category = {
        category: _mean(c for cat, c in composites if cat == category)
        for category in sorted({category for category, _ in composites})
    }
    return {
        "weights": weights,
        **means,
        "composite": _mean(c for _, c in composites),
        "composite_by_category": by_category,
        "fixtures_with_all_metrics": len(composites),
    }


def fixture_composite(metrics: Mapping[str, float], weights: Mapping[str, float]) -> float | None:
    if not all(name in metrics for name in QUALITY_METRICS):
        return None
    total = sum(weights[name] for name in QUALITY_METRICS)
    return sum(weights[name] * metrics[name] for name in QUALITY_METRICS) / total


def failure_counts(results: list[FixtureResult]) -> dict[str, int]:
    """How many items carry each failure class (an item with two classes counts in both)."""
    counts = dict.fromkeys(FAILURE_CLASSES, 0)
    for result in results:
        for item in result.items:
            for name in item.classes:
                counts[name] += 1
    return counts


def _bin(confidence: float, bins: int) -> int:
    # Rounding first keeps 0.7 in the [0.7, 0.8) bin despite binary floating point.
    return min(int(round(confidence * bins, 9)), bins - 1)


def _ratio(right: int, total: int) -> float | None:
    return right / total if total else None


def _mean(values: Iterable[float]) -> float | None:
    values = list(values)
    return sum(values) / len(values) if values else None
