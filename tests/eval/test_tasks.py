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
from tests.eval.tasked import FLOORS, REFERENCE, RUBRICS, THREAD, build_tasked, cli
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
    assert run["fixtures"] == 2 and run["tasks"] == 6
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
    # each task's rubrics judged on its own reference (the variant's dropped), per rubric
    results = calibrated["results"]
    references = [(c["task"], c["rubric"]) for c in results if c["answer"] == "reference"]
    assert sorted(references) == sorted((t, r) for t, rs in RUBRICS.items() for r in rs)
    assert {c["task"] for c in results} == set(RUBRICS) and calibrated["false_pass_rate"] == 0
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


LEASE = "residential-lease-agreement-0f35b496"
DOCUMENT_TASKS = {
    "parties": {"tenant": "Ryan Barr", "landlord": "Levi Thornton"},
    "money": {"monthly_rent": "$1,150.00", "security_deposit": "$2,300.00"},
}


def test_a_document_task_asks_for_its_own_fields(tmp_path):
    from curator.bundle.build import build_bundle
    from curator.eval.items import load_items
    from curator.eval.runner import run_eval
    from curator.labels import set_labels
    from curator.score.gate import build_report
    from curator.score.source import load_cases
    from tests.conftest import copy_sample_store
    from tests.eval.systems import perfect

    store = copy_sample_store(tmp_path / "store")
    for task, values in DOCUMENT_TASKS.items():
        set_labels(store, LEASE, assignments=values, task=task)
    labels = store.load(LEASE).labels
    assert {name: task.fields for name, task in labels.tasks.items()} == {
        name: list(values) for name, values in DOCUMENT_TASKS.items()
    }
    assert len(labels.fields) == 7  # every field keeps its one label
    # a mutation transforms the fields every task asks for, and keeps the tasks
    [variant] = cli("mutate", LEASE, "--ocr-noise", "0.05", store=store)["variants"]
    noisy = store.load(variant["id"]).labels
    assert noisy.tasks == labels.tasks and noisy.fields.keys() == labels.fields.keys()
    bundle = build_bundle(store, "1.0.0", formats="jsonl").path
    items = [item for item in load_items(bundle).items if item.id == LEASE]
    assert [(item.task, sorted(item.fields)) for item in items] == [
        (task, sorted(values)) for task, values in DOCUMENT_TASKS.items()
    ]
    run = run_eval(load_items(bundle), perfect, items=items)
    assert [(p.task, sorted(p.fields)) for p in run.predictions] == [
        (task, sorted(values)) for task, values in DOCUMENT_TASKS.items()
    ]
    predicted = {f"{LEASE}/{p.task}": p for p in run.predictions}
    report = build_report([c for c in load_cases(bundle) if c.fixture.id == LEASE], predicted)
    assert [(f.task, f.right, f.total) for f in report.fixtures] == [
        ("parties", 2, 2),
        ("money", 2, 2),
    ]
    assert report.accuracy["by_task"]["money"]["accuracy"] == 1.0


def test_fixtures_without_named_tasks_keep_every_byte(sample_bundle, eval_env, tmp_path):
    """No migration: the shipped store and a bundle of it read and write back as they are,
    have one default task each, and an eval run and the gate over them name no task."""
    from curator.bundle.serialise import dump_line
    from curator.eval.items import load_items
    from curator.model import BundleLine, GateReport
    from curator.score.report import render_json
    from curator.store import dump_labels

    for record in Store(REPO).records():
        assert dump_labels(record.revisions) == (record.directory / "labels.jsonl").read_text()
        assert all(r.task_names() == [None] for r in record.revisions)
    for raw in (sample_bundle / "fixtures.jsonl").read_text().splitlines():
        assert dump_line(BundleLine.model_validate_json(raw)) == raw
    rubrics = json.loads((sample_bundle / "mattermost" / "rubrics.json").read_text())
    assert all(isinstance(texts, list) for texts in rubrics.values())
    items = load_items(sample_bundle).items
    assert all(item.task is None and item.name == item.id for item in items)

    bundle = str(sample_bundle)
    cli("eval", "run", bundle, "--system", "tests.eval.systems:perfect", "--judge", "rules",
        "--out", "out")  # fmt: skip
    cli("judge", "calibrate", bundle, "--judge", "rules")
    gate = cli("gate", "--bundle", bundle, "--predictions", "out/predictions.jsonl",
               "--out", "gate")  # fmt: skip
    assert gate["passed"] and "by_task" not in gate["accuracy"]
    for name in ("out/evals.jsonl", "out/predictions.jsonl"):
        assert all('"task"' not in line for line in Path(name).read_text().splitlines())
    written = Path("gate/report.json").read_text()
    assert '"task' not in written
    assert render_json(GateReport.model_validate_json(written)) == written


def test_task_refusals_leave_the_store_as_it_was(tmp_path):
    from tests.conftest import snapshot

    store = Store.init(tmp_path / "store")
    rubrics = tmp_path / "summary.txt"
    rubrics.write_text("The summary states the monthly rent of $950.00.\n")
    before = snapshot(store.root)
    refusals = [
        (["--task", "summary", "--task", "action_items", "--rubrics", str(rubrics)],
         "2 tasks need 2 rubric files"),
        (["--task", "Summary!", "--rubrics", str(rubrics)], "task name 'Summary!'"),
        (["--task", "summary"], "task summary: give its rubrics"),
    ]  # fmt: skip
    for args, reason in refusals:
        refused = run_cli("import", str(THREAD), *args, store=store.root)
        assert refused.exit_code == 2 and reason in refused.stderr, refused.stderr
        assert snapshot(store.root) == before
    [created] = cli("import", str(THREAD), "--rubric", "Says $950.00.", store=store)["created"]
    labels = store.load(created["id"]).labels
    refused = run_cli("label", "set", created["id"], "--task", "summary", "--rubric", "Any.",
                      store=store.root)  # fmt: skip
    assert refused.exit_code == 2 and "belong to no task" in refused.stderr
    assert store.load(created["id"]).labels == labels
