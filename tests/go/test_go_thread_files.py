"""Go eval suites read bundles: `go test` in tests/go/ loads every thread file of a bundle of
the sample store in the layout of Mattermost's eval package and prints it as its String() does,
and loads imported threads by their source file names, as Mattermost's suites name them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from curator.bundle.manifest import read_manifest
from tests.conftest import run_cli
from tests.eval.tasked import RUBRICS, build_tasked
from tests.mattermost_exports import write_thread_export

HERE = Path(__file__).resolve().parent
GO = shutil.which("go")
pytestmark = pytest.mark.skipif(
    GO is None, reason="Go is not installed (`make test` installs Debian's golang package)"
)


def go_test(bundle: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        **extra,
        "CURATOR_BUNDLE": str(bundle),
        "GOPROXY": "off",
        "GOTOOLCHAIN": "local",
        "CGO_ENABLED": "0",
    }
    return subprocess.run(
        [GO or "go", "test", "-count=1", "-v", "./..."],
        cwd=HERE,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_every_thread_file_of_the_sample_bundle_loads_in_the_eval_package_layout(sample_bundle):
    threads = [e for e in read_manifest(sample_bundle).fixtures if e.kind == "thread"]
    run = go_test(sample_bundle)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"checked {len(threads)} thread files" in run.stdout
    for entry in threads:  # one subtest per file, named by the manifest's file list
        assert (
            f"--- PASS: TestBundleThreadFilesLoadLikeTheEvalPackage/{Path(entry.files[0]).name}"
            in run.stdout
        )


def test_a_thread_file_without_its_team_or_an_author_fails_the_go_test(sample_bundle, tmp_path):
    broken = tmp_path / "bundle"
    shutil.copytree(sample_bundle, broken)
    path = next(
        p for p in sorted((broken / "mattermost").glob("*.json")) if p.name != "rubrics.json"
    )
    data = json.loads(path.read_text())
    data.pop("team")
    path.write_text(json.dumps(data))
    run = go_test(broken)
    assert run.returncode != 0 and "team or channel missing" in run.stdout


def test_a_go_suite_reads_the_rubrics_of_a_named_task_of_a_thread_file(tmp_path):
    tasked = build_tasked(tmp_path)
    bundle = tasked["bundle"]
    entries = {e.id: e for e in read_manifest(bundle).fixtures}
    name = Path(entries[tasked["golden"]].files[0]).name
    rubrics = json.loads((bundle / "mattermost" / "rubrics.json").read_text())
    assert rubrics[name] == RUBRICS  # thread file -> task -> its rubrics
    run = go_test(bundle, CURATOR_THREAD=name, CURATOR_TASK="action_items")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "--- PASS: TestNamedTaskRubrics" in run.stdout
    assert f"task action_items of {name} (6 posts): 2 rubrics" in run.stdout
    for rubric in RUBRICS["action_items"]:
        assert f"rubric: {rubric}\n" in run.stdout
    assert f"rubric: {RUBRICS['summary'][0]}" not in run.stdout
    # the truncated variant's file lists the action item its cut left answerable
    variant = Path(entries[tasked["variant"]].files[0]).name
    run = go_test(bundle, CURATOR_THREAD=variant, CURATOR_TASK="action_items")
    assert f"task action_items of {variant} (3 posts): 1 rubrics" in run.stdout, run.stdout
    # a task the thread does not have fails the suite
    run = go_test(bundle, CURATOR_THREAD=name, CURATOR_TASK="translation")
    assert run.returncode != 0 and 'has no rubrics for the task "translation"' in run.stdout


def test_go_loads_each_kind_of_thread_export_by_its_source_name(store, tmp_path):
    folder = tmp_path / "exports"
    folder.mkdir()
    write_thread_export(folder / "developers_webapp.json", channel=True)  # one channel, whole
    write_thread_export(folder / "summarize_thread.json", legacy=True)
    rubric = ("--rubric", "contains the usernames involved as @mentions if referenced")
    assert run_cli("import", str(folder), *rubric, store=store.root).exit_code == 0
    assert (
        run_cli("status", "--to", "active", "--where", "status=draft", store=store.root).exit_code
        == 0
    )
    built = run_cli("bundle", "build", "1.0.0", "--format", "jsonl,mattermost", store=store.root)
    assert built.exit_code == 0, built.stderr

    run = go_test(store.root / "bundles" / "1.0.0", CURATOR_NAMED_THREADS="1")

    assert run.returncode == 0, run.stdout + run.stderr
    for name in ("developers_webapp_channel", "thread_in_the_older_layout"):
        assert f"--- PASS: TestThreadFilesLoadByTheirSourceNames/{name}" in run.stdout
    assert "checked 2 thread files" in run.stdout
