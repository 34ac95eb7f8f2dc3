"""Aggregates checked against values worked out by hand."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from curator.score import metrics
from curator.score.scoring import score_fixture
from tests.score.score_builders import all_right, document_case, prediction, thread_case


def test_brier_on_known_confidences():
    pairs = [(0.9, True), (0.8, False), (0.6, True), (0.3, False)]
    # (0.1² + 0.8² + 0.4² + 0.3²) / 4 = (0.01 + 0.64 + 0.16 + 0.09) / 4
    assert metrics.brier(pairs) == pytest.approx(0.225)
    assert metrics.brier([(1.0, True), (0.0, False)]) == 0.0
    assert metrics.brier([(1.0, False)]) == 1.0
    assert metrics.brier([]) is None


def test_brier_from_scored_fixtures_uses_only_given_confidences():
    fields = all_right(confidence=0.8)  # six right at 0.8
    fields["tenant"] = ("Samuel Price", 0.5)  # one wrong at 0.5
    fields["landlord"] = ("Maria Jensen", None)  # right, no confidence: not counted
    results = [
        score_fixture(document_case(), prediction(**fields)),
        score_fixture(document_case("lease-b-0000000b"), None),
    ]  # missing: no confidences
    pairs = metrics.confidence_pairs(results)
    assert sorted(pairs) == [(0.5, False)] + [(0.8, True)] * 4
    # (4 × 0.2² + 0.5²) / 5 = (0.16 + 0.25) / 5
    assert metrics.brier(pairs) == pytest.approx(0.082)


def test_reliability_bins():
    pairs = [(0.95, True), (0.92, False), (1.0, True), (0.7, True), (0.05, False)]
    table = metrics.reliability(pairs)
    assert len(table) == 10 and [row["count"] for row in table] == [1, 0, 0, 0, 0, 0, 0, 1, 0, 3]
    top = table[9]
    assert (top["low"], top["high"]) == (0.9, 1.0)
    assert top["mean_confidence"] == pytest.approx((0.95 + 0.92 + 1.0) / 3)
    assert top["accuracy"] == pytest.approx(2 / 3)
    assert top["gap"] == pytest.approx((0.95 + 0.92 + 1.0) / 3 - 2 / 3)
    assert table[7]["accuracy"] == 1.0  # 0.7 lands in [0.7, 0.8) despite floating point
    assert table[1]["accuracy"] is None and table[1]["mean_confidence"] is None


def _three_fixtures():
    clean = score_fixture(
        document_case("lease-a-0000000a"), prediction("lease-a-0000000a", **all_right())
    )
    noisy_fields = all_right()
    noisy_fields["tenant"] = "Samuel Price"
    noisy_fields["monthly_rent"] = "$1,100.00"
    noisy = score_fixture(
        document_case("lease-b-0000000b", category="ocr-noise", mutations=("ocr-noise",)),
        prediction("lease-b-0000000b", **noisy_fields),
    )
    thread = score_fixture(
        thread_case("ready-c-0000000c", ("a", "b"), category="clean", importer="promote"),
        prediction("ready-c-0000000c", rubrics=[{"rubric": "a", "pass": True}]),
    )
    return [clean, noisy, thread]


def test_accuracy_overall_by_category_mutation_and_adversarial():
    table = metrics.accuracy_table(_three_fixtures())
    # clean lease 6/6, noisy lease 4/6, promoted thread 1/2.
    assert table["overall"] == {"right": 11, "total": 14, "accuracy": 11 / 14}
    assert table["by_category"] == {
        "clean": {"right": 7, "total": 8, "accuracy": 7 / 8},
        "ocr-noise": {"right": 4, "total": 6, "accuracy": 4 / 6},
    }
    assert table["by_mutation"] == {
        "none": {"right": 7, "total": 8, "accuracy": 7 / 8},
        "ocr-noise": {"right": 4, "total": 6, "accuracy": 4 / 6},
    }
    # Adversarial: the mutated lease and the promoted thread.
    assert table["adversarial"] == {"right": 5, "total": 8, "accuracy": 5 / 8}
    assert table["golden"] == {"right": 6, "total": 6, "accuracy": 1.0}


def test_accuracy_of_an_empty_group_is_none():
    assert metrics.tally([]) == {"right": 0, "total": 0, "accuracy": None}


def test_failure_counts():
    counts = metrics.failure_counts(_three_fixtures())
    assert counts["hallucination"] == 1 and counts["wrong_value"] == 1 and counts["missing"] == 1
    assert sum(counts.values()) == 3


def test_quality_composite_default_and_custom_weights():
    results = [
        score_fixture(
            document_case("lease-a-0000000a"),
            prediction(
                "lease-a-0000000a",
                metrics={"context_recall": 0.8, "faithfulness": 0.9, "answer_relevancy": 0.7},
            ),
        ),
        score_fixture(
            document_case("lease-b-0000000b"),
            prediction(
                "lease-b-0000000b",
                metrics={"context_recall": 0.6, "faithfulness": 1.0, "answer_relevancy": 1.0},
            ),
        ),
        # Only faithfulness: counts in its mean, not in the composite.
        score_fixture(
            document_case("lease-c-0000000c"),
            prediction("lease-c-0000000c", metrics={"faithfulness": 0.5}),
        ),
    ]
    quality = metrics.quality(results)
    # 0.35×0.8 + 0.40×0.9 + 0.25×0.7 = 0.815 ; 0.35×0.6 + 0.40 + 0.25 = 0.86
    assert quality["composite"] == pytest.approx((0.815 + 0.86) / 2)
    assert quality["faithfulness"] == pytest.approx((0.9 + 1.0 + 0.5) / 3)
    assert quality["context_recall"] == pytest.approx(0.7)
    assert quality["fixtures_with_all_metrics"] == 2
    assert quality["composite_by_category"] == {"clean": pytest.approx((0.815 + 0.86) / 2)}
    # Weights need not sum to 1: 1:1:2 -> (0.8 + 0.9 + 1.4) / 4
    custom = metrics.quality(
        results[:1], {"context_recall": 1, "faithfulness": 1, "answer_relevancy": 2}
    )
    assert custom["composite"] == pytest.approx(0.775)


def test_quality_without_metrics():
    quality = metrics.quality([score_fixture(document_case(), None)])
    assert quality["composite"] is None and quality["faithfulness"] is None


@given(st.lists(st.tuples(st.floats(0, 1), st.booleans()), max_size=40))
def test_reliability_and_brier_invariants(pairs):
    table = metrics.reliability(pairs)
    assert sum(row["count"] for row in table) == len(pairs)
    for row in table:
        if row["count"]:
            assert row["low"] - 1e-9 <= row["mean_confidence"] <= row["high"] + 1e-9
    score = metrics.brier(pairs)
    assert score is None if not pairs else 0 <= score <= 1
