"""Reading failure records: one JSON object in a .json file, or one per line in JSONL.

A record that cannot be used becomes a `Rejection` naming its line and the reason; the
rest of the batch goes on. Only a file that cannot be read at all is an error.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from curator.errors import CuratorError, first_problem
from curator.model import FailureRecord

JSONL_SUFFIXES = (".jsonl", ".ndjson")


@dataclass(frozen=True)
class RecordLine:
    """A record that parsed, where it came from, and its raw bytes (hashed for provenance)."""

    line: int
    record: FailureRecord
    raw: bytes


@dataclass(frozen=True)
class Rejection:
    line: int
    reason: str
    trace_id: str | None = None

    def as_dict(self) -> dict[str, object]:
        return {"line": self.line, "trace_id": self.trace_id, "reason": self.reason}


def read_records(path: Path) -> list[RecordLine | Rejection]:
    """Every record of `path` in file order, each parsed or rejected."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise CuratorError(f"cannot read {path}: {error.strerror or error}") from None
    if not data.strip():
        raise CuratorError(f"{path} is empty: no failure records")
    if path.suffix.lower() in JSONL_SUFFIXES:
        return [
            parse_record(raw, number)
            for number, raw in enumerate(data.split(b"\n"), start=1)
            if raw.strip()
        ]
    return [parse_record(data, 1)]


def parse_record(raw: bytes, line: int) -> RecordLine | Rejection:
    """One record from its raw JSON bytes; `line` is where it starts in its file."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return Rejection(line, "not UTF-8 text")
    except json.JSONDecodeError as error:
        # A pretty-printed .json record spans lines: point at the line the parser stopped on.
        return Rejection(line + error.lineno - 1, f"not valid JSON: {error.msg} (column {error.colno})")
    if not isinstance(data, dict):
        return Rejection(line, f"a failure record is a JSON object, not {type(data).__name__}")
    trace_id = data.get("trace_id") if isinstance(data.get("trace_id"), str) else None
    try:
        record = FailureRecord.model_validate(data)
    except ValidationError as error:
        return Rejection(line, first_problem(error).replace("Value error, ", ""), trace_id)
    return RecordLine(line, record, raw.strip())
