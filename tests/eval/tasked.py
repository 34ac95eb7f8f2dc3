"""A store holding one thread with three named tasks (summary, action items, open
questions) and its truncated variant, built through the CLI as a user builds it, and a
bundle of both: what the task tests (tests/eval/test_tasks.py, tests/go) run on."""

from __future__ import annotations

import json
from pathlib import Path

from curator.store import Store
from tests.conftest import REPO, run_cli
from tests.eval.systems import TASK_ANSWERS

THREAD = REPO / "examples" / "threads" / "renewal-question.json"
RUBRICS = {
    "summary": [
        "The summary states the monthly rent of $950.00.",
        "The summary states the deposit of $1,900.00.",
    ],
    "action_items": [
        'The action items include "check the lease".',
        'The action items include "renewal reminder".',
    ],
    "open_questions": ['The open questions ask for the "start date".'],
}
# Which post each rubric is judged on: the one saying it (found by its words).
EVIDENCE = {
    RUBRICS["summary"][0]: "$950.00",
    RUBRICS["summary"][1]: "$950.00",
    RUBRICS["action_items"][0]: "check the lease",
    RUBRICS["action_items"][1]: "Renewal reminder",
    RUBRICS["open_questions"][0]: "start date",
}
REFERENCE = TASK_ANSWERS["summary"]  # each task's reviewed answer: what by_task answers
# A few dozen known answers cannot bound a judge's false-pass rate within 0.1 (Wilson).
FLOORS = (
    "[floors]\nmin_pass_rate = 0.5\nmax_judge_false_pass = 0.5\n\n"
    "[floors.task_accuracy]\naction_items = 1.0\n"
)


def cli(*args: str, store: Store | None = None) -> dict:
    run = run_cli(*args, "--json", store=store.root if store else None)
    assert run.exit_code in (0, 1), run.stderr
    return json.loads(run.stdout)


def post_with(store: Store, fixture_id: str, words: str) -> str:
    posts = store.load(fixture_id).content.export.ordered_posts()  # type: ignore[union-attr]
    return next(post.id for post in posts if words in post.message)


def build_tasked(tmp_path: Path, formats: str = "jsonl,mattermost") -> dict:
    """A store holding the thread with three tasks (imported, labelled with evidence posts
    and a reference, active) and its truncated variant, and a bundle of both."""
    store = Store.init(tmp_path / "store")
    files = []
    for task, texts in RUBRICS.items():
        path = tmp_path / f"{task}.txt"
        path.write_text("\n".join(texts) + "\n", encoding="utf-8")
        files += ["--task", task, "--rubrics", str(path)]
    [created] = cli("import", str(THREAD), *files, store=store)["created"]
    golden = created["id"]
    assert created["tasks"] == RUBRICS and created["rubrics"] == []
    for task, texts in RUBRICS.items():
        for text in texts:
            post = post_with(store, golden, EVIDENCE[text])
            cli("label", "set", golden, "--task", task, "--rubric", text, "--evidence-post", post,
                store=store)  # fmt: skip
    for task, answer in TASK_ANSWERS.items():
        cli("label", "set", golden, "--task", task, "--reference", answer, store=store)
    cli("status", golden, "--to", "active", store=store)
    [variant] = cli("mutate", golden, "--truncate", "0.6", store=store)["variants"]
    cli("status", variant["id"], "--to", "active", store=store)
    bundle = cli("bundle", "build", "1.0.0", "--format", formats, store=store)
    return {
        "store": store,
        "golden": golden,
        "variant": variant["id"],
        "bundle": Path(bundle["path"]),
    }
