"""The pytest plugin, run as a user runs it: pytest in a subprocess over a bundle of the
sample store, on the docs' example test file, with and without pytest-xdist."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from curator.eval.items import load_items
from tests.conftest import REPO, run_cli, subprocess_env
from tests.eval.conftest import PLANTED_KEY

EXAMPLES = REPO / "examples" / "evals"
PLUGIN = "curator.eval.pytest_plugin"


def entry_point_installed() -> bool:
    return any(
        ep.name == "curator" and ep.value == PLUGIN
        for ep in metadata.entry_points(group="pytest11")
    )


def pytest_run(folder: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    # The entry point loads the plugin where curator is installed; an older install of this
    # checkout lacks it, so it is named explicitly there.
    load = [] if entry_point_installed() else ["-p", PLUGIN]
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            *load,
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(folder),
            "-q",
            "-rs",
            *args,
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        env=subprocess_env(
            SOURCE_DATE_EPOCH="1767225600", CURATOR_JUDGE_DIR=str(folder / "judge"), **env
        ),
    )


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    """A folder holding the docs' example system and test file."""
    folder = tmp_path / "suite"
    folder.mkdir()
    for name in ("extractor.py", "test_extractor.py"):
        shutil.copyfile(EXAMPLES / name, folder / name)
    return folder


def evals(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "evals.jsonl").read_text().splitlines()]


def test_the_entry_point_is_declared():
    declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["entry-points"][
        "pytest11"
    ]
    assert declared == {"curator": PLUGIN}


@pytest.mark.skipif(
    not entry_point_installed(),
    reason="curator is installed without its pytest11 entry "
    "point here: `pip install -e .` registers it",
)
def test_pytest_finds_the_plugin_through_its_entry_point(tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "--help"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=120,
    )
    assert "--curator-bundle=PATH" in run.stdout


def outcomes(run: subprocess.CompletedProcess[str]) -> dict[str, int]:
    """pytest's closing line as counts: {"passed": 19, "failed": 8, ...}."""
    last = run.stdout.strip().splitlines()[-1]
    return {word: int(number) for number, word in re.findall(r"(\d+) (\w+)", last)}


def test_tests_run_once_per_fixture_with_fixture_ids_and_record_evals(sample_bundle, suite):
    items = load_items(sample_bundle).items
    listed = pytest_run(suite, "--curator-bundle", str(sample_bundle), "--co")
    ids = sorted(
        line.split("[")[1].rstrip("]") for line in listed.stdout.splitlines() if "::" in line
    )
    assert ids == sorted(i.id for i in items)  # documents to one test, threads to the other

    run = pytest_run(suite, "--curator-bundle", str(sample_bundle), "--curator-judge", "rules")
    counts = outcomes(run)
    assert counts.get("passed", 0) + counts.get("failed", 0) == len(items), run.stdout
    assert (
        counts["failed"] >= 1 and run.returncode == 1
    )  # the example system misses adversarial ones
    lines = evals(suite)
    documents = [i for i in items if i.kind == "document"]
    fields = [line for line in lines if line["kind"] == "field"]
    assert len(fields) == sum(len(i.fields) for i in documents)  # every field of every document
    assert {line["fixture_id"] for line in lines} == {i.id for i in items}
    assert all(line["test"].endswith(f"[{line['fixture_id']}]") for line in lines)
    rubrics = [line for line in lines if line["kind"] == "rubric"]
    assert rubrics and all(line["judge"] == "rules" for line in rubrics)
    failed = {line["fixture_id"] for line in lines if not line["pass"]}
    assert len(failed) == counts["failed"] and all(f"[{fid}]" in run.stdout for fid in failed)


def test_filters_narrow_the_fixtures(sample_bundle, suite):
    run = pytest_run(
        suite,
        "--curator-bundle",
        str(sample_bundle),
        "--curator-judge",
        "rules",
        "--co",
        "--curator-adversarial",
        "--curator-mutation",
        "truncate",
    )
    chosen = sorted(
        line.split("[")[1].rstrip("]") for line in run.stdout.splitlines() if "::" in line
    )
    expected = sorted(i.id for i in load_items(sample_bundle).items if "truncate" in i.mutations)
    assert chosen == expected and len(chosen) >= 2  # a truncated lease and a truncated thread
    run = pytest_run(
        suite,
        "--curator-bundle",
        str(sample_bundle),
        "--co",
        "--curator-category",
        "bilingual",
        "--curator-doc-type",
        "invoice",
    )
    chosen = [line for line in run.stdout.splitlines() if "::" in line]
    assert len(chosen) == 2 and "test_extracts_every_field[invoice-bilingual-" in chosen[0]
    assert chosen[1].endswith(
        "test_summary_meets_every_rubric[no-fixture]"
    )  # the marker kept no thread


