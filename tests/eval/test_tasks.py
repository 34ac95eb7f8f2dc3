"""One input, several tasks: a thread asked for its summary, its action items and its open
questions, each judged on its own rubrics, through import, label, mutate (truncate), bundle
build, `curator eval run` with the loopback judge, the pytest plugin and the gate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curator.store import Store
from tests.conftest import REPO, run_cli
from tests.eval.conftest import PLANTED_KEY
from tests.eval.test_eval_pytest_plugin import outcomes, pytest_run

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
REFERENCE = "The monthly rent is $950.00 and the deposit was $1,900.00."
FLOORS = "[floors]\nmin_pass_rate = 0.5\n\n[floors.task_accuracy]\naction_items = 1.0\n"


def cli(*args: str, store: Store | None = None) -> dict:
    run = run_cli(*args, "--json", store=store.root if store else None)
    assert run.exit_code in (0, 1), run.stderr
    return json.loads(run.stdout)


def post_with(store: Store, fixture_id: str, words: str) -> str:
    posts = store.load(fixture_id).content.export.ordered_posts()  # type: ignore[union-attr]
    return next(post.id for post in posts if words in post.message)


@pytest.fixture
def tasked(tmp_path: Path) -> dict:
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
    cli("label", "set", golden, "--task", "summary", "--reference", REFERENCE, store=store)
    cli("status", golden, "--to", "active", store=store)
    [variant] = cli("mutate", golden, "--truncate", "0.6", store=store)["variants"]
    cli("status", variant["id"], "--to", "active", store=store)
    bundle = cli("bundle", "build", "1.0.0", "--format", "jsonl,mattermost", store=store)
    return {
        "store": store,
        "golden": golden,
        "variant": variant["id"],
        "bundle": Path(bundle["path"]),
    }


def test_label_revisions_hold_tasks_and_history_lists_them(tasked):
    store, golden = tasked["store"], tasked["golden"]
    labels = store.load(golden).labels
    assert labels is not None and list(labels.tasks) == list(RUBRICS)
    assert labels.rubrics == [] and labels.reference is None
    assert labels.tasks["summary"].reference == REFERENCE
    assert all(r.evidence_posts for r in labels.all_rubrics())
    history = run_cli("label", "history", golden, store=store.root).stdout
    assert "task action_items:" in history and "rubric: The action items include" in history
    # the rubrics are the tasks': a rubric for no task is refused, the store unchanged
    refused = run_cli("label", "set", golden, "--rubric", "Anything.", store=store.root)
    assert refused.exit_code == 2 and "name one with --task" in refused.stderr
    assert store.load(golden).labels == labels


def test_a_truncation_drops_the_cut_rubric_of_its_task_only(tasked):
    store = tasked["store"]
    labels = store.load(tasked["variant"]).labels
    assert labels is not None
    kept = {task: [r.text for r in t.rubrics] for task, t in labels.tasks.items()}
    # the renewal reminder post is cut: that action item is unanswerable, nothing else is
    assert kept == {**RUBRICS, "action_items": [RUBRICS["action_items"][0]]}
    measured = store.load(tasked["variant"]).fixture.lineage.mutations[0].measured  # type: ignore[union-attr]
    assert measured["dropped_task_rubrics"] == {"action_items": [RUBRICS["action_items"][1]]}


def test_eval_run_asks_each_task_and_the_gate_floors_name_tasks(
    tasked, eval_env, judge_server, tmp_path
):
    eval_env(judge_server("reader"))
    bundle, golden, variant = str(tasked["bundle"]), tasked["golden"], tasked["variant"]
    run = cli("eval", "run", bundle, "--system", "tests.eval.systems:by_task", "--judge",
              "openai", "--repeat", "2", "--out", "out")  # fmt: skip
    assert run["flaky"] == [] and run["system_errors"] == 0
    lines = [json.loads(line) for line in Path("out/evals.jsonl").read_text().splitlines()]
    # one line per fixture, task, rubric and repetition, named fixture/task
    per_run = {golden: RUBRICS, variant: {**RUBRICS, "action_items": RUBRICS["action_items"][:1]}}
    expected = sorted(
        (f"{fixture}/{task}", task, rubric, number)
        for fixture, tasks in per_run.items()
        for task, rubrics in tasks.items()
        for rubric in rubrics
        for number in (0, 1)
    )
    got = sorted((line["name"], line["task"], line["rubric"], line["run_number"]) for line in lines)
    assert got == expected
    assert all(line["pass"] for line in lines), [line for line in lines if not line["pass"]]
    predictions = [
        json.loads(line) for line in Path("out/predictions.jsonl").read_text().splitlines()
    ]
    assert sorted((p["fixture_id"], p["task"]) for p in predictions) == sorted(
        (fixture, task) for fixture in per_run for task in RUBRICS
    )

    calibrated = cli("judge", "calibrate", bundle, "--judge", "openai")
    assert calibrated["cases"] == len(RUBRICS["summary"])  # the summary's reference, per rubric
    floors = tmp_path / "floors.toml"
    floors.write_text(FLOORS)
    args = ("--bundle", bundle, "--floors", str(floors), "--out", "gate")
    gate = cli("gate", "--predictions", "out/predictions.jsonl", *args)
    assert gate["passed"], gate["gates"]
    assert sorted(gate["accuracy"]["by_task"]) == sorted(RUBRICS)
    checks = {check["name"]: check for check in gate["gates"]}
    assert checks["task_accuracy:action_items"]["status"] == "pass"
    assert {(f["id"], f["task"]) for f in gate["fixtures"]} == {
        (fixture, task) for fixture in per_run for task in RUBRICS
    }

    # A system that answers every prompt with its summary fails the action items alone.
    cli("eval", "run", bundle, "--system", "tests.eval.systems:summary_everywhere", "--judge",
        "openai", "--out", "lazy")  # fmt: skip
    lazy = cli("gate", "--predictions", "lazy/predictions.jsonl", *args)
    checks = {check["name"]: check for check in lazy["gates"]}
    assert not lazy["passed"] and checks["task_accuracy:action_items"]["status"] == "fail"
    by_task = lazy["accuracy"]["by_task"]
    assert by_task["summary"]["accuracy"] == 1.0 and by_task["action_items"]["accuracy"] == 0.0
    assert by_task["open_questions"]["accuracy"] == 0.0


SUITE = """
import pytest

