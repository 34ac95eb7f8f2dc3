"""`curator promote` on the tracing tools' own exports: OTLP JSON with the GenAI conventions,
Langfuse traces, LangSmith runs and OpenAI request/response logs.

The samples (tests/promote/trace_samples.py) are built from each format's documentation and
schema, cited there. A failed call (error status, low score, negative feedback) or one
`--where` selects becomes a conversation fixture: the known-bad answer kept, the feedback
comment as its note, trace and span ids in provenance, nobody named left anywhere.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli, secrets_left_in, snapshot
from tests.promote import trace_samples as sample
from tests.shapes import mangled


def _promote(store, path: Path, *args: str) -> dict:
    result = run_cli("promote", path, *args, "--json", store=store.root)
    assert result.exit_code == 0, result.stdout + result.stderr
    return json.loads(result.stdout)


def _fixture(store, fixture_id: str) -> tuple[dict, dict]:
    folder = store.root / "adversarial" / fixture_id
    fixture = json.loads((folder / "fixture.json").read_text(encoding="utf-8"))
    return fixture, json.loads((folder / "content.json").read_text(encoding="utf-8"))["content"]


def _by_trace(store, summary: dict) -> dict[str, tuple[dict, dict]]:
    return {p["trace_id"]: _fixture(store, p["fixture_id"]) for p in summary["promoted"]}


def _clean(store) -> None:
    assert secrets_left_in(store.root, sample.secrets()) == []
    audit = run_cli("audit", store=store.root)
    assert audit.exit_code == 0, audit.stdout + audit.stderr


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_otlp_spans_of_every_generation_of_the_conventions(store, tmp_path, suffix):
    export = sample.otlp_export()
    path = (
        sample.write_json(tmp_path, "spans.json", export)
        if suffix == ".json"
        else sample.write_jsonl(tmp_path, "spans.jsonl", [export])
    )
    summary = _promote(store, path)
    # the error-status chat span and the one scored low; not the HTTP span nor the healthy one
    found = _by_trace(store, summary)
    assert set(found) == {"5b8efff798038103d269b633813fc60c", "0af7651916cd43dd8448eb211c80319c"}
    fixture, content = found["5b8efff798038103d269b633813fc60c"]
    assert fixture["kind"] == "conversation" and fixture["provenance"]["span_id"] == (
        "eee19b7ec3c1b174"
    )
    assert fixture["title"] == "other: answer contradicts the tool result"
    assert [m["role"] for m in content["messages"]] == ["system", "user", "assistant", "tool"]
    call = content["messages"][2]["tool_calls"][0]
    assert content["messages"][3]["tool_call_id"] == call["id"]
    assert content["messages"][2]["content"] is None  # the reasoning part is no message text
    assert "$1,450.00" in content["messages"][3]["content"]
    assert content["model"] == "gpt-4o-2024-08-06"
    [bad] = fixture["known_bad"]
    assert "$2,000.00 was returned" in bad["text"] and bad["observed_at"].startswith("2025-03-10")
    scored, talk = found["0af7651916cd43dd8448eb211c80319c"]
    assert [m["role"] for m in talk["messages"]] == ["system", "user"]
    assert scored["known_bad"][0]["text"] == "Done! 👍"
    assert scored["title"].startswith("other: Claims to have told ")
    _clean(store)


def test_langfuse_generations_with_low_scores(store, tmp_path):
    summary = _promote(store, sample.write_json(tmp_path, "traces.json", sample.langfuse_traces()))
    [(trace, (fixture, content))] = _by_trace(store, summary).items()
    assert trace == "trace-lf-7d1c" and fixture["provenance"]["span_id"] == "obs-gen-2"
    assert [m["role"] for m in content["messages"]] == ["system", "user"]
    assert fixture["known_bad"][0]["text"] == "Yes, every lease renews itself."
    assert fixture["title"].startswith("other: Leases do not renew themselves; ")
    # --where picks calls by their scores, also ones that did not fail
    chosen = _promote(
        store,
        sample.write_json(tmp_path, "again.json", sample.langfuse_traces()),
        "--where",
        "score.tone=friendly",
    )
    assert [p["trace_id"] for p in chosen["promoted"]] == ["trace-lf-9a0e"]
    _clean(store)


def test_trace_ids_shaped_like_mattermost_ids_are_kept_and_are_no_leak(store, tmp_path):
    # a chat plugin may use its post ids as trace ids: machine values, the link back
    traces = json.loads(json.dumps(sample.langfuse_traces()).replace("trace-lf-7d1c", POST_ID))
    summary = _promote(store, sample.write_json(tmp_path, "traces.json", traces))
    [(trace, (fixture, _))] = _by_trace(store, summary).items()
    assert trace == POST_ID and fixture["provenance"]["trace_id"] == POST_ID
    _clean(store)


POST_ID = "x7k2m9q4w8e1r5t3y6u0i2o4pa"


def test_langsmith_llm_runs_with_feedback_or_an_error(store, tmp_path):
    summary = _promote(store, sample.write_json(tmp_path, "runs.json", sample.langsmith_runs()))
    found = _by_trace(store, summary)
    assert set(found) == {
        "a1b2c3d4-0000-4000-8000-000000000001",
        "a1b2c3d4-0000-4000-8000-000000000009",
    }
    fixture, content = found["a1b2c3d4-0000-4000-8000-000000000001"]
    assert fixture["provenance"]["span_id"] == "a1b2c3d4-0000-4000-8000-000000000002"
    assert [m["role"] for m in content["messages"]] == ["system", "user"]
    assert content["model"] == "gpt-4o" and "30%" in fixture["known_bad"][0]["text"]
    assert fixture["title"] == "other: 30% instead of 3%."
    failed, _ = found["a1b2c3d4-0000-4000-8000-000000000009"]
    assert failed["title"] == "other: openai.RateLimitError: Error code: 429"
    assert failed["known_bad"][0]["text"] is None  # no answer: the call failed
    _clean(store)


def test_openai_logs_and_where_by_trace_id(store, tmp_path):
    path = sample.write_jsonl(tmp_path, "gateway.jsonl", sample.openai_logs())
    summary = _promote(store, path, "--failure-mode", "hallucination")
    [promoted] = summary["promoted"]
    assert promoted["trace_id"] == "log-0002" and promoted["category"] == "hallucination"
    fixture, content = _fixture(store, promoted["fixture_id"])
    assert [m["role"] for m in content["messages"]] == ["system", "user"]
    assert fixture["provenance"]["trace_id"] == "log-0002"
    picked = _promote(store, path, "--where", "trace_id=chatcmpl-good1")
    assert [p["trace_id"] for p in picked["promoted"]] == ["chatcmpl-good1"]
    _clean(store)


def test_a_trace_promoted_again_or_a_near_copy_is_a_duplicate(store, tmp_path):
    runs = sample.langsmith_runs()
    _promote(store, sample.write_json(tmp_path, "runs.json", runs))
    again = _promote(store, sample.write_json(tmp_path, "runs-again.json", runs))
    assert again["counts"]["promoted"] == 0 and again["counts"]["duplicates"] == 2
    copy = json.loads(json.dumps(runs[1]))
    copy["id"] = copy["feedback"][0]["run_id"] = "a1b2c3d4-0000-4000-8000-00000000000a"
    copy["trace_id"] = "a1b2c3d4-0000-4000-8000-00000000000b"
    near = _promote(store, sample.write_json(tmp_path, "copy.json", [copy]))
    [duplicate] = near["duplicates"]
    assert duplicate["reason"].startswith("already covered by ")


def _no_messages(kind: str) -> bytes:
    """A failed call of each format that recorded no messages."""
    if kind == "langfuse":
        trace = sample.langfuse_traces()["data"][0]
        trace["observations"][1].update(input=None, level="ERROR")
        return json.dumps(trace).encode()
    if kind == "langsmith":
        run = sample.langsmith_runs()[2]
        run["inputs"] = {}
        return json.dumps(run).encode()
    log = sample.openai_logs()[1]
    log["request"].pop("messages")
    return json.dumps(log).encode()


FINE_TRACE = json.dumps(sample.langfuse_traces()["data"][1]).encode()


@pytest.mark.parametrize(
    ("name", "data", "phrase"),
    [
        ("bad.jsonl", b'{"resourceSpans": []}\n{"resourceSpans": [\n', "bad.jsonl:2: not valid"),
        ("traces.jsonl", FINE_TRACE + b"\n{not json\n", "traces.jsonl:2: not valid JSON"),
        ("lf.json", _no_messages("langfuse"), "an LLM call without messages"),
        ("ls.json", _no_messages("langsmith"), "an LLM call without messages"),
        ("log.jsonl", _no_messages("openai"), "an LLM call without messages"),
        ("empty.json", b'{"resourceSpans": []}', "a trace export without any LLM call"),
        (
            "nomessages.json",
            json.dumps(
                {
                    "resourceSpans": [
                        {
                            "scopeSpans": [
                                {
                                    "spans": [
                                        {
                                            "traceId": "ab" * 16,
                                            "spanId": "cd" * 8,
                                            "startTimeUnixNano": "1741569952000000000",
                                            "attributes": [
                                                {
                                                    "key": "gen_ai.operation.name",
                                                    "value": {"stringValue": "chat"},
                                                }
                                            ],
                                            "status": {"code": 2},
                                        }
                                    ]
                                }
                            ]
                        }
                    ]
                }
            ).encode(),
            "an LLM call without messages",
        ),
        (
            "generation.json",
            json.dumps(
                {
                    "id": "t1",
                    "observations": [
                        {"id": "o1", "type": "GENERATION", "level": "ERROR", "input": None}
                    ],
                }
            ).encode(),
            "observation o1: the call has no time",
        ),
    ],
)
def test_a_bad_trace_export_is_one_line_exit_2_and_the_store_unchanged(
    store, tmp_path, name, data, phrase
):
    path = tmp_path / name
    path.write_bytes(data)
    before = snapshot(store.root)
    result = run_cli("promote", path, store=store.root)
    assert result.exit_code == 2, result.stdout
    assert len(result.stderr.strip().splitlines()) == 1 and phrase in result.stderr, result.stderr
    assert snapshot(store.root) == before


def test_where_is_refused_on_failure_records_and_when_malformed(store, tmp_path):
    path = sample.write_json(tmp_path, "runs.json", sample.langsmith_runs())
    bad = run_cli("promote", path, "--where", "score~1", store=store.root)
    assert bad.exit_code == 2 and "expected KEY OP VALUE" in bad.stderr
    record = tmp_path / "record.json"
    record.write_text(json.dumps({"trace_id": "t"}), encoding="utf-8")
    refused = run_cli("promote", record, "--where", "score<0.5", store=store.root)
    assert refused.exit_code == 2 and "--where selects calls of a trace export" in refused.stderr


@pytest.mark.parametrize(
    "document",
    [
        sample.otlp_export(),
        sample.langfuse_traces(),
        sample.langsmith_runs(),
        *sample.openai_logs(),
    ],
    ids=["otlp", "langfuse", "langsmith", "openai-good", "openai-failed"],
)
def test_a_member_of_any_other_shape_is_a_clean_refusal_or_a_reading(tmp_path, document):
    """Hostile exports: never a traceback, only a CuratorError naming the file."""
    from curator.errors import CuratorError
    from curator.promote.traces import read_calls

    path = tmp_path / "mangled.json"
    for where, bad in mangled(document):
        path.write_text(json.dumps(bad), encoding="utf-8")
        try:
            list(read_calls(path))
        except CuratorError as error:
            assert str(error).startswith("mangled.json"), (where, error)


def test_promoted_conversations_bundle_and_their_bad_answers_calibrate_the_judge(
    store, tmp_path, monkeypatch
):
    monkeypatch.setenv("CURATOR_JUDGE_DIR", str(tmp_path / "judge"))
    ids = [
        p["fixture_id"]
        for name, data in (
            ("traces.json", sample.langfuse_traces()),
            ("runs.json", sample.langsmith_runs()),
        )
        for p in _promote(store, sample.write_json(tmp_path, name, data))["promoted"]
    ]
    ids += [
        p["fixture_id"]
        for p in _promote(store, sample.write_jsonl(tmp_path, "log.jsonl", sample.openai_logs()))[
            "promoted"
        ]
    ]
    assert len(ids) == 4
    for number, fixture_id in enumerate(ids, 1):
        done = run_cli(
            "label", "set", fixture_id, "--rubric", f'Says "answer {number}"',
            "--reference", f"This is answer {number}.", store=store.root,
        )  # fmt: skip
        assert done.exit_code == 0, done.stderr
    for args in (
        ("status", "--to", "active", *ids),
        ("bundle", "build", "1.0.0", "--format", "jsonl,hf,parquet,mattermost"),
    ):
        done = run_cli(*args, store=store.root)
        assert done.exit_code == 0, done.stdout + done.stderr
    bundle = store.root / "bundles" / "1.0.0"
    lines = {
        line["metadata"]["provenance"].get("span_id"): line
        for line in map(json.loads, (bundle / "fixtures.jsonl").read_text().splitlines())
    }
    line = lines["obs-gen-2"]
    assert line["input"]["kind"] == "conversation" and line["adversarial"]
    assert line["known_bad"][0]["text"] == "Yes, every lease renews itself."
    # a bundle this small bounds a judge's false-pass rate loosely: the floor says how loosely
    floors = tmp_path / "floors.toml"
    floors.write_text("[floors]\nmax_judge_false_pass = 0.5\n", encoding="utf-8")
    calibrated = run_cli(
        "judge", "calibrate", str(bundle), "--judge", "rules", "--floors", str(floors), "--json",
        store=store.root,
    )  # fmt: skip
    assert calibrated.exit_code == 0, calibrated.stdout + calibrated.stderr
    record = json.loads(Path(json.loads(calibrated.stdout)["record"]).read_text())
    failed_answers = {r["text"] for r in record["results"] if r["answer"] == "known-bad"}
    assert "Yes, every lease renews itself." in failed_answers  # judged as a must-fail case
