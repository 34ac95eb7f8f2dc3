"""Reading failure records: what parses, and how each bad record is rejected."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curator.errors import CuratorError
from curator.model import FailureRecord
from curator.promote.record import RecordLine, Rejection, read_records


def good(trace: str = "tr-1", **extra) -> dict:
    record = {
        "trace_id": trace,
        "observed_at": "2026-01-05T10:00:00Z",
        "failure_mode": "hallucination",
        "doc_type": "lease",
        "input": {"text": "Tenant: Ada Quill. Monthly Rent: $1,200.00"},
        "output": {"fields": {"monthly_rent": {"value": "$1,500.00", "confidence": 0.93}}},
        "corrections": {"fields": {"monthly_rent": "$1,200.00"}},
    }
    record.update(extra)
    return record


def write_jsonl(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_jsonl_batch_keeps_good_records_and_rejects_each_bad_one_with_its_line(tmp_path):
    path = write_jsonl(
        tmp_path / "failures.jsonl",
        [
            json.dumps(good("a")),
            "{not json",
            json.dumps(good("b", failure_mode="made_up")),
            "",
            json.dumps(good("c", input={"text": "x", "pdf": "y.pdf"})),
            json.dumps([1, 2]),
            json.dumps({k: v for k, v in good("e").items() if k != "output"}),
            json.dumps(good("f", observed_at="yesterday")),
            json.dumps(good("g")),
        ],
    )
    entries = read_records(path)
    assert [type(e).__name__ for e in entries] == [
        "RecordLine",
        "Rejection",
        "Rejection",
        "Rejection",
        "Rejection",
        "Rejection",
        "Rejection",
        "RecordLine",
    ]
    rejected = {e.line: e for e in entries if isinstance(e, Rejection)}
    assert set(rejected) == {
        2,
        3,
        5,
        6,
        7,
        8,
    }  # the blank line 4 is skipped, numbering is the file's
    assert rejected[2].reason.startswith("not valid JSON")
    assert (
        "unknown failure mode 'made_up'" in rejected[3].reason
        and "hallucination" in rejected[3].reason
    )
    assert rejected[3].trace_id == "b"
    assert "exactly one of thread, conversation, pdf, pdf_base64, text" in rejected[5].reason
    assert "JSON object, not list" in rejected[6].reason
    assert rejected[7].reason.startswith("output")
    assert "ISO 8601" in rejected[8].reason
    assert [e.record.trace_id for e in entries if isinstance(e, RecordLine)] == ["a", "g"]


def test_single_pretty_json_record_and_error_line_inside_it(tmp_path):
    path = tmp_path / "failure.json"
    path.write_text(json.dumps(good(), indent=2), encoding="utf-8")
    (entry,) = read_records(path)
    assert isinstance(entry, RecordLine) and entry.line == 1
    assert entry.record.output.fields["monthly_rent"].confidence == 0.93

    broken = json.dumps(good(), indent=2).replace(
        '"failure_mode": "hallucination",', '"failure_mode": "hallucination"'
    )
    path.write_text(broken, encoding="utf-8")
    (entry,) = read_records(path)
    assert isinstance(entry, Rejection)
    assert entry.line == broken.splitlines().index('  "failure_mode": "hallucination"') + 2


def test_bare_output_values_are_shorthand_for_value_objects():
    record = FailureRecord.model_validate(
        good(output={"fields": {"tenant": "Bo Pell", "monthly_rent": 1500}})
    )
    assert record.output.fields["tenant"].value == "Bo Pell"
    assert record.output.fields["monthly_rent"].value == 1500
    assert record.output.fields["tenant"].confidence is None


def test_non_utf8_line_is_rejected_not_fatal(tmp_path):
    path = tmp_path / "f.jsonl"
    path.write_bytes(json.dumps(good("a")).encode() + b"\n\xff\xfe{}\n")
    entries = read_records(path)
    assert isinstance(entries[0], RecordLine)
    assert isinstance(entries[1], Rejection) and entries[1].reason == "not UTF-8 text"


@pytest.mark.parametrize("content", [None, b"", b"  \n"])
def test_missing_or_empty_file_is_a_usage_error(tmp_path, content):
    path = tmp_path / "f.jsonl"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(CuratorError):
        read_records(path)


def test_committed_schema_matches_the_model_and_accepts_the_samples():
    import jsonschema

    from curator.schemas import generate, render
    from tests.conftest import REPO

    committed = (REPO / "schemas" / "failure-record.schema.json").read_text(encoding="utf-8")
    schema = generate()["failure-record.schema.json"]
    assert committed == render(schema)
    samples = REPO / "examples" / "failures"
    records = [json.loads((samples / "failure.json").read_text())]
    records += [json.loads(line) for line in (samples / "failures.jsonl").read_text().splitlines()]
    for record in records:
        jsonschema.validate(record, schema)
        FailureRecord.model_validate(record)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**records[0], "failure_mode": "made_up"}, schema)
