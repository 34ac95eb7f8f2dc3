"""The status rules, one table per rule (the commands that use them are tested end to end)."""

from __future__ import annotations

import pytest

from curator.lifecycle import (
    after_agreement,
    after_conflict,
    after_settling,
    promoted_status,
    refreshed_status,
    variant_status,
)
from curator.model import Status

D, N, R, A, X = Status.draft, Status.needs_review, Status.reviewed, Status.active, Status.retired


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        (after_agreement, {D: R, N: R, R: R, A: A, X: X}),
        (after_conflict, {D: D, N: N, R: N, A: A, X: X}),
        (after_settling, {D: D, N: R, R: R, A: A, X: X}),
        (lambda s: variant_status(s, needs_review=False), {D: D, N: D, R: R, A: A, X: D}),
        (lambda s: variant_status(s, needs_review=True), {D: N, N: N, R: N, A: N, X: N}),
        (lambda s: refreshed_status(s, undecided=[]), {D: D, N: N, R: R, A: A, X: X}),
        (lambda s: refreshed_status(s, undecided=["rubric: new"]), {D: N, N: N, R: N, A: N, X: X}),
    ],
)
def test_each_rule_maps_every_status(rule, expected):
    assert {status: rule(status) for status in Status} == expected


def test_a_promoted_fixture_is_reviewed_only_when_its_corrections_are_complete():
    assert (promoted_status(True), promoted_status(False)) == (R, N)
