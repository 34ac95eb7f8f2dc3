"""One input, several tasks: a thread asked for its summary, its action items and its open
questions, each judged on its own rubrics, through import, label, mutate (truncate), bundle
build, `curator eval run` with the loopback judge, the pytest plugin and the gate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import REPO, run_cli
from tests.eval.conftest import PLANTED_KEY
from tests.eval.tasked import FLOORS, REFERENCE, RUBRICS, build_tasked, cli
from tests.eval.test_eval_pytest_plugin import outcomes, pytest_run


@pytest.fixture
def tasked(tmp_path: Path) -> dict:
    return build_tasked(tmp_path)


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

    # The viewer and the report group and compare by task as well as by fixture.
    check = run_cli("view", "lazy/evals.jsonl", "--check")
    assert check.exit_code == 1
    assert "by task: action_items 0/3 (0%) | open_questions 0/2 (0%) | summary 4/4 (100%)" in (
        check.stdout
    )
    comment = tmp_path / "comment.md"
    run_cli("view", "lazy/evals.jsonl", "--compare", "out/evals.jsonl", "--comment", str(comment))
    text = comment.read_text()
    assert "### Pass rate by task" in text and "| action_items | 0 | 3 | 0% |" in text
    assert "### Pass rate by fixture" in text and f"| {golden} | 2 | 5 | 40% |" in text
    assert "| action_items | 3 | 0 | 0 | 0 | 0 |" in text  # regressed, by task
    page = tmp_path / "report.html"
    made = run_cli("report", "--bundle", bundle, "--gate", "gate/report.json", "--runs",
                   "out/evals.jsonl", "--runs", "lazy/evals.jsonl", "--out", str(page))  # fmt: skip
    assert made.exit_code == 0, made.stderr
    html = page.read_text()
    assert "accuracy by task" in html and "pass rate by task" in html
    assert f"{golden}/action_items" in html  # a failing task, named fixture/task


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


def test_bundles_the_hf_dataset_and_harness_exports_carry_tasks(tmp_path):
    import datasets

    tasked = build_tasked(tmp_path, formats="jsonl,mattermost,hf")
    bundle, golden = tasked["bundle"], tasked["golden"]
    line = next(
        json.loads(raw)
        for raw in (bundle / "fixtures.jsonl").read_text().splitlines()
        if json.loads(raw)["id"] == golden
    )
    assert list(line["expected"]["tasks"]) == list(RUBRICS)
    rows = datasets.load_from_disk(str(bundle / "hf"))["golden"]
    [row] = [row for row in rows if row["id"] == golden]
    assert [(t["name"], t["rubrics"]) for t in row["tasks"]] == list(RUBRICS.items())
    assert row["tasks"][0]["reference"] == REFERENCE and row["rubrics"] == []
    assert all(t["rubric_evidence"][0]["posts"] for t in row["tasks"])
    assert "| `tasks` |" in (bundle / "README.md").read_text()

    out = tmp_path / "export"
    cli("export", str(bundle), "--to", "all", "--out", str(out))
    samples = [
        json.loads(raw) for raw in (out / "inspect" / "samples.jsonl").read_text().splitlines()
    ]
    mine = {s["id"]: s for s in samples if s["metadata"]["fixture_id"] == golden}
    assert sorted(mine) == sorted(f"{golden}/{task}" for task in RUBRICS)
    for task, rubrics in RUBRICS.items():
        sample = mine[f"{golden}/{task}"]
        assert sample["metadata"]["task"] == task
        assert [r["text"] for r in sample["metadata"]["rubrics"]] == rubrics
    assert mine[f"{golden}/summary"]["target"] == REFERENCE
