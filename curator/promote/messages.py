"""Messages in the shapes tracing tools record them, as OpenAI's chat format.

- OpenTelemetry's GenAI conventions (gen-ai-input-messages.json, gen-ai-output-messages.json):
  `{"role", "parts": [{"type": "text", "content"}, {"type": "tool_call", "id", "name",
  "arguments"}, {"type": "tool_call_response", "id", "response"}]}`;
- LangChain's, as LangSmith stores them: `{"lc": 1, "type": "constructor", "id": [...,
  "HumanMessage"], "kwargs": {"content", ...}}`, or `{"type": "human", "data": {...}}`;
- OpenAI's own (`{"role", "content"}`), kept as they are.

Reasoning parts are the model's own notes, not the conversation: they are left out.
"""

from __future__ import annotations

import json
from typing import Any

from curator.errors import CuratorError

LANGCHAIN_ROLES = {
    "human": "user",
    "humanmessage": "user",
    "humanmessagechunk": "user",
    "ai": "assistant",
    "aimessage": "assistant",
    "aimessagechunk": "assistant",
    "system": "system",
    "systemmessage": "system",
    "tool": "tool",
    "toolmessage": "tool",
    "function": "tool",
    "functionmessage": "tool",
    "chat": "user",
}


def as_text(value: Any) -> str:
    """A value as message text: a string as it is, anything else as its JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def from_otel(message: Any, where: str) -> list[dict[str, Any]]:
    """One GenAI-convention message as chat messages (a tool message per tool response)."""
    if not isinstance(message, dict):
        raise CuratorError(f"{where}: a message is not a JSON object")
    role = message.get("role")
    parts = message.get("parts")
    if not isinstance(parts, list):
        # older instrumentations wrote OpenAI's own shape under the same attribute
        return [dict(message)] if "content" in message or "tool_calls" in message else []
    texts, calls, responses = [], [], []
    for part in parts:
        kind = part.get("type") if isinstance(part, dict) else None
        if kind == "text":
            texts.append(str(part.get("content", "")))
        elif kind == "tool_call":
            calls.append(
                {
                    "id": str(part.get("id") or ""),
                    "type": "function",
                    "function": {
                        "name": str(part.get("name", "")),
                        "arguments": as_text(part.get("arguments", {})),
                    },
                }
            )
        elif kind == "tool_call_response":
            responses.append(
                {
                    "role": "tool",
                    "tool_call_id": str(part.get("id") or ""),
                    "content": as_text(part.get("response", "")),
                }
            )
        elif kind != "reasoning":
            raise CuratorError(
                f"{where}: a {kind} part is no text, so it cannot be anonymised; only text "
                "conversations are promoted"
            )
    if responses:
        return responses
    out: dict[str, Any] = {"role": role, "content": "\n".join(texts) if texts else None}
    if message.get("name"):
        out["name"] = message["name"]
    if calls:
        out["tool_calls"] = calls
    return [out]


def system_instructions(value: Any) -> list[dict[str, Any]]:
    """`gen_ai.system_instructions` (a list of text parts) as one system message."""
    parts = value if isinstance(value, list) else [value]
    texts = [
        str(part.get("content", "")) if isinstance(part, dict) else str(part) for part in parts
    ]
    return [{"role": "system", "content": "\n".join(texts)}] if texts else []


def from_langchain(message: Any, where: str) -> dict[str, Any]:
    """A LangChain message (serialised, `messages_to_dict`, or already OpenAI's) as chat."""
    if not isinstance(message, dict):
        raise CuratorError(f"{where}: a message is not a JSON object")
    if "role" in message:
        return dict(message)
    if message.get("lc") == 1 and isinstance(message.get("id"), list):
        kind, data = str(message["id"][-1]), message.get("kwargs") or {}
    else:
        kind, data = str(message.get("type", "")), message.get("data") or message
    role = LANGCHAIN_ROLES.get(kind.casefold())
    if role is None:
        raise CuratorError(f"{where}: a {kind or 'untyped'} message is no chat message")
    content = data.get("content")
    if isinstance(content, list):
        content = "\n".join(
            str(p.get("text", "")) if isinstance(p, dict) else str(p) for p in content
        )
    out: dict[str, Any] = {"role": role, "content": content}
    if data.get("name"):
        out["name"] = data["name"]
    if data.get("tool_call_id"):
        out["tool_call_id"] = data["tool_call_id"]
    calls = data.get("tool_calls") or []
    if calls:
        out["tool_calls"] = [
            {
                "id": str(call.get("id") or ""),
                "type": "function",
                "function": {
                    "name": str(call.get("name", "")),
                    "arguments": as_text(call.get("args", {})),
                },
            }
            for call in calls
            if isinstance(call, dict)
        ]
    return out


def answer_text(message: Any) -> str | None:
    """What an answer message says: its content, else its tool calls written out."""
    if isinstance(message, str):
        return message
    if not isinstance(message, dict):
        return None
    content = message.get("content")
    if isinstance(content, str) and content:
        return content
    calls = message.get("tool_calls") or []
    written = [
        f"{call['function'].get('name', '')}({call['function'].get('arguments', '')})"
        for call in calls
        if isinstance(call, dict) and isinstance(call.get("function"), dict)
    ]
    return "; ".join(written) if written else (content if isinstance(content, str) else None)
