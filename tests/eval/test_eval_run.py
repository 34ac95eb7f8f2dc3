"""`curator eval run` against a bundle of the sample store, judged over HTTP by a loopback
chat-completions server: calls, caching, evals.jsonl, predictions the gate accepts."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

from curator.bundle.manifest import read_manifest
from curator.eval.items import load_items
from curator.judge.prompts import PROMPT_VERSION
from curator.model import EvalLine, Prediction
from tests.conftest import CURATOR, run_cli, subprocess_env
from tests.eval import systems
from tests.eval.conftest import JUDGE_MODEL

MATTERMOST_MEMBERS = (
    "name",
    "timestamp",
    "run_number",
    "rubric",
    "output",
    "reasoning",
    "score",
    "pass",
)


def eval_run(bundle: Path, system: str = "perfect", *extra: str, out: str = "out"):
    return run_cli(
        "eval", "run", str(bundle), "--system", f"tests.eval.systems:{system}", "--out", out, *extra
    )


def read_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def judgements(bundle: Path) -> tuple[int, int]:
    """(rubric verdicts, faithfulness checks) one run of a perfect system needs."""
    items = load_items(bundle).items
    return sum(len(i.rubrics) for i in items), sum(1 for i in items if i.kind == "thread")


def test_a_run_writes_mattermost_eval_lines_and_predictions_the_gate_takes(
    sample_bundle, eval_env, judge_server
):
    server = judge_server("reader")
    eval_env(server)
    run = eval_run(sample_bundle, "perfect", "--judge", "openai", "--repeat", "2", "--json")
    assert run.exit_code == 0, run.stderr
    summary = json.loads(run.stdout)
    rubrics, threads = judgements(sample_bundle)
    # Run 2 gives the same answers, so it is served from the cache: one call per judgement.
    assert server.calls == rubrics + threads == summary["judge_calls"]
    assert summary["judge_cached"] == rubrics + threads and summary["judge_errors"] == 0
    assert (
        summary["fixtures"] == len(read_manifest(sample_bundle).fixtures) and summary["flaky"] == []
    )

    items = load_items(sample_bundle).items
    lines = read_lines(Path("out/evals.jsonl"))
    per_run = sum(len(i.fields) + len(i.rubrics) for i in items)
    assert len(lines) == 2 * per_run
    shas = {e.id: e.line_sha256 for e in read_manifest(sample_bundle).fixtures}
    for line in lines:
        EvalLine.model_validate(line)
        assert list(line)[:8] == list(MATTERMOST_MEMBERS)  # Mattermost's viewer reads these
        assert (
            line["fixture_sha256"] == shas[line["fixture_id"]] and line["bundle_version"] == "1.0.0"
        )
        assert line["pass"] is True and line["timestamp"] == "2026-01-01T00:00:00Z"
    judged = [line for line in lines if line["kind"] == "rubric"]
    assert {line["judge"] for line in judged} == {f"openai:{JUDGE_MODEL}"}
    assert {line["prompt_version"] for line in judged} == {PROMPT_VERSION}
    first = [line for line in judged if line["run_number"] == 0]
    assert all(line["verified"] and line["evidence"] and line["latency_ms"] > 0 for line in first)
    assert all(isinstance(line["prompt_tokens"], int) for line in first)
    fields = [line for line in lines if line["kind"] == "field"]
    assert all(
        line["score"] == 1.0 and line["rubric"].startswith(f"{line['field']} = ") for line in fields
    )

    predictions = [Prediction.model_validate(p) for p in read_lines(Path("out/predictions.jsonl"))]
    assert all(p.runs.repetitions == 2 and p.runs.passed == 2 for p in predictions)
    faithful = [p.metrics.faithfulness for p in predictions if p.rubrics and p.metrics]
    assert faithful and all(0 <= value <= 1 for value in faithful)

    # The gate reads the file unchanged, but trusts the judge only once it is calibrated.
    gate = run_cli("gate", "--bundle", str(sample_bundle), "--predictions", "out/predictions.jsonl")
    assert gate.exit_code == 1 and "judge_calibration" in gate.stderr
    assert "has no calibration on this bundle" in gate.stdout
    calibrated = run_cli("judge", "calibrate", str(sample_bundle), "--judge", "openai")
    assert calibrated.exit_code == 0, calibrated.stdout + calibrated.stderr
    gate = run_cli("gate", "--bundle", str(sample_bundle), "--predictions", "out/predictions.jsonl")
    assert gate.exit_code == 0, gate.stdout + gate.stderr
    assert "PASS  judge_calibration" in gate.stdout and "PASS  pass_rate" in gate.stdout

    # Nothing changed: a rerun makes no judge call at all.
    before = server.calls
    again = eval_run(sample_bundle, "perfect", "--judge", "openai", "--repeat", "2", out="again")
    assert again.exit_code == 0, again.stderr
    assert server.calls == before
    assert Path("again/predictions.jsonl").read_text() == Path("out/predictions.jsonl").read_text()

    def without_system_latency(path: str) -> list[dict]:  # the system's own timing differs per run
        return [
            {**line, "latency_ms": None} if line["kind"] == "field" else line
            for line in read_lines(Path(path))
        ]

    assert without_system_latency("again/evals.jsonl") == without_system_latency("out/evals.jsonl")


def test_relabelling_a_fixture_invalidates_exactly_its_verdicts(own_bundle, eval_env, judge_server):
    server = judge_server("reader")
    eval_env(server)
    first = own_bundle("1.0.0")
    assert eval_run(first, "perfect", "--judge", "openai").exit_code == 0
    thread = next(i for i in load_items(first).items if i.kind == "thread" and i.labels.reference)
    relabel = run_cli(
        "label",
        "set",
        thread.id,
        "--rubric",
        'The answer says "thirty days".',
        store=own_bundle.store.root,
    )
    assert relabel.exit_code == 0, relabel.stderr
    second = own_bundle("1.1.0")
    before = server.calls
    run = eval_run(second, "perfect", "--judge", "openai", "--json", out="second")
    assert run.exit_code == 0, run.stderr
    # Its new line hash misses every cached verdict of it, and only of it.
    assert (
        server.calls - before == (len(thread.rubrics) + 1) + 1
    )  # rubrics + the new one, faithfulness
    assert (
        json.loads(run.stdout)["judge_cached"] == sum(judgements(first)) - len(thread.rubrics) - 1
    )


def test_offline_replays_the_cache_and_refuses_a_missing_verdict(
    sample_bundle, eval_env, judge_server
):
    server = judge_server("reader")
    eval_env(server)
    missing = eval_run(sample_bundle, "perfect", "--judge", "openai", "--offline", out="offline")
    assert missing.exit_code == 2 and server.calls == 0
    assert missing.stderr.count("\n") == 1 and missing.stderr.startswith(
        "curator: error: --offline: no cached verdict"
    )
    assert not Path("offline").exists()
    assert eval_run(sample_bundle, "perfect", "--judge", "openai").exit_code == 0
    server.stop()  # offline never needs it
    replay = eval_run(sample_bundle, "perfect", "--judge", "openai", "--offline", out="replay")
    assert replay.exit_code == 0, replay.stderr
    assert Path("replay/predictions.jsonl").read_text() == Path("out/predictions.jsonl").read_text()


def test_a_fixture_that_passes_in_some_runs_and_fails_in_others_is_flaky(
    sample_bundle, eval_env, judge_server
):
    eval_env(judge_server("reader"))
    run = eval_run(sample_bundle, "flipping", "--judge", "openai", "--repeat", "4", "--json")
    assert run.exit_code == 0, run.stderr
    summary = json.loads(run.stdout)
    assert len(summary["flaky"]) == summary["fixtures"]
    assert set(summary["pass_rates"].values()) == {0.5}
    runs = {line["run_number"] for line in read_lines(Path("out/evals.jsonl"))}
    assert runs == {0, 1, 2, 3}
    gate = run_cli(
        "gate", "--bundle", str(sample_bundle), "--predictions", "out/predictions.jsonl", "--json"
    )
    report = json.loads(gate.stdout)
    checks = {c["name"]: c["status"] for c in report["gates"]}
    assert gate.exit_code == 1 and checks["flaky_share"] == "fail" and checks["pass_rate"] == "fail"
    assert all("flaky" in f["classes"] and f["pass_rate"] == 0.5 for f in report["fixtures"])


def test_verdicts_that_flip_between_runs_make_a_thread_flaky(sample_bundle, eval_env, judge_server):
    server = judge_server("flip")
    eval_env(server)
    run = eval_run(
        sample_bundle,
        "run_stamped",
        "--judge",
        "openai",
        "--repeat",
        "2",
        "--concurrency",
        "1",
        "--json",
    )
    assert run.exit_code == 0, run.stderr
    summary = json.loads(run.stdout)
    threads = {i.id for i in load_items(sample_bundle).items if i.kind == "thread"}
    assert summary["flaky"] and set(summary["flaky"]) <= threads
    assert summary["judge_cached"] == 0  # each run's answer differs, so each is judged


def test_curator_evals_sets_the_repetitions_as_goevals_does(
    sample_bundle, eval_env, judge_server, monkeypatch
):
    eval_env(judge_server("reader"))
    monkeypatch.setenv("CURATOR_EVALS", "3")
    run = eval_run(sample_bundle, "perfect", "--judge", "rules", "--json")
    assert run.exit_code == 0, run.stderr
    assert json.loads(run.stdout)["repetitions"] == 3
    monkeypatch.setenv("CURATOR_EVALS", "many")
    bad = eval_run(sample_bundle, "perfect", "--judge", "rules")
    assert bad.exit_code == 2 and "CURATOR_EVALS='many'" in bad.stderr


def test_a_system_that_raises_stalls_or_returns_nonsense_is_an_error_for_that_fixture(
    sample_bundle, eval_env, judge_server
):
    eval_env(judge_server("reader"))
    run = eval_run(sample_bundle, "troubled", "--judge", "rules", "--timeout", "0.5", "--json")
    assert run.exit_code == 0, run.stderr
    lines = read_lines(Path("out/evals.jsonl"))
    errors = {line["fixture_id"]: line["error"] for line in lines if line["error"]}
    invoices = [i.id for i in load_items(sample_bundle).items if i.doc_type == "invoice"]
    assert all(errors[i] == "system raised RuntimeError: extractor crashed" for i in invoices)
    assert any(e == "system timed out after 0.5s" for e in errors.values())
    assert any(e.startswith("a system returns an Answer") for e in errors.values())
    assert all(
        line["pass"] is False and line["failure_class"] == "system_error"
        for line in lines
        if line["error"] and line["kind"] == "field"
    )
    threads = [line for line in lines if line["kind"] == "rubric"]
    assert threads and all(line["pass"] for line in threads)  # the run went on
    assert json.loads(run.stdout)["system_errors"] == len(set(errors))


def test_faithfulness_is_measured_and_its_drop_fails_the_gate(
    sample_bundle, eval_env, judge_server
):
    eval_env(judge_server("reader"))
    assert eval_run(sample_bundle, "perfect", "--judge", "openai", out="good").exit_code == 0
    assert run_cli("judge", "calibrate", str(sample_bundle), "--judge", "openai").exit_code == 0
    good = run_cli(
        "gate",
        "--bundle",
        str(sample_bundle),
        "--predictions",
        "good/predictions.jsonl",
        "--out",
        "good-report",
    )
    assert good.exit_code == 0, good.stdout
    assert eval_run(sample_bundle, "unfaithful", "--judge", "openai", out="bad").exit_code == 0
    faithfulness = [
        p["metrics"]["faithfulness"]
        for p in read_lines(Path("bad/predictions.jsonl"))
        if p.get("metrics", {}).get("faithfulness") is not None
    ]
    assert faithfulness and max(faithfulness) < 1  # the made-up $9,999.00 is unsupported
    bad = run_cli(
        "gate",
        "--bundle",
        str(sample_bundle),
        "--predictions",
        "bad/predictions.jsonl",
        "--baseline",
        "good-report/report.json",
        "--json",
    )
    report = json.loads(bad.stdout)
    assert bad.exit_code == 1
    assert next(c for c in report["gates"] if c["name"] == "faithfulness_drop")["status"] == "fail"
    assert report["quality"]["composite"] is not None  # 0.35/0.40/0.25 over the three metrics


def test_a_system_raising_system_exit_or_keyboard_interrupt_is_that_fixtures_error(
    sample_bundle, eval_env
):
    run = eval_run(sample_bundle, "exits", "--judge", "rules", "--json")
    assert (run.exit_code, run.stderr) == (0, "")  # no traceback, no abort
    lines = read_lines(Path("out/evals.jsonl"))
    errors = {line["fixture_id"]: line["error"] for line in lines if line["error"]}
    assert errors == {
        systems.SYSTEM_EXIT_ON: "system raised SystemExit: 3",
        systems.KEYBOARD_INTERRUPT_ON: "system raised KeyboardInterrupt",
    }
    assert all(line["failure_class"] == "system_error" for line in lines if line["error"])
    others = [line for line in lines if line["fixture_id"] not in errors]
    assert others and all(line["pass"] for line in others)  # the others scored
    assert {line["fixture_id"] for line in lines} == {i.id for i in load_items(sample_bundle).items}
    assert json.loads(run.stdout)["system_errors"] == 2


def test_ctrl_c_stops_the_run_writes_what_is_done_and_exits_130(sample_bundle, eval_env, tmp_path):
    marker = tmp_path / "stalled"
    child = subprocess.Popen(
        [
            *CURATOR,
            "eval",
            "run",
            str(sample_bundle),
            "--system",
            "tests.eval.systems:stalls_on_third_call",
            "--judge",
            "rules",
            "--concurrency",
            "1",
            "--out",
            "out",
        ],
        env=subprocess_env(CURATOR_TEST_MARKER=str(marker)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        while not marker.exists():
            assert child.poll() is None, child.communicate()
            time.sleep(0.05)
        child.send_signal(signal.SIGINT)
        stdout, stderr = child.communicate(timeout=60)  # the hung call does not hold it
    finally:
        child.kill()
    total = len(load_items(sample_bundle).items)
    assert child.returncode == 130 and stdout == ""
    assert stderr == f"curator: error: interrupted: 2 of {total} run(s) done, written to out\n"
    done = {line["fixture_id"] for line in read_lines(Path("out/evals.jsonl"))}
    predicted = [json.loads(line)["fixture_id"] for line in Path("out/predictions.jsonl").open()]
    assert len(done) == 2 and sorted(predicted) == sorted(done)
