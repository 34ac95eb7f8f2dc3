"""Conversation fixtures end to end: import, label, mutate, bundle build (every format),
`curator eval run` with a system that reads the messages, judge calibration and the gate.

The conversations are tests/ingest/conversation_samples.py's (OpenAI chat format and a
request/response log, cited there)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.ingest import conversation_samples as sample

SYSTEM = "tests.eval.conversation_system:answer"


def _ok(*args: str, store: Path) -> str:
    result = run_cli(*args, store=store)
    assert result.exit_code == 0, result.stdout + result.stderr
    return result.stdout


def _content(store: Path, fixture_id: str) -> dict:
    [path] = store.glob(f"*/{fixture_id}/content.json")
    return json.loads(path.read_text(encoding="utf-8"))["content"]


@pytest.fixture
def conversations(store, tmp_path, monkeypatch):
    """The store with the chat line and the log line imported and labelled."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CURATOR_JUDGE_DIR", str(tmp_path / "judge"))
    source = sample.write_jsonl(tmp_path, "talks.jsonl", [sample.chat_line(), sample.log_line()])
    created = json.loads(_ok("import", str(source), "--json", store=store.root))["created"]
    chat, log = (c["id"] for c in created)
    tenant = INTRODUCED.search(_content(store.root, chat)["messages"][1]["content"]).group(1)
    reply = _content(store.root, chat)["messages"][-1]["content"]
    _ok(
        "label", "set", chat, "--doc-type", "lease", f"tenant={tenant}",
        "lease_end_date=2025-06-30", "monthly_rent=$1,450.00",
        "--rubric", "Gives the end date 2025-06-30", "--reference", reply,
        store=store.root,
    )  # fmt: skip
    _ok(
        "label", "set", log, "--rubric", 'Says "two months"',
        "--reference", "Two months' notice.", store=store.root,
    )  # fmt: skip
    return store, chat, log, tenant


INTRODUCED = re.compile(r"I'm (.+?) \(")


def test_conversations_round_trip_through_mutate_bundle_eval_and_the_gate(conversations):
    store, chat, log, tenant = conversations
    cut = json.loads(
        _ok("mutate", chat, "--truncate", "0.5", "--seed", "3", "--json", store=store.root)
    )
    [cut_id] = [v["id"] for v in cut["variants"]]
    assert [m["role"] for m in _content(store.root, cut_id)["messages"]] == ["system", "user"]
    turned = json.loads(
        _ok("mutate", chat, "--contradict", "tenant", "--seed", "4", "--json", store=store.root)
    )
    [turned_id] = [v["id"] for v in turned["variants"]]
    last = _content(store.root, turned_id)["messages"][-1]
    assert last["role"] == "user" and last["content"].startswith("Correction: the tenant is ")
    noisy = run_cli("mutate", chat, "--ocr-noise", store=store.root)
    assert noisy.exit_code == 2 and "does not apply to conversations" in noisy.stderr

    checked = run_cli("validate", store=store.root)
    assert checked.exit_code == 0, checked.stdout + checked.stderr  # every span still holds

    # the cut removed the answer: a person settles the rubric the mutation left to review
    _ok(
        "label", "set", cut_id, "--drop-rubric", "Gives the end date 2025-06-30",
        "--rubric", 'Says "cannot see"', "--reference", "I cannot see that yet.",
        store=store.root,
    )  # fmt: skip
    _ok("status", "--to", "active", chat, log, cut_id, turned_id, store=store.root)
    _ok("bundle", "build", "1.0.0", "--format", "jsonl,hf,parquet,mattermost", store=store.root)
    bundle = store.root / "bundles" / "1.0.0"
    _ok("bundle", "verify", str(bundle), store=store.root)
    lines = [json.loads(line) for line in (bundle / "fixtures.jsonl").read_text().splitlines()]
    assert {line["kind"] for line in lines} == {"conversation"}
    assert not list((bundle / "mattermost").glob("*.json"))[1:]  # rubrics.json alone: no threads

    _ok("eval", "run", str(bundle), "--system", SYSTEM, "--judge", "rules", store=store.root)
    predictions = {
        p["fixture_id"]: p
        for p in map(json.loads, Path("eval-out/predictions.jsonl").read_text().splitlines())
    }
    assert predictions[chat]["fields"]["tenant"]["value"] == tenant
    new_tenant = turned["variants"][0]["mutations"][0]["measured"]["new_value"]
    assert predictions[turned_id]["fields"]["tenant"]["value"] == new_tenant
    assert all(r["pass"] for p in predictions.values() for r in p["rubrics"])

    # a bundle this small bounds a judge's false-pass rate loosely: the floor says how loosely
    Path("floors.toml").write_text("[floors]\nmax_judge_false_pass = 0.4\n", encoding="utf-8")
    _ok(
        "judge", "calibrate", str(bundle), "--judge", "rules", "--floors", "floors.toml",
        store=store.root,
    )  # fmt: skip
    gate = run_cli(
        "gate", "--bundle", str(bundle), "--predictions", "eval-out/predictions.jsonl",
        "--floors", "floors.toml", store=store.root,
    )  # fmt: skip
    assert gate.exit_code == 0, gate.stdout + gate.stderr
    assert "PASS  pass_rate" in gate.stdout

    # harnesses get the messages too, each content a text (a tool call written out)
    _ok("export", str(bundle), "--to", "all", "--out", "exports", store=store.root)
    samples = Path("exports/inspect/samples.jsonl").read_text().splitlines()
    given = {row["id"]: row["input"] for row in map(json.loads, samples)}
    assert [m["role"] for m in given[chat]] == ["system", "user", "assistant", "tool", "assistant"]
    assert all(isinstance(m["content"], str) for m in given[chat])
    assert given[chat][2]["content"].startswith("called find_lease(")
