"""LLM conversations (OpenAI chat format, request/response and Batch API logs) become
conversation fixtures: roles kept as structure, contents anonymised.

The samples (tests/ingest/conversation_samples.py) are built from OpenAI's fine-tuning
guide, the Chat Completions API reference and the Batch API guide, cited there.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curator.anonymise import Vault
from curator.model import CHAT_ROLES
from tests.conftest import run_cli, secrets_left_in, snapshot
from tests.ingest import conversation_samples as sample


def _import(store, *sources: Path) -> list[dict]:
    result = run_cli("import", *sources, "--json", store=store.root)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)["created"]


def _conversation(store, fixture_id: str) -> dict:
    path = store.root / "goldens" / fixture_id / "content.json"
    return json.loads(path.read_text(encoding="utf-8"))["content"]


def test_each_line_becomes_a_conversation_with_its_order_roles_and_tool_links(store, tmp_path):
    created = _import(store, sample.conversations_jsonl(tmp_path))
    assert [c["kind"] for c in created] == ["conversation"] * 3
    chat, log, batch = (_conversation(store, c["id"]) for c in created)
    assert [m["role"] for m in chat["messages"]] == [
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
    ]
    # the tool call and its result still point at each other, whatever the id became
    call = chat["messages"][2]["tool_calls"][0]
    assert chat["messages"][3]["tool_call_id"] == call["id"]
    assert call["function"]["name"] == "find_lease"
    assert json.loads(call["function"]["arguments"]).keys() == {"tenant"}
    assert chat["messages"][2]["content"] is None
    assert chat["metadata"]["tools"][0]["function"]["name"] == "find_lease"
    assert "🏠" in chat["messages"][0]["content"] and "👍" in chat["messages"][4]["content"]
    assert "$1,450.00" in chat["messages"][4]["content"] and "2025-06-30" in json.dumps(chat)
    # a request/response log: the answer is the last message, the developer role a system one
    assert [m["role"] for m in log["messages"]] == ["system", "user", "assistant"]
    assert log["messages"][1]["content"].endswith("How much notice must he give?")
    assert log["messages"][2]["content"] == "He must give two months' written notice."
    assert log["model"] == "gpt-4o-mini-2024-07-18"
    assert log["metadata"]["usage"]["total_tokens"] == 40
    assert [m["role"] for m in batch["messages"]] == ["user"]
    assert [c["warnings"] for c in created][1] == ["message 1: role 'developer' read as 'system'"]
    assert {c["stored_source_name"] for c in created} == {"conversations.jsonl"}


def test_no_person_is_left_in_the_store_or_a_bundle_and_roles_teach_the_vault_nothing(
    store, tmp_path
):
    created = _import(store, sample.conversations_jsonl(tmp_path))
    chat = _conversation(store, created[0]["id"])
    greeting = chat["messages"][4]["content"]
    tenant = json.loads(chat["messages"][3]["content"])["tenant"]
    # the same person reads the same in every message and in the tool's JSON
    assert tenant in chat["messages"][1]["content"]
    assert greeting.startswith(f"Hello {tenant.split()[0]}!")
    # roles are structure: the vault learned none of them as someone's name
    assert not {original.casefold() for original in Vault.open(store).originals()} & CHAT_ROLES
    for fixture in created:
        ok = run_cli("label", "set", fixture["id"], "--rubric", 'Says "notice"', store=store.root)
        assert ok.exit_code == 0, ok.stderr
    moved = run_cli("status", "--to", "active", *[c["id"] for c in created], store=store.root)
    assert moved.exit_code == 0, moved.stderr
    built = run_cli(
        "bundle", "build", "1.0.0", "--format", "jsonl,hf,parquet,mattermost", store=store.root
    )
    assert built.exit_code == 0, built.stderr
    assert secrets_left_in(store.root, sample.secrets()) == []
    audit = run_cli("audit", store=store.root)
    assert audit.exit_code == 0, audit.stdout + audit.stderr


def test_the_hugging_face_dataset_holds_the_messages(store, tmp_path):
    import datasets

    created = _import(store, sample.conversations_jsonl(tmp_path))
    for fixture in created:
        run_cli("label", "set", fixture["id"], "--rubric", 'Says "notice"', store=store.root)
    run_cli("status", "--to", "active", *[c["id"] for c in created], store=store.root)
    built = run_cli("bundle", "build", "1.0.0", "--format", "jsonl,hf", store=store.root)
    assert built.exit_code == 0, built.stderr
    golden = datasets.load_from_disk(str(store.root / "bundles" / "1.0.0" / "hf"))["golden"]
    rows = {row["id"]: row for row in golden}
    chat = rows[created[0]["id"]]
    assert chat["kind"] == "conversation" and chat["posts"] == [] and chat["pages"] == []
    roles = [m["role"] for m in chat["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "assistant"]
    assert chat["messages"][2]["tool_calls"][0]["name"] == "find_lease"
    assert chat["messages"][3]["tool_call_id"] == chat["messages"][2]["tool_calls"][0]["id"]
    assert rows[created[1]["id"]]["model"] == "gpt-4o-mini-2024-07-18"


def test_a_single_conversation_json_file_is_one_fixture_of_the_doc_type_given(store, tmp_path):
    path = tmp_path / "one.json"
    path.write_text(json.dumps(sample.log_line()), encoding="utf-8")
    result = run_cli("import", path, "--doc-type", "lease", "--json", store=store.root)
    assert result.exit_code == 0, result.stderr
    [created] = json.loads(result.stdout)["created"]
    assert created["kind"] == "conversation" and created["messages"] == 3
    assert created["doc_type"] == "lease" and created["suggested_fields"] == []


HELLO = b'{"messages": [{"role": "user", "content": "hi"}]}'


@pytest.mark.parametrize(
    ("lines", "phrase"),
    [
        ([HELLO, b"{not json"], ":2: not valid JSON"),
        ([HELLO, b'{"request": {"model": "m"}}'], ":2: no messages"),
        ([b'{"messages": []}'], "the conversation has no messages"),
        ([b'{"messages": [{"role": "narrator", "content": "hi"}]}'], "messages.0.role"),
        (
            [
                b'{"messages": [{"role": "user", "content": [{"type": "image_url", '
                b'"image_url": {"url": "https://example.com/a.png"}}]}]}'
            ],
            "a image_url part is no text",
        ),
    ],
)
def test_a_bad_conversation_file_is_one_line_exit_2_and_the_store_unchanged(
    store, tmp_path, lines, phrase
):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    before = snapshot(store.root)
    result = run_cli("import", path, store=store.root)
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert result.stderr.startswith("curator: error: bad.jsonl") and phrase in result.stderr
    assert snapshot(store.root) == before


def test_keep_going_imports_the_good_files_of_a_folder(store, tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    sample.write_jsonl(folder, "good.jsonl", [sample.chat_line()])
    (folder / "bad.jsonl").write_bytes(b'{"messages": [{"role": "user", "content": "x"}]}\n{\n')
    result = run_cli("import", folder, "--keep-going", "--json", store=store.root)
    assert result.exit_code == 2
    report = json.loads(result.stdout)
    assert [c["kind"] for c in report["created"]] == ["conversation"]
    assert [f["source"] for f in report["failed"]] == ["bad.jsonl"]


def test_vault_add_rewrites_every_message_moves_evidence_and_leaves_roles(store, tmp_path):
    said = "Larkspur Court"
    line = {
        "messages": [
            {"role": "system", "content": f"You help tenants of {said}."},
            {"role": "user", "content": f"Is rent at {said} $1,450.00 a month?"},
            {"role": "assistant", "content": f"Yes, {said} rent is $1,450.00."},
        ]
    }
    [created] = _import(store, sample.write_jsonl(tmp_path, "estate.jsonl", [line]))
    fixture_id = created["id"]
    assert said in _conversation(store, fixture_id)["messages"][1]["content"]  # no name to it
    labelled = run_cli(
        "label", "set", fixture_id, "--doc-type", "lease", "monthly_rent=$1,450.00",
        store=store.root,
    )  # fmt: skip
    assert labelled.exit_code == 0, labelled.stderr
    added = run_cli("vault", "add", said, "--kind", "organisation", store=store.root)
    assert added.exit_code == 0, added.stderr
    messages = _conversation(store, fixture_id)["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant"]
    assert not any(said in m["content"] for m in messages)
    labels = (store.root / "goldens" / fixture_id / "labels.jsonl").read_text().splitlines()
    evidence = json.loads(labels[-1])["fields"]["monthly_rent"]["evidence"]
    text = messages[evidence["message"] - 1]["content"]
    assert text[evidence["start"] : evidence["end"]] == "$1,450.00"
    assert run_cli("validate", store=store.root).exit_code == 0


def test_a_member_of_any_other_shape_is_a_clean_refusal_or_a_reading():
    """Hostile conversation lines: never a traceback, only a CuratorError naming the line."""
    from curator.errors import CuratorError
    from curator.ingest.conversations import read_conversation
    from tests.shapes import mangled

    for document in (sample.chat_line(), sample.log_line(), sample.batch_line()):
        for where, bad in mangled(document):
            try:
                read_conversation(bad, "log.jsonl:1")
            except CuratorError as error:
                assert str(error).startswith("log.jsonl:1: "), (where, error)
