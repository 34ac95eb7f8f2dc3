"""Reading failure records: one JSON object in a .json file, or one per line in JSONL.

A record that cannot be used becomes a `Rejection` naming its line and the reason; the
rest of the batch goes on. Only a file that cannot be read at all is an error.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from curator.errors import CuratorError, first_problem
from curator.json_input import JsonInputError, lines, parse
from curator.limits import DEFAULT, read_limited
from curator.model import FailureRecord, LimitSettings

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


def read_records(path: Path, limits: LimitSettings = DEFAULT) -> list[RecordLine | Rejection]:
    """Every record of `path` in file order, each parsed or rejected."""
    data = read_limited(path, limits.json_bytes, "max_json_mb")
    if not data.strip():
        raise CuratorError(f"{path} is empty: no failure records")
    if path.suffix.lower() in JSONL_SUFFIXES:
        return [parse_record(raw, number, limits) for number, raw in lines(data)]
    return [parse_record(data, 1, limits)]


def parse_record(raw: bytes, line: int, limits: LimitSettings = DEFAULT) -> RecordLine | Rejection:
    """One record from its raw JSON bytes; `line` is where it starts in its file."""
    try:
        data = parse(raw, f"line {line}", limits)
    except JsonInputError as error:
        # A pretty-printed .json record spans lines: point at the line the parser stopped on.
        return Rejection(line + (error.line or 1) - 1, error.reason)
    if not isinstance(data, dict):
        return Rejection(line, f"a failure record is a JSON object, not {type(data).__name__}")
    trace_id = data.get("trace_id") if isinstance(data.get("trace_id"), str) else None
    try:
        record = FailureRecord.model_validate(data)
    except ValidationError as error:
        return Rejection(line, first_problem(error).replace("Value error, ", ""), trace_id)
    return RecordLine(line, record, raw.strip())
