"""Each field outcome and each failure class, on hand-built lease fixtures."""

from __future__ import annotations

from curator.score.scoring import (
    CONFIDENCE_MISMATCH,
    FIELD_TARGETING,
    HALLUCINATION,
    MISSING,
    OMISSION,
    OMITTED,
    RIGHT,
    RUBRIC_FAILED,
    TRUNCATION_ARTIFACT,
    WRONG,
    WRONG_VALUE,
    is_partial,
    score_fixture,
)
from tests.score.score_builders import all_right, document_case, prediction, thread_case


def item(result, name):
    return next(i for i in result.items if i.name == name)


def score_one(name, value, confidence=None, **case_kwargs):
    """Score a prediction that is right everywhere except field `name`."""
    fields = all_right()
    fields[name] = (value, confidence)
    return item(score_fixture(document_case(**case_kwargs), prediction(**fields)), name)


def test_all_right_through_normalisation():
    result = score_fixture(document_case(), prediction(**all_right()))
    assert [i.outcome for i in result.items] == [RIGHT] * 6
    assert result.passed and result.right == result.total == 6 and result.classes == []


def test_accepted_variant_and_numeric_value_are_right():
    assert score_one("lease_start_date", "15/01/2024").outcome == RIGHT  # the variant
    assert score_one("monthly_rent", 1250).outcome == RIGHT  # a JSON number
    assert score_one("monthly_rent", "USD 1,250").outcome == RIGHT
    assert score_one("tenant", "  oliver GRANT. ").outcome == RIGHT


def test_expected_absent_is_right_only_when_left_empty():
    assert score_one("security_deposit", None).outcome == RIGHT
    assert score_one("security_deposit", "").outcome == RIGHT
    invented = score_one("security_deposit", "$2,500.00")
    assert (invented.outcome, invented.classes) == (WRONG, [HALLUCINATION])


def test_value_for_expected_absent_field_taken_from_another_field():
    got = score_one("security_deposit", "$1,250.00")
    assert (got.outcome, got.classes) == (WRONG, [HALLUCINATION, FIELD_TARGETING])


def test_hallucination_value_the_document_does_not_support():
    got = score_one("tenant", "Samuel Price")
    assert (got.outcome, got.classes) == (WRONG, [HALLUCINATION])


def test_field_targeting_value_of_another_field():
    got = score_one("tenant", "Maria Jensen")  # the landlord
    assert (got.outcome, got.classes) == (WRONG, [FIELD_TARGETING])
    # Compared with the other field's type: the lease start date written another way.
    got = score_one("monthly_rent", "Jan 15th, 2024")
    assert got.classes == [FIELD_TARGETING]


def test_truncation_artifact_prefix_or_partial_of_the_truth():
    prefix = score_one("premises_address", "12 Harbour Road")
    assert (prefix.outcome, prefix.classes) == (WRONG, [TRUNCATION_ARTIFACT])
    middle = score_one("premises_address", "Harbour Road")  # a run of the truth's words
    assert middle.classes == [TRUNCATION_ARTIFACT]
    cut_amount = score_one("monthly_rent", "$1,25")
    assert cut_amount.classes == [TRUNCATION_ARTIFACT]


def test_field_left_empty_on_a_truncated_fixture_is_a_truncation_artifact():
    cut = score_one("tenant", None, mutations=("truncate",), category="truncated")
    assert (cut.outcome, cut.classes) == (OMITTED, [TRUNCATION_ARTIFACT])
    plain = score_one("tenant", None)
    assert (plain.outcome, plain.classes) == (OMITTED, [OMISSION])


def test_wrong_value_the_document_does_contain():
    # The superseded rent of the amendment: in the text, but not the answer.
    got = score_one("monthly_rent", "$1,100.00")
    assert (got.outcome, got.classes) == (WRONG, [WRONG_VALUE])
    # The signing date, written "March 3, 2024" in the text: supported in another form.
    got = score_one("lease_start_date", "2024-03-03")
    assert (got.outcome, got.classes) == (WRONG, [WRONG_VALUE])
    assert score_one("lease_start_date", "2024-03-04").classes == [HALLUCINATION]


def test_confidence_mismatch_is_wrong_with_confidence_at_least_0_9():
    assert score_one("tenant", "Samuel Price", 0.9).classes == [HALLUCINATION, CONFIDENCE_MISMATCH]
    assert score_one("tenant", "Samuel Price", 0.89).classes == [HALLUCINATION]
    assert score_one("tenant", None, 0.95).classes == [OMISSION, CONFIDENCE_MISMATCH]
    right = score_one("tenant", "Oliver Grant", 0.99)
    assert (right.outcome, right.classes) == (RIGHT, [])


def test_missing_prediction_makes_every_item_wrong_and_missing():
    result = score_fixture(document_case(), None)
    assert result.missing and not result.passed
    assert (result.right, result.total) == (0, 6)
    assert {i.outcome for i in result.items} == {MISSING}
    assert result.classes == [MISSING]


def test_field_absent_from_the_prediction_is_omitted():
    fields = all_right()
    del fields["tenant"]
    result = score_fixture(document_case(), prediction(**fields))
    assert item(result, "tenant").outcome == OMITTED
    assert (result.right, result.total) == (5, 6)


def test_extra_predicted_fields_are_reported_not_scored():
    result = score_fixture(document_case(), prediction(**all_right(), broker="Acme"))
    assert result.extra_fields == ["broker"] and result.total == 6 and result.passed


def test_rubric_verdicts():
    case = thread_case("ready-thread-0000000b", ("mentions @ana", "says Friday", "is polite"))
    verdicts = [
        {"rubric": "Mentions @ana", "pass": True, "score": 1.0},  # text compared normalised
        {"rubric": "says Friday", "pass": False, "score": 0.2},
    ]
    result = score_fixture(case, prediction("ready-thread-0000000b", rubrics=verdicts))
    assert [(i.outcome, i.classes) for i in result.items] == [
        (RIGHT, []),
        (WRONG, [RUBRIC_FAILED]),
        (MISSING, [MISSING]),
    ]
    assert item(result, "says Friday").score == 0.2
    assert (result.right, result.total, result.kind) == (1, 3, "thread")


def test_metrics_are_kept():
    result = score_fixture(
        document_case(), prediction(**all_right(), metrics={"faithfulness": 0.9})
    )
    assert result.metrics == {"faithfulness": 0.9}


def test_is_partial():
    assert is_partial("12 Harbour", "12 Harbour Road")
    assert is_partial("Road", "12 Harbour Road")
    assert not is_partial("12 Harbour Road", "12 harbour road.")  # the same, not a part
    assert not is_partial("Harb Road", "12 Harbour Road")
    assert not is_partial("", "12 Harbour Road")


def test_an_unanswerable_field_is_no_item():
    """OCR noise that garbled a value past recovery (--noise-values) punishes no system."""
    from tests.score.score_builders import LEASE_FIELDS

    fields = {
        **LEASE_FIELDS,
        "tenant": {**LEASE_FIELDS["tenant"], "unanswerable": "OCR noise on the value"},
    }
    answered = all_right()
    answered["tenant"] = ("Someone Else", 0.99)
    result = score_fixture(document_case(fields=fields), prediction(**answered))
    assert "tenant" not in [i.name for i in result.items] and result.passed and result.total == 5
    assert "tenant" not in result.extra_fields
    missing = score_fixture(document_case(fields=fields), None)
    assert "tenant" not in [i.name for i in missing.items]
