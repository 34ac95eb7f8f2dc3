"""A thread with named tasks in Label Studio: its rubrics shown grouped by task, and the
verdicts and new rubrics coming back to the task they belong to."""

from __future__ import annotations

import pytest
from review_data import add_thread
from review_helpers import prediction_result, project_id, tasks_by_fixture

from curator.labels import LabelEdit, set_labels
from curator.review import configs
from tests.conftest import run_cli, snapshot

pytestmark = pytest.mark.labelstudio

SUMMARY = ["Names the deadline", "Says who replied"]
ACTIONS = ["Lists the refund", "Lists the callback"]


def _cli(store, server, command):
    args = ("--url", server.url, "--api-key", server.legacy_token)
    return run_cli("review", command, *args, store=store.root)


def test_rubrics_show_grouped_by_task_and_come_back_to_their_task(
    review_store, ls_server, admin, alice, bob
):
    thread = add_thread(review_store, 151, [])
    set_labels(review_store, thread, edit=LabelEdit(add_rubrics=SUMMARY, task="summary"))
    edit = LabelEdit(add_rubrics=ACTIONS, evidence_posts=["p1"], task="action_items")
    set_labels(review_store, thread, edit=edit)
    assert _cli(review_store, ls_server, "push").exit_code == 0
    task = tasks_by_fixture(admin, project_id(admin, review_store, "thread"))[thread]

    shown = [task.data[configs.rubric_object(slot)] for slot in range(1, 5)]
    assert shown == [f"summary: {t}" for t in SUMMARY] + [f"action_items: {t}" for t in ACTIONS]
    assert [task.data[configs.task_key(slot)] for slot in range(1, 5)] == [
        "summary",
        "summary",
        "action_items",
        "action_items",
    ]
    result = prediction_result(admin, task.id)
    for region in result:
        if region["from_name"] == configs.verdict_control(4):
            region["value"]["choices"] = [configs.FAIL]
    new = {"from_name": configs.NEW_RUBRICS, "to_name": configs.DIALOGUE, "type": "textarea"}
    alice.annotate(task.id, [*result, {**new, "value": {"text": ["summary: Thanks the customer"]}}])

    assert _cli(review_store, ls_server, "pull").exit_code == 0
    labels = review_store.load(thread).labels
    assert labels.rubrics == []
    assert [r.text for r in labels.tasks["summary"].rubrics] == [*SUMMARY, "Thanks the customer"]
    assert [(r.text, r.evidence_posts) for r in labels.tasks["action_items"].rubrics] == [
        (ACTIONS[0], ["p1"])
    ]

    # A new rubric that names no task of the thread is refused, the store left as it was.
    bob.annotate(task.id, [*result, {**new, "value": {"text": ["Thanks the customer"]}}])
    before = snapshot(review_store.root)
    refused = _cli(review_store, ls_server, "pull")
    assert refused.exit_code == 2 and "write it as TASK: statement" in refused.stderr
    assert snapshot(review_store.root) == before
