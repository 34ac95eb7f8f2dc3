"""`curator export --to langfuse`: items with only the keys create_dataset_item takes, ids
prefixed with the bundle version; --push sends them through the real Langfuse SDK 5.2.0 (in
the harness venv) to a loopback stand-in of the server (tests/harness/langfuse_stub.py)."""

from __future__ import annotations

import json
import subprocess

from curator.bundle import load
from curator.bundle.manifest import read_manifest
from tests.conftest import REPO, run_cli
from tests.harness.conftest import HARNESS_PYTHON, harness_env
from tests.harness.langfuse_stub import LangfuseStub

ALLOWED = {"input", "expected_output", "metadata", "id"}


def test_items_carry_only_what_create_dataset_item_takes(sample_bundle, tmp_path):
    done = run_cli("export", str(sample_bundle), "--to", "langfuse", "--out", str(tmp_path))
    assert done.exit_code == 0, done.stderr
    rows = [json.loads(line) for line in (tmp_path / "langfuse" / "items.jsonl").open()]
    version = read_manifest(sample_bundle).bundle_version
    items = {item.id: item for item in load(sample_bundle)}
    assert [row["id"] for row in rows] == [f"{version}:{fixture_id}" for fixture_id in items]
    for row in rows:
        assert set(row) == ALLOWED
        assert row["input"]["text"]
        assert row["metadata"]["category"] == items[row["metadata"]["fixture_id"]].fixture.category


def test_push_sends_every_item_through_the_langfuse_sdk(sample_bundle, tmp_path):
    with LangfuseStub() as server:
        env = harness_env(tmp_path) | {
            "LANGFUSE_PUBLIC_KEY": "pk-lf-test",
            "LANGFUSE_SECRET_KEY": "sk-lf-test",
        }
        command = [str(HARNESS_PYTHON), "-m", "curator", "export", str(sample_bundle)]
        command += ["--to", "langfuse", "--out", str(tmp_path / "x"), "--push", server.url]
        done = subprocess.run(
            command, cwd=REPO, env=env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stdout + done.stderr
    count = len(list(load(sample_bundle)))
    assert f"pushed {count} items" in done.stdout
    sent = server.items()
    exported = [json.loads(line) for line in (tmp_path / "x" / "langfuse" / "items.jsonl").open()]
    assert [item["id"] for item in sent] == [row["id"] for row in exported]
    assert all(item["datasetName"] == "curator" for item in sent)
    assert sent[0]["metadata"] == exported[0]["metadata"]
    assert {r["user"] for r in server.requests} == {"pk-lf-test"}


def test_push_to_a_server_that_refuses_is_one_error_line(sample_bundle, tmp_path):
    env = harness_env(tmp_path) | {"LANGFUSE_PUBLIC_KEY": "pk", "LANGFUSE_SECRET_KEY": "sk"}
    with LangfuseStub() as server:
        url = server.url + "/nowhere"  # every endpoint 404s there
        command = [str(HARNESS_PYTHON), "-m", "curator", "export", str(sample_bundle)]
        command += ["--to", "langfuse", "--out", str(tmp_path / "x"), "--push", url]
        done = subprocess.run(
            command, cwd=REPO, env=env, capture_output=True, text=True, timeout=300
        )
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0, done.stderr
    assert "Langfuse push" in done.stderr


def test_push_without_the_sdk_says_how_to_get_it(sample_bundle, tmp_path):
    done = run_cli(
        "export", sample_bundle, "--to", "langfuse", "--out", tmp_path, "--push", "http://x"
    )
    assert done.exit_code == 2
    assert "pip install 'langfuse" in done.stderr
