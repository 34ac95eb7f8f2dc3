"""The rules judge on Mattermost's own rubrics: "@mentions" is checked against the people of
the thread, not read as a handle; rubrics it cannot check are refused in one line."""

from __future__ import annotations

import pytest

from curator.errors import CuratorError
from curator.judge.context import fixture_context, thread_usernames
from curator.judge.rules import RulesJudge, checks, refuse_uncheckable, uncheckable
from curator.judge.verdict import RubricCase
from curator.model import DocumentContent, Page, ThreadContent
from tests import samples
from tests.conftest import run_cli
from tests.factories import thread_export

THREAD = fixture_context(ThreadContent(export=thread_export()))  # @ana.silva, @bo.chen
MATTERMOST = "contains the usernames involved as @mentions if referenced"


def _verdict(rubric: str, output: str, context: str = THREAD):
    return RulesJudge().judge(RubricCase("t-0000000a", "a" * 64, rubric, output, context))


def test_the_people_of_a_thread_are_its_authors_and_its_mentions():
    assert thread_usernames(THREAD) == ["ana.silva", "bo.chen"]
    page = DocumentContent(pages=[Page(number=1, text="@ana.silva: rent is due", origin="ocr")])
    assert thread_usernames(fixture_context(page)) == []


@pytest.mark.parametrize(
    "rubric", [MATTERMOST, "names everyone as @-mentions", "refers to people by @mention"]
)
def test_an_at_mentions_rubric_is_one_check_of_the_threads_people(rubric):
    assert [c.label for c in checks(rubric, THREAD)] == [
        "@mentions of the thread's people (@ana.silva, @bo.chen)"
    ]


@pytest.mark.parametrize(
    "output, passed",
    [
        ("@bo.chen will look at the red deploy @ana.silva reported.", True),
        ("@here: @bo.chen will look.", True),  # @here, @channel and @all notify, name no one
        ("Bo will look at the deploy.", False),  # nobody @mentioned
        ("@bo.chen and @carla.diaz will look.", False),  # a handle nobody in the thread has
        ("@mentions: bo will look.", False),  # the word is no person either
    ],
)
def test_at_mentions_hold_when_the_output_mentions_the_threads_people_only(output, passed):
    verdict = _verdict(MATTERMOST, output)
    assert verdict.error is None and verdict.passed is passed
    if passed:
        assert "@bo.chen" in verdict.evidence and verdict.verified  # its sentence, a quote
    else:
        assert "missing @mentions of the thread's people" in verdict.reasoning


def test_a_named_handle_is_still_a_handle_beside_the_generic_check():
    rubric = "mentions that @bo.chen looks at it, and contains the usernames involved as @mentions"
    assert [c.label for c in checks(rubric, THREAD)] == [
        "@bo.chen",
        "@mentions of the thread's people (@ana.silva, @bo.chen)",
    ]
    assert not _verdict(rubric, "@ana.silva looks at it.").passed


def test_a_document_has_no_people_to_mention():
    page = DocumentContent(pages=[Page(number=1, text="Rent is $950.", origin="ocr")])
    verdict = _verdict(MATTERMOST, "@bo.chen pays", fixture_context(page))
    assert not verdict.passed and "missing @mentions" in verdict.reasoning


def test_rubrics_with_nothing_to_check_are_refused_in_one_line_naming_the_first():
    rubrics = ["is a summary", MATTERMOST, 'says "react scan"', "is a summary", "is polite"]
    assert uncheckable(rubrics) == ["is a summary", "is polite"]
    with pytest.raises(CuratorError) as refused:
        refuse_uncheckable(rubrics)
    line = str(refused.value)
    assert "\n" not in line
    assert line.startswith("the rules judge cannot check 2 of the 4 rubrics, first 'is a summary'")
    assert "--judge openai" in line
    refuse_uncheckable(rubrics[1:3])  # every one checkable: no refusal


def test_eval_run_and_calibrate_under_the_rules_judge_refuse_such_a_bundle(store, tmp_path):
    thread = samples.add(store, "thread", 1)  # "The summary names the failing job." ...
    assert run_cli("bundle", "build", "1.0.0", store=store.root).exit_code == 0
    bundle = store.root / "bundles" / "1.0.0"
    out = tmp_path / "out"
    for command in (
        ("eval", "run", str(bundle), "--system", "tests.eval.systems:perfect", "--out", str(out)),
        ("judge", "calibrate", str(bundle)),
    ):
        run = run_cli(*command, "--judge", "rules", "--judge-dir", str(tmp_path / "judge"))
        lines = run.stderr.strip().splitlines()
        assert run.exit_code == 2 and len(lines) == 1, run.stderr
        assert "the rules judge cannot check 2 of the 2 rubrics" in lines[0]
        assert repr(store.load(thread).labels.rubrics[0].text) in lines[0]
    assert not out.exists() and not (tmp_path / "judge").exists()
