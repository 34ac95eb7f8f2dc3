"""OTLP JSON trace exports with OpenTelemetry's GenAI semantic conventions, as `Call`s.

A file holds one `ExportTraceServiceRequest` (`{"resourceSpans": [{"scopeSpans": [{"spans":
[...]}]}]}`), or one per line (the collector's file exporter). Ids are hex, times
`*UnixNano`, attribute values `{"stringValue"}`, `{"intValue"}`, ... (the OTLP/JSON mapping).
An LLM call is a span with GenAI content, in any of the conventions' generations:

- current: attributes `gen_ai.system_instructions`, `gen_ai.input.messages` and
  `gen_ai.output.messages` (parts; a JSON string or structured);
- v1.36.0 and before: span events `gen_ai.system.message`, `gen_ai.user.message`,
  `gen_ai.assistant.message`, `gen_ai.tool.message` and `gen_ai.choice`, their body in the
  event's attributes (`content`, `tool_calls`, `id`, `message`);
- older still: events `gen_ai.content.prompt` and `gen_ai.content.completion` holding
  `gen_ai.prompt` and `gen_ai.completion` (JSON), and the flattened `gen_ai.prompt.N.role`
  / `.content` attributes some instrumentations write.

A span whose `gen_ai.operation.name` is a model call (chat, text_completion,
generate_content) is a call even without content (it is then refused if selected). Its
status code 2 (ERROR) is the error; `gen_ai.evaluation.result` events are its scores.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from curator.errors import CuratorError
from curator.promote.calls import Call, Score, iso_time
from curator.promote.messages import answer_text, as_text, from_otel, system_instructions

MODEL_CALLS = frozenset({"chat", "text_completion", "generate_content"})
ROLE_EVENTS = {
    "gen_ai.system.message": "system",
    "gen_ai.user.message": "user",
    "gen_ai.assistant.message": "assistant",
    "gen_ai.tool.message": "tool",
}
FLAT = re.compile(r"^gen_ai\.(prompt|completion)\.(\d+)\.(role|content)$")


def is_otlp(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("resourceSpans"), list)


def calls(data: dict[str, Any], where: str, line: int, raw: bytes) -> Iterator[Call]:
    for resource in data["resourceSpans"] or ():
        for scope in _list(resource, "scopeSpans", where):
            for span in _list(scope, "spans", where):
                call = _call(span, where, line, raw)
                if call is not None:
                    yield call


def _list(record: Any, key: str, where: str) -> list[Any]:
    value = record.get(key, []) if isinstance(record, dict) else None
    if not isinstance(value, list):
        raise CuratorError(f"{where}: {key} is not a list (not an OTLP JSON trace export)")
    return value


def value_of(value: Any) -> Any:
    """An OTLP/JSON AnyValue as plain JSON."""
    if not isinstance(value, dict):
        return value
    if "stringValue" in value:
        return value["stringValue"]
    if "intValue" in value:
        return int(value["intValue"])
    if "doubleValue" in value:
        return float(value["doubleValue"])
    if "boolValue" in value:
        return bool(value["boolValue"])
    if "arrayValue" in value:
        return [value_of(v) for v in (value["arrayValue"] or {}).get("values", [])]
    if "kvlistValue" in value:
        return attributes((value["kvlistValue"] or {}).get("values", []))
    return None


def attributes(items: Any) -> dict[str, Any]:
    return {
        item["key"]: value_of(item.get("value"))
        for item in items or ()
        if isinstance(item, dict) and isinstance(item.get("key"), str)
    }


def _json(value: Any) -> Any:
    if isinstance(value, str) and value.strip()[:1] in ("[", "{"):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _call(span: Any, where: str, line: int, raw: bytes) -> Call | None:
    if not isinstance(span, dict):
        raise CuratorError(f"{where}: a span is not a JSON object")
    attrs = attributes(span.get("attributes"))
    events = [
        (event.get("name", ""), attributes(event.get("attributes")))
        for event in span.get("events") or ()
        if isinstance(event, dict)
    ]
    place = f"{where}: span {span.get('spanId', '?')}"
    messages, answer = _content(attrs, events, place)
    is_call = attrs.get("gen_ai.operation.name") in MODEL_CALLS
    if not messages and answer is None and not is_call:
        return None  # an HTTP, database or agent span: no model call of its own
    status = span.get("status") or {}
    failed = status.get("code") in (2, "2", "STATUS_CODE_ERROR")
    error = (status.get("message") or str(attrs.get("error.type", ""))) if failed else None
    scores = tuple(
        Score(
            name=str(a.get("gen_ai.evaluation.name", "evaluation")),
            value=a.get("gen_ai.evaluation.score.value"),
            label=a.get("gen_ai.evaluation.score.label"),
            comment=str(a.get("gen_ai.evaluation.explanation", "")),
        )
        for name, a in events
        if name == "gen_ai.evaluation.result"
    )
    trace_id = span.get("traceId")
    if not isinstance(trace_id, str) or not trace_id:
        raise CuratorError(f"{place}: no traceId")
    return Call(
        where=where,
        line=line,
        trace_id=trace_id,
        span_id=span.get("spanId") or None,
        observed_at=iso_time(span.get("startTimeUnixNano"), place),
        messages=messages,
        answer=answer,
        model=attrs.get("gen_ai.response.model") or attrs.get("gen_ai.request.model"),
        error=error,
        scores=scores,
        raw=raw,
    )


def _content(
    attrs: dict[str, Any], events: list[tuple[str, dict[str, Any]]], where: str
) -> tuple[list[dict[str, Any]], str | None]:
    """The input messages and the answer, from whichever convention the span follows."""
    messages: list[dict[str, Any]] = []
    if "gen_ai.system_instructions" in attrs:
        messages += system_instructions(_json(attrs["gen_ai.system_instructions"]))
    if "gen_ai.input.messages" in attrs:
        given = _json(attrs["gen_ai.input.messages"])
        for message in given if isinstance(given, list) else [given]:
            messages += from_otel(message, where)
        out = _json(attrs.get("gen_ai.output.messages", []))
        answers = [m for o in (out if isinstance(out, list) else []) for m in from_otel(o, where)]
        return messages, answer_text(answers[0]) if answers else None
    answer = None
    for name, event in events:
        if name in ROLE_EVENTS:
            message = {"role": ROLE_EVENTS[name], "content": as_text(event.get("content", ""))}
            if event.get("tool_calls"):
                message["tool_calls"] = _json(event["tool_calls"])
            if name == "gen_ai.tool.message" and event.get("id"):
                message["tool_call_id"] = str(event["id"])
            messages.append(message)
        elif name == "gen_ai.choice":
            choice = _json(event.get("message", event))
            answer = answer_text(choice) if isinstance(choice, dict) else as_text(choice)
        elif name == "gen_ai.content.prompt":
            prompt = _json(event.get("gen_ai.prompt", ""))
            messages += (
                prompt if isinstance(prompt, list) else [{"role": "user", "content": prompt}]
            )
        elif name == "gen_ai.content.completion":
            completion = _json(event.get("gen_ai.completion", ""))
            first = completion[0] if isinstance(completion, list) and completion else completion
            answer = answer_text(first)
    flat = _flattened(attrs)
    if not messages and flat["prompt"]:
        messages = flat["prompt"]
    if answer is None and flat["completion"]:
        answer = answer_text(flat["completion"][0])
    return messages, answer


def _flattened(attrs: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """`gen_ai.prompt.0.role` = "user", `gen_ai.prompt.0.content` = "..." as messages."""
    found: dict[str, dict[int, dict[str, Any]]] = {"prompt": {}, "completion": {}}
    for key, value in attrs.items():
        match = FLAT.match(key)
        if match:
            found[match.group(1)].setdefault(int(match.group(2)), {})[match.group(3)] = value
    return {
        side: [
            {"role": m.get("role", "user" if side == "prompt" else "assistant"), **m}
            for _, m in sorted(numbered.items())
        ]
        for side, numbered in found.items()
    }
