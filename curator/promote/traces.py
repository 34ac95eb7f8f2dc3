"""Trace exports as failure records: OTLP JSON (GenAI conventions), Langfuse, LangSmith and
OpenAI request/response logs, told apart by content.

A file (.json, or JSONL with one document per line) that is none of these is read as
failure records (record.py). Every document of a trace export is read and every selected
call checked before anything is promoted: a line that is not JSON, a document of no known
shape, an export with no LLM call, or a selected call without messages is one error line
and the store stays as it was.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from curator.errors import CuratorError, first_problem
from curator.json_input import lines, parse
from curator.limits import DEFAULT, read_limited
from curator.model import FailureRecord, LimitSettings
from curator.promote import langfuse, langsmith, otlp
from curator.promote.calls import Call, Clause, iso_time, record_data, selected
from curator.promote.messages import answer_text
from curator.promote.record import JSONL_SUFFIXES, RecordLine

FORMATS = "OTLP JSON (resourceSpans), a Langfuse trace, a LangSmith run, an OpenAI log"


def is_trace_export(path: Path, limits: LimitSettings = DEFAULT) -> bool:
    """Whether the file's first document is a trace export (else: failure records)."""
    data = read_limited(path, limits.json_bytes, "max_json_mb")
    first = next(lines(data), None) if path.suffix.lower() in JSONL_SUFFIXES else (1, data)
    if first is None:
        return False
    try:
        document = parse(first[1], path.name, limits)
    except CuratorError:
        return False  # the failure-record reader names the bad line
    return _kind(document) is not None


def _kind(document: Any) -> str | None:
    if otlp.is_otlp(document):
        return "otlp"
    if langfuse.traces_in(document) is not None:
        return "langfuse"
    if langsmith.runs_in(document) is not None:
        return "langsmith"
    if _is_openai_log(document):
        return "openai"
    return None


def trace_records(
    path: Path,
    where: Sequence[Clause],
    failure_mode: str | None,
    limits: LimitSettings = DEFAULT,
) -> list[RecordLine]:
    """The failure records of the calls `where` selects (else the failed ones)."""
    chosen = selected(list(read_calls(path, limits)), where)
    records = []
    for call in chosen:
        try:
            record = FailureRecord.model_validate(record_data(call, failure_mode))
        except ValidationError as error:
            raise CuratorError(f"{call.where}: {first_problem(error)}") from None
        records.append(RecordLine(call.line, record, call.raw))
    return records


def read_calls(path: Path, limits: LimitSettings = DEFAULT) -> Iterator[Call]:
    data = read_limited(path, limits.json_bytes, "max_json_mb")
    if path.suffix.lower() in JSONL_SUFFIXES:
        documents = [(n, raw) for n, raw in lines(data)]
    else:
        documents = [(1, data)]
    found = 0
    for number, raw in documents:
        where = f"{path.name}:{number}" if len(documents) > 1 else path.name
        document = parse(raw, where, limits)
        try:
            read = list(_document_calls(document, where, number, raw.strip()))
        except (AttributeError, IndexError, KeyError, TypeError, ValueError):
            # a member of the wrong type deep inside (a number where a list belongs): the
            # export is not what its tool writes, whichever member it was
            raise CuratorError(
                f"{where}: a {_kind(document)} export with a member of the wrong shape"
            ) from None
        found += len(read)
        yield from read
    if not found:
        raise CuratorError(f"{path.name}: a trace export without any LLM call (no messages)")


def _document_calls(document: Any, where: str, line: int, raw: bytes) -> Iterator[Call]:
    kind = _kind(document)
    if kind == "otlp":
        yield from otlp.calls(document, where, line, raw)
    elif kind == "langfuse":
        for trace in langfuse.traces_in(document) or ():
            yield from langfuse.calls(trace, where, line, raw)
    elif kind == "langsmith":
        runs, feedback = langsmith.runs_in(document) or ([], [])
        for run in runs:
            yield from langsmith.calls(run, feedback, where, line, raw)
    elif kind == "openai":
        yield _openai_call(document, where, line, raw)
    else:
        raise CuratorError(f"{where}: not a trace export ({FORMATS})")


# ---------------------------------------------------------------- OpenAI request/response logs


def _is_openai_log(document: Any) -> bool:
    return (
        isinstance(document, dict)
        and isinstance(document.get("request"), dict)
        and ("response" in document or "error" in document)
    )


def _openai_call(log: dict[str, Any], where: str, line: int, raw: bytes) -> Call:
    """A logged Chat Completions call: the request's messages, the response's answer; an
    `error` member, or a response status of 400 or more, is its error status."""
    from curator.ingest.conversations import read_conversation

    request = log["request"]
    messages = request.get("messages") if isinstance(request.get("messages"), list) else []
    response: dict[str, Any] = log["response"] if isinstance(log.get("response"), dict) else {}
    body: dict[str, Any] = response["body"] if isinstance(response.get("body"), dict) else response
    if messages:  # the same reading `curator import` gives a log, for its error lines
        read_conversation({"request": request}, where)
    choices = body.get("choices") or []
    first = choices[0] if isinstance(choices, list) and choices else {}
    error = log.get("error") or body.get("error")
    status = response.get("status_code")
    failed = bool(error) or (isinstance(status, int) and status >= 400)
    message = error.get("message") if isinstance(error, dict) else error
    trace_id = body.get("id") or log.get("id") or log.get("custom_id") or log.get("request_id")
    if not isinstance(trace_id, str) or not trace_id:
        raise CuratorError(f"{where}: the log names no id (response id, id or custom_id)")
    when = body.get("created") or log.get("timestamp") or log.get("created_at")
    return Call(
        where=where,
        line=line,
        trace_id=trace_id,
        span_id=None,
        observed_at=iso_time(when, where),
        messages=[dict(m) for m in messages if isinstance(m, dict)],
        answer=answer_text(first.get("message")) if isinstance(first, dict) else None,
        model=body.get("model") or request.get("model"),
        error=(str(message) if message else "") if failed else None,
        raw=raw,
    )
