"""The pure functions the viewer, --check, --comment and the report share."""

from __future__ import annotations

import json

import pytest

from curator.errors import CuratorError
from curator.eval.compare import compare, visible_changes
from curator.eval.records import read_run
from curator.eval.results import counts, items_of, pass_rates, visible
from tests.view.conftest import new_lines, old_lines


def test_counts_tell_flaky_and_errors_apart_from_failures():
    items = items_of(new_lines())
    total = counts(items)
    assert total.header() == "8 tests | 3 passed | 3 failed | 1 flaky | 1 errors"
    assert total.repetitions == 2
    flaky = next(item for item in items if item.name == "thread-h")
    assert flaky.result == "flaky" and [line.run_number for line in flaky.lines] == [0, 1]
    assert flaky.score == pytest.approx(0.6)


def test_comparison_pairs_items_by_fixture_content_and_rubric_only():
    comparison = compare(items_of(old_lines()), items_of(new_lines()))
    groups = {}
    for change in comparison.changes:
        groups.setdefault(change.group, []).append(change.item.name)
    assert groups == {
        "regressed": ["lease-b", "thread-h", "thread-i"],
        "fixed": ["lease-c"],
        "new": ["lease-e", "lease-g"],  # lease-g's content changed: a new item...
        "dropped": ["lease-f", "lease-g"],  # ...and the old one dropped, never "regressed"
        "still failing": ["lease-d"],
    }
    assert comparison.unchanged == 1
    assert (
        comparison.header()
        == "3 regressed | 1 fixed | 2 new | 2 dropped | 1 still failing | 1 still passing"
    )


def test_failures_only_and_search_filter_items_and_changes():
    items = items_of(new_lines())
    assert [i.name for i in visible(items, failures_only=True)] == [
        "lease-b",
        "lease-d",
        "lease-g",
        "thread-h",
        "thread-i",
    ]
    assert [i.name for i in visible(items, query="ROLL BACK")] == ["thread-h"]
    assert [i.name for i in visible(items, query="contradict")] == [
        "lease-c"
    ]  # mutation names are searched
    assert [i.name for i in visible(items, query="timed out")] == ["thread-i"]  # and errors
    comparison = compare(items_of(old_lines()), items_of(new_lines()))
    failing = visible_changes(comparison, failures_only=True)
    assert {c.group for c in failing} == {"regressed", "dropped", "still failing", "new"}
    assert all(c.new is None or not c.new.passed for c in failing)


def test_pass_rates_by_category_and_mutation():
    items = items_of(new_lines())
    by_mutation = {r.group: (r.passed, r.total) for r in pass_rates(items, "mutation")}
    assert by_mutation == {"none": (2, 6), "contradict": (1, 1), "truncate": (0, 1)}
    by_category = {r.group: (r.passed, r.total) for r in pass_rates(items, "category")}
    assert by_category == {"clean": (2, 6), "contradictory": (1, 1), "truncated": (0, 1)}


def test_plain_mattermost_lines_read_and_group_by_test_name(tmp_path):
    path = tmp_path / "evals.jsonl"
    mattermost = [
        {
            "name": "TestSummary/cat_message",
            "timestamp": "2026-01-01T00:00:00Z",
            "run_number": 0,
            "rubric": "is positive about cats",
            "output": "Cats are great",
            "reasoning": "positive",
            "score": 0.9,
            "pass": True,
        },
        {
            "name": "TestSummary/cat_message",
            "timestamp": "2026-01-01T00:00:01Z",
            "run_number": 1,
            "rubric": "is positive about cats",
            "output": "Cats, meh",
            "reasoning": "neutral",
            "score": 0.3,
            "pass": False,
        },
    ]
    path.write_text("\n".join(json.dumps(m) for m in mattermost) + "\n\n")
    items = items_of(read_run(path).lines)
    assert len(items) == 1 and items[0].result == "flaky" and items[0].category == "(none)"
    assert items[0].mutation == "none"


@pytest.mark.parametrize(
    "text, message",
    [
        ("{not json\n", "evals.jsonl:1: not valid JSON"),
        ("[1, 2]\n", "evals.jsonl:1: not an eval line"),
        ('\n{"name": "x", "timestamp": "t", "pass": "maybe"}\n', "evals.jsonl:2: pass:"),
        ('{"name": "x", "timestamp": "t", "pass": true, "score": 7}\n', "evals.jsonl:1: score:"),
    ],
)
def test_a_bad_line_is_an_error_naming_file_and_line(tmp_path, text, message):
    path = tmp_path / "evals.jsonl"
    path.write_text(text)
    with pytest.raises(CuratorError, match=message):
        read_run(path)
