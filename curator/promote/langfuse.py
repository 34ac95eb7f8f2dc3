"""Langfuse trace exports as `Call`s: each GENERATION observation is one call.

A trace as Langfuse's public API returns it (`GET /api/public/traces/{id}`, the
TraceWithFullDetails of its OpenAPI spec): `{"id", "timestamp", "observations": [...],
"scores": [...]}`; a file holds one, a list of them, an API page `{"data": [...]}`, or one
per line. A generation's `input` is its messages (a list, or `{"messages": [...]}`, or a
prompt string), its `output` the answer (a message, a string, or a completion with
`choices`); `level` ERROR is an error status, with `statusMessage` as its message.
A score names its observation (`observationId`); a trace-level score is about the trace's
answer, so it goes with its last generation. NUMERIC and BOOLEAN scores are numbers,
CATEGORICAL ones labels (`stringValue`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from curator.errors import CuratorError
from curator.promote.calls import Call, Score, iso_time
from curator.promote.messages import answer_text, as_text


def is_langfuse(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("observations"), list)


def traces_in(data: Any) -> list[Any] | None:
    """The traces of a Langfuse export document, or None when it is none."""
    if isinstance(data, dict) and isinstance(data.get("data"), list):
        data = data["data"]
    if isinstance(data, list) and data and all(is_langfuse(item) for item in data):
        return data
    return [data] if is_langfuse(data) else None


def calls(trace: dict[str, Any], where: str, line: int, raw: bytes) -> Iterator[Call]:
    trace_id = trace.get("id")
    if not isinstance(trace_id, str) or not trace_id:
        raise CuratorError(f"{where}: a Langfuse trace without an id")
    generations = [
        o for o in trace["observations"] if isinstance(o, dict) and o.get("type") == "GENERATION"
    ]
    generations.sort(key=lambda o: (str(o.get("startTime", "")), str(o.get("id", ""))))
    scores: dict[str | None, list[Score]] = {}
    for score in trace.get("scores") or ():
        if isinstance(score, dict):
            target = score.get("observationId")
            if target is None and generations:
                target = generations[-1].get("id")
            scores.setdefault(target, []).append(_score(score))
    for generation in generations:
        place = f"{where}: observation {generation.get('id', '?')}"
        yield Call(
            where=where,
            line=line,
            trace_id=trace_id,
            span_id=str(generation.get("id")) if generation.get("id") else None,
            observed_at=iso_time(generation.get("startTime") or trace.get("timestamp"), place),
            messages=_messages(generation.get("input")),
            answer=_answer(generation.get("output")),
            model=generation.get("model"),
            error=(generation.get("statusMessage") or "")
            if generation.get("level") == "ERROR"
            else None,
            scores=tuple(scores.get(generation.get("id"), ())),
            raw=raw,
        )


def _score(score: dict[str, Any]) -> Score:
    value = score.get("value")
    number = float(value) if isinstance(value, int | float) else None
    label = score.get("stringValue")
    if score.get("dataType") == "BOOLEAN" and isinstance(value, bool):
        number = float(value)
    return Score(
        name=str(score.get("name", "score")),
        value=None if score.get("dataType") == "CATEGORICAL" else number,
        label=label if isinstance(label, str) else None,
        comment=str(score.get("comment") or ""),
    )


def _messages(given: Any) -> list[dict[str, Any]]:
    if isinstance(given, dict) and isinstance(given.get("messages"), list):
        given = given["messages"]
    if isinstance(given, list):
        return [dict(m) for m in given if isinstance(m, dict)]
    if isinstance(given, str) and given:
        return [{"role": "user", "content": given}]
    return []


def _answer(output: Any) -> str | None:
    if isinstance(output, dict) and isinstance(output.get("choices"), list) and output["choices"]:
        output = output["choices"][0].get("message", output["choices"][0])
    if isinstance(output, list) and output:
        output = output[-1]
    text = answer_text(output)
    return text if text is not None or output is None else as_text(output)
