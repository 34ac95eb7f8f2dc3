"""`curator promote` through the real entry point: summary text, --json, exit codes."""

from __future__ import annotations

import json

from curator.anonymise import audit_store
from tests.conftest import REPO, run_cli, snapshot
from tests.promote.promote_helpers import lease_failure

FAILURES = REPO / "examples" / "failures"


def test_batch_summary_text_and_exit_2_when_a_record_is_rejected(store, tmp_path):
    good, _ = lease_failure(21, "trace-cli-1")
    path = tmp_path / "batch.jsonl"
    path.write_text(
        json.dumps(good) + "\n" + json.dumps({"trace_id": "t2"}) + "\n" + json.dumps(good) + "\n"
    )
    run = run_cli("promote", path, store=store.root)
    assert run.exit_code == 2
    lines = run.stdout.splitlines()
    assert lines[0].startswith("promoted   hallucination-lease-")
    assert lines[1].startswith(
        "duplicate  line 3, trace trace-cli-1: trace already promoted as hallucination-lease-"
    )
    assert lines[2].startswith("rejected   line 2: ")
    assert lines[-1] == "1 promoted, 1 duplicate, 1 rejected"


def test_json_output_is_one_document(store, tmp_path):
    good, _ = lease_failure(22, "trace-cli-2")
    path = tmp_path / "one.json"
    path.write_text(json.dumps(good, indent=2))
    run = run_cli("promote", path, "--failure-mode", "other", "--json", store=store.root)
    assert run.exit_code == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["counts"] == {"promoted": 1, "duplicates": 0, "rejected": 0}
    assert data["promoted"][0]["category"] == "other" and data["promoted"][0]["line"] == 1


def test_usage_errors_are_one_line_and_leave_the_store_alone(store, tmp_path):
    before = snapshot(store.root)
    run = run_cli("promote", tmp_path / "nope.jsonl", store=store.root)
    assert (
        run.exit_code == 2
        and run.stderr == f"curator: error: {tmp_path / 'nope.jsonl'}: no such file\n"
    )
    good, _ = lease_failure(23, "trace-cli-3")
    (tmp_path / "f.json").write_text(json.dumps(good))
    run = run_cli("promote", tmp_path / "f.json", "--failure-mode", "bogus", store=store.root)
    assert run.exit_code == 2 and "unknown failure mode 'bogus'" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
    assert snapshot(store.root) == before


def test_the_shipped_sample_failures(store):
    run = run_cli("promote", FAILURES / "failures.jsonl", store=store.root)
    assert run.exit_code == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1] == "3 promoted, 0 duplicates, 0 rejected"
    run = run_cli("promote", FAILURES / "failure.json", store=store.root)
    assert run.exit_code == 0 and "already covered by hallucination-lease-" in run.stdout
    run = run_cli("promote", FAILURES / "failures.jsonl", "--json", store=store.root)
    assert json.loads(run.stdout)["counts"] == {"promoted": 0, "duplicates": 3, "rejected": 0}
    assert run_cli("validate", store=store.root).exit_code == 0
    assert audit_store(store) == []
