"""Deadlines and sizes: a judge that trickles its reply or sends 50 MB, and a system whose
answer is 50 MB, cost one bounded error each, run as a user runs `curator eval run` (a
child process, its peak memory measured by tests/hostile/peak_rss.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from curator.eval.items import load_items
from tests.conftest import subprocess_env
from tests.hostile.conftest import PEAK_RSS

MEMORY_MB = 512  # the bound on a run against a hostile judge
FILE_MB = 10  # and on any file it writes
# Not a timing assertion: a guard so that a run the deadline fails to cut off (a trickling
# reply takes minutes whole, at every attempt) fails the test instead of hanging it.
HANG_GUARD_SECONDS = 300
# Each verdict gets one 1 s attempt and its retries, within a 2 s budget.
LIMITS_TOML = "verdict_budget = 2.0\n"


@pytest.fixture
def limited_env(eval_env):
    """eval_env, with a verdict budget in its [judge] (the file's last table)."""
    toml = Path(os.environ["CURATOR_STORE"]) / "curator.toml"
    toml.write_text(toml.read_text() + LIMITS_TOML)
    return eval_env


@dataclass
class ChildRun:
    exit_code: int
    stdout: str
    stderr: str
    peak_mb: float


def eval_in_child(bundle: Path, system: str) -> ChildRun:
    """`curator eval run` in a child, through peak_rss.py (see there why)."""
    argv = [sys.executable, "-m", "curator", "eval", "run", str(bundle), "--system"]
    argv += [f"tests.eval.systems:{system}", "--judge", "openai", "--out", "out", "--json"]
    with tempfile.TemporaryDirectory(prefix="curator-peak-") as folder:
        peak = Path(folder) / "peak"
        done = subprocess.run(
            [sys.executable, str(PEAK_RSS), str(peak), *argv],
            env=subprocess_env(),
            capture_output=True,
            text=True,
            timeout=HANG_GUARD_SECONDS,
        )
        return ChildRun(done.returncode, done.stdout, done.stderr, int(peak.read_text()) / 1024)


def written_files(*roots: Path) -> dict[str, int]:
    return {str(p): p.stat().st_size for root in roots for p in root.rglob("*") if p.is_file()}


@pytest.mark.parametrize(
    ("policy", "error"),
    [
        ("trickle", "the judge server did not answer within "),  # 1 s, then what is left
        ("huge", "the judge server's reply is over the cap of 1.0 MiB"),
        ("huge_declared", "the judge server's reply is 50.0 MiB, over the cap of 1.0 MiB"),
    ],
)
def test_a_hostile_judge_costs_a_judge_error_within_the_deadline_and_the_cap(
    sample_bundle, limited_env, judge_server, policy, error
):
    server = judge_server(policy)
    limited_env(server)
    run = eval_in_child(sample_bundle, "perfect")
    assert run.exit_code == 0, run.stderr
    summary = json.loads(run.stdout)
    judged = sum(len(i.rubrics) for i in load_items(sample_bundle).items)
    assert summary["judge_errors"] >= judged > 0 and summary["judge_cached"] == 0
    lines = [json.loads(line) for line in Path("out/evals.jsonl").read_text().splitlines()]
    rubrics = [line for line in lines if line["kind"] == "rubric"]
    assert len(rubrics) == judged
    assert all(line["error"].startswith(error) and not line["pass"] for line in rubrics)
    assert run.peak_mb < MEMORY_MB
    files = written_files(Path.cwd(), Path(os.environ["CURATOR_JUDGE_DIR"]))
    assert files and max(files.values()) < FILE_MB * 1024 * 1024, files
    assert "aaaaaaaaaaaaaaaa" not in Path("out/evals.jsonl").read_text()  # nothing of the reply


def test_a_system_answer_over_the_cap_is_that_fixtures_error_and_is_not_recorded(
    sample_bundle, limited_env, judge_server
):
    limited_env(judge_server("reader"))
    run = eval_in_child(sample_bundle, "rambling")
    assert run.exit_code == 0, run.stderr
    lines = [json.loads(line) for line in Path("out/evals.jsonl").read_text().splitlines()]
    threads = {i.id for i in load_items(sample_bundle).items if i.kind == "thread"}
    capped = [line for line in lines if line["fixture_id"] in threads]
    assert capped and all(
        line["error"]
        == "the system's answer is 50.0 MiB, over the cap of 1.0 MiB ([judge] max_reply_bytes)"
        and line["failure_class"] == "system_error"
        and line["output"] == ""
        for line in capped
    )
    others = [line for line in lines if line["fixture_id"] not in threads]
    assert others and all(line["pass"] for line in others)  # the documents are scored
    assert max(written_files(Path.cwd()).values()) < FILE_MB * 1024 * 1024


def test_the_pytest_plugins_assertions_hold_an_answer_to_the_same_cap(sample_bundle):
    from curator.eval.asserts import Recorder, activate, assert_fields, assert_rubric
    from curator.judge.rules import RulesJudge

    items = load_items(sample_bundle).items
    thread = next(i for i in items if i.kind == "thread" and i.rubrics)
    document = next(i for i in items if i.kind == "document" and i.fields)
    recorder = Recorder(RulesJudge(), max_answer_bytes=1024)
    activate(recorder)
    try:
        with pytest.raises(
            AssertionError, match="the system's answer is 2 KiB, over the cap of 1 KiB"
        ):
            assert_rubric(thread, "a" * 2048, thread.rubrics[0])
        fields = {name: "b" * 2048 for name in document.fields}
        with pytest.raises(AssertionError, match="over the cap of 1 KiB"):
            assert_fields(document, fields)
    finally:
        activate(None)
    assert recorder.lines and all(
        line.error
        and line.error.startswith("the system's answer is")
        and line.failure_class == "system_error"
        and "aaaa" not in line.output + line.reasoning
        and "bbbb" not in line.output + line.reasoning
        for line in recorder.lines
    )