def test_repetitions_and_xdist_give_the_same_evals_file(sample_bundle, suite, tmp_path):
    serial = pytest_run(
        suite, "--curator-bundle", str(sample_bundle), "--curator-judge", "rules", CURATOR_EVALS="2"
    )
    assert sum(outcomes(serial).values()) == 2 * len(load_items(sample_bundle).items)
    one = (suite / "evals.jsonl").read_bytes()
    assert {line["run_number"] for line in evals(suite)} == {0, 1}
    parallel_suite = tmp_path / "parallel"
    shutil.copytree(suite, parallel_suite, ignore=shutil.ignore_patterns("evals.jsonl", "judge"))
    parallel = pytest_run(
        parallel_suite,
        "-n",
        "2",
        "--curator-bundle",
        str(sample_bundle),
        "--curator-judge",
        "rules",
        CURATOR_EVALS="2",
    )
    assert outcomes(parallel) == outcomes(serial) and "bringing up nodes" in parallel.stdout, (
        parallel.stdout
    )
    assert (
        parallel_suite / "evals.jsonl"
    ).read_bytes() == one  # merged and sorted by the controller
    assert not (parallel_suite / "evals.jsonl.parts").exists()


def test_the_openai_judge_over_http_and_its_cache(sample_bundle, suite, judge_server):
    server = judge_server("reader")
    env = {"OPENAI_BASE_URL": server.url, "OPENAI_API_KEY": PLANTED_KEY}
    args = (
        "--curator-bundle",
        str(sample_bundle),
        "--curator-judge",
        "openai",
        "--curator-judge-model",
        "m",
        "--curator-kind",
        "thread",
    )
    first = pytest_run(suite, *args, **env)
    assert first.returncode in (0, 1), first.stdout + first.stderr
    calls = server.calls
    assert calls > 0 and server.authorized == calls
    assert {line["judge"] for line in evals(suite)} == {"openai:m"}
    again = pytest_run(suite, *args, **env)
    assert server.calls == calls, again.stdout  # every verdict from the cache
    assert PLANTED_KEY not in first.stdout + first.stderr + (suite / "evals.jsonl").read_text()


def test_without_a_bundle_the_eval_tests_are_skipped(suite):
    run = pytest_run(suite)
    assert run.returncode == 0 and "2 skipped" in run.stdout
    assert "no bundle: run pytest --curator-bundle PATH" in run.stdout
    assert not (suite / "evals.jsonl").exists()


def test_a_session_over_a_bundle_that_recorded_nothing_fails(sample_bundle, tmp_path):
    folder = tmp_path / "silent"
    folder.mkdir()
    (folder / "test_silent.py").write_text(
        "def test_looks_but_asserts_nothing(curator_item):\n    assert curator_item.id\n"
    )
    stale = '{"name": "x", "timestamp": "t", "run_number": 0, "rubric": "r", "pass": true}\n'
    (folder / "evals.jsonl").write_text(stale)  # an earlier, green run's file
    run = pytest_run(folder, "--curator-bundle", str(sample_bundle), "--curator-kind", "thread")
    assert run.returncode == 2, run.stdout + run.stderr
    assert outcomes(run)["passed"] >= 1  # every test passed, and still no pass
    assert run.stderr.strip().splitlines()[-1] == (
        "curator: error: evals.jsonl: no results were recorded (no test over the bundle called "
        "assert_fields or assert_rubric)"
    )
    assert (folder / "evals.jsonl").read_text() == ""  # the stale results do not stand in
    check = run_cli("view", str(folder / "evals.jsonl"), "--check")
    assert check.exit_code == 2 and "no results were recorded" in check.stderr
    listed = pytest_run(folder, "--curator-bundle", str(sample_bundle), "--co")
    assert listed.returncode == 0  # collecting only records nothing, and that is no error
