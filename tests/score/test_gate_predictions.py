"""The predictions file: every bad line is an error naming its line."""

from __future__ import annotations

import json

import pytest

from curator.errors import CuratorError
from curator.score.predictions import load_predictions
from tests.score.score_builders import document_case, thread_case

CASES = [document_case("lease-a-0000000a"), thread_case("ready-b-0000000b", ("mentions @ana",))]
GOOD = {
    "fixture_id": "lease-a-0000000a",
    "fields": {"tenant": {"value": "Oliver Grant", "confidence": 0.9}},
}


def write(tmp_path, *lines):
    path = tmp_path / "predictions.jsonl"
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n")
    return path


def error_of(tmp_path, *lines) -> str:
    with pytest.raises(CuratorError) as caught:
        load_predictions(write(tmp_path, *lines), CASES)
    return str(caught.value)


def test_reads_lines_skipping_blank_ones(tmp_path):
    thread = {
        "fixture_id": "ready-b-0000000b",
        "rubrics": [{"rubric": "mentions @ana", "pass": True}],
        "metrics": {"faithfulness": 0.9},
    }
    loaded = load_predictions(write(tmp_path, GOOD, "", "   ", thread), CASES)
    assert sorted(loaded) == ["lease-a-0000000a", "ready-b-0000000b"]
    assert loaded["lease-a-0000000a"].fields["tenant"].confidence == 0.9
    assert loaded["ready-b-0000000b"].rubrics[0].passed is True


def test_malformed_line_names_the_line(tmp_path):
    message = error_of(tmp_path, GOOD, '{"fixture_id": "ready-b-0000000b",')
    assert message.startswith(f"{tmp_path / 'predictions.jsonl'}:2: not valid JSON")


def test_line_that_is_not_an_object(tmp_path):
    assert ":1: a prediction is a JSON object, not list" in error_of(tmp_path, "[1, 2]")


@pytest.mark.parametrize("confidence", [1.5, -0.1])
def test_confidence_outside_0_1_names_the_line(tmp_path, confidence):
    bad = {
        "fixture_id": "ready-b-0000000b",
        "fields": {"x": {"value": "y", "confidence": confidence}},
    }
    message = error_of(tmp_path, GOOD, bad)
    assert ":2: fields.x.confidence: Input should be" in message


def test_fixture_not_in_the_bundle_names_the_line(tmp_path):
    message = error_of(tmp_path, GOOD, {"fixture_id": "ghost-0000000f"})
    assert message.endswith(":2: fixture 'ghost-0000000f' is not in the bundle")


def test_fixture_predicted_twice(tmp_path):
    assert ":3: fixture 'lease-a-0000000a' is predicted twice" in error_of(tmp_path, GOOD, "", GOOD)


def test_unknown_member_is_an_error(tmp_path):
    message = error_of(tmp_path, {**GOOD, "fields": {"tenant": {"value": "x", "confidance": 0.9}}})
    assert ":1: fields.tenant.confidance: Extra inputs are not permitted" in message


def test_verdict_for_a_rubric_the_fixture_lacks(tmp_path):
    bad = {"fixture_id": "ready-b-0000000b", "rubrics": [{"rubric": "is rude", "pass": True}]}
    assert ":1: fixture 'ready-b-0000000b' has no rubric 'is rude'" in error_of(tmp_path, bad)


def test_missing_file(tmp_path):
    with pytest.raises(CuratorError, match="no such file"):
        load_predictions(tmp_path / "nope.jsonl", CASES)


@pytest.mark.parametrize(
    ("member", "where"),
    [
        ({"value": True}, "fields.tenant.value"),  # true is not the number 1
        (
            {"value": "x", "confidence": "0.9"},
            "fields.tenant.confidence",
        ),  # a string is no confidence
    ],
)
def test_values_are_typed_strictly(tmp_path, member, where):
    message = error_of(tmp_path, {"fixture_id": "lease-a-0000000a", "fields": {"tenant": member}})
    assert f":1: {where}" in message


def test_metric_outside_0_1_and_lax_rubric_verdict(tmp_path):
    bad_metric = {"fixture_id": "lease-a-0000000a", "metrics": {"faithfulness": 1.2}}
    assert ":1: metrics.faithfulness: Input should be less than or equal to 1" in error_of(
        tmp_path, bad_metric
    )
    lax = {
        "fixture_id": "ready-b-0000000b",
        "rubrics": [{"rubric": "mentions @ana", "pass": "yes"}],
    }
    assert ":1: rubrics.0.pass: Input should be a valid boolean" in error_of(tmp_path, lax)
