"""Eval tests of the example system over a curator bundle, one test per fixture.

    pytest examples/evals --curator-bundle bundles/1.0.0 --curator-judge rules
    CURATOR_EVALS=3 pytest examples/evals -n 2 --curator-bundle bundles/1.0.0 --curator-judge rules

Without --curator-bundle the tests are skipped. Results go to ./evals.jsonl.
"""

import pytest
from extractor import extract, summarise

from curator.eval import EvalItem, assert_fields, assert_rubric


@pytest.mark.curator(kind="document")
def test_extracts_every_field(curator_item: EvalItem) -> None:
    assert_fields(curator_item, extract(curator_item.text, curator_item.fields))


@pytest.mark.curator(kind="thread")
def test_summary_meets_every_rubric(curator_item: EvalItem) -> None:
    summary = summarise(curator_item.thread)
    for rubric in curator_item.rubrics:
        assert_rubric(curator_item, summary, rubric)