from curator.eval import assert_rubric
from tests.eval.systems import TASK_ANSWERS


@pytest.mark.curator(task="summary")
def test_summary(curator_item):
    for rubric in curator_item.rubrics:
        assert_rubric(curator_item, TASK_ANSWERS[curator_item.task], rubric)


@pytest.mark.curator(task=["action_items", "open_questions"])
def test_lists(curator_item):
    for rubric in curator_item.rubrics:
        assert_rubric(curator_item, TASK_ANSWERS[curator_item.task], rubric)
"""


def test_the_pytest_plugin_runs_each_test_on_its_tasks(tasked, judge_server, tmp_path):
    server = judge_server("reader")
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "test_tasks.py").write_text(SUITE)
    (suite / "conftest.py").write_text(f"import sys\nsys.path.insert(0, {str(REPO)!r})\n")
    args = ("--curator-bundle", str(tasked["bundle"]), "--curator-judge", "openai")
    env = {"OPENAI_BASE_URL": server.url, "OPENAI_API_KEY": PLANTED_KEY}
    listed = pytest_run(suite, *args, "--co", "--curator-judge-model", "judge-model", **env)
    ids = sorted(line.split("::")[1] for line in listed.stdout.splitlines() if "::" in line)
    golden, variant = tasked["golden"], tasked["variant"]
    assert ids == sorted(
        [f"test_summary[{f}[summary]]" for f in (golden, variant)]
        + [f"test_lists[{f}[{t}]]" for f in (golden, variant) for t in RUBRICS if t != "summary"]
    )
    run = pytest_run(suite, *args, "--curator-judge-model", "judge-model", **env)
    assert outcomes(run) == {"passed": 6}, run.stdout
    lines = [json.loads(line) for line in (suite / "evals.jsonl").read_text().splitlines()]
    assert {line["name"] for line in lines} == {
        f"{f}/{t}" for f in (golden, variant) for t in RUBRICS
    }
    assert all(line["test"].endswith(f"[{line['fixture_id']}[{line['task']}]]") for line in lines)
