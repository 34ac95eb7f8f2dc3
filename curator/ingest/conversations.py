"""LLM conversations in OpenAI's chat format: one conversation per JSONL line (or one .json).

Two shapes are read, told apart by their members:

- a chat-format line, as fine-tuning and eval sets write it: `{"messages": [...]}`, with
  `model`, `tools` and anything else beside it;
- a request/response log, as API gateways and the Batch API write it: the request
  (`request`, or the Batch API's `body`) holds `model` and `messages`, the response
  (`response`, its `body` too) holds `choices[0].message`, the assistant's answer, which
  becomes the last message.

A message's `content` given as a list of parts is read as its text parts joined; a part
that is no text (an image) is refused, since nothing of it could be anonymised. Roles are
OpenAI's: `developer` is read as `system` and the legacy `function` as `tool`, each with a
warning. Members curator does not know stay on the message they came with.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from curator.errors import CuratorError, first_problem
from curator.ingest.source import Parsed, RawSource
from curator.json_input import JsonInputError, lines, parse, parse_lines
from curator.limits import DEFAULT
from curator.model import ConversationContent, LimitSettings

CHAT = "openai-chat"
LOG = "openai-log"
# Roles of newer and older OpenAI APIs, and the role curator stores them as.
RENAMED_ROLES = {"developer": "system", "function": "tool"}
RESPONSE_MEMBERS = ("id", "created", "system_fingerprint", "usage", "service_tier")


def is_conversation(data: Any) -> bool:
    """Whether a JSON value is one conversation in either shape."""
    return isinstance(data, dict) and (
        isinstance(data.get("messages"), list) or isinstance(_request(data), dict)
    )


def is_conversation_lines(data: bytes, limits: LimitSettings = DEFAULT) -> bool:
    """Whether JSONL starts with a conversation line (only the first line is parsed)."""
    first = next(lines(data), None)
    if first is None:
        return False
    try:
        return is_conversation(parse(first[1], "first line", limits))
    except JsonInputError:
        return False  # the reader the suffix picks reports the bad line


def parse_conversation_lines(source: RawSource, limits: LimitSettings = DEFAULT) -> list[Parsed]:
    """One fixture-to-be per line, in line order."""
    parsed = [
        _parsed(data, f"{source.name}:{number}", part=str(number))
        for number, data in parse_lines(source.data, source.name, limits)
    ]
    if not parsed:
        raise CuratorError(f"{source.name}: no conversations")
    return parsed


def parse_conversation_file(source: RawSource, limits: LimitSettings = DEFAULT) -> list[Parsed]:
    """A .json file holding one conversation."""
    return [_parsed(parse(source.data, source.name, limits), source.name, part="")]


def _parsed(data: Any, where: str, part: str) -> Parsed:
    content, importer, warnings = read_conversation(data, where)
    return Parsed(content, importer, part=part, warnings=warnings)


def read_conversation(data: Any, where: str) -> tuple[ConversationContent, str, list[str]]:
    """The conversation a chat-format line or a request/response log holds, the importer
    that names its shape, and warnings; bad input is one line naming `where`."""
    if not isinstance(data, dict):
        raise CuratorError(f"{where}: not a conversation (a JSON object with messages)")
    request = data if isinstance(data.get("messages"), list) else _request(data)
    if not isinstance(request, dict) or not isinstance(request.get("messages"), list):
        raise CuratorError(
            f"{where}: no messages (a chat-format line has a messages list; a "
            "request/response log, a request with one)"
        )
    importer = CHAT if request is data else LOG
    messages = list(request["messages"])
    metadata = {k: v for k, v in request.items() if k not in ("messages", "model")}
    model = request.get("model")
    if importer == LOG:
        answer, response = _answer(data, where)
        if answer is not None:
            messages.append(answer)
        metadata.update({k: response[k] for k in RESPONSE_MEMBERS if k in response})
        model = response.get("model", model)
    warnings: list[str] = []
    messages = [_message(m, f"{where}: message {n}", warnings) for n, m in enumerate(messages, 1)]
    if not messages:
        raise CuratorError(f"{where}: the conversation has no messages")
    fields: dict[str, Any] = {"kind": "conversation", "messages": messages}
    if isinstance(model, str) and model:
        fields["model"] = model
    if metadata:
        fields["metadata"] = metadata
    try:
        return ConversationContent.model_validate(fields), importer, warnings
    except ValidationError as error:
        raise CuratorError(f"{where}: not a valid conversation: {first_problem(error)}") from None


def _request(data: dict[str, Any]) -> Any:
    request = data.get("request", data.get("body"))
    if isinstance(request, dict) and isinstance(request.get("body"), dict):
        request = request["body"]  # a Batch API input line: {"method", "url", "body"}
    return request


def _answer(data: dict[str, Any], where: str) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """The response's first choice's message, and the response; a log of a failed call (an
    error instead of a response) has no answer."""
    response = data.get("response")
    if isinstance(response, dict) and isinstance(response.get("body"), dict):
        response = response["body"]  # a Batch API output line: {"status_code", "body"}
    if response is None:
        return None, {}
    if not isinstance(response, dict):
        raise CuratorError(f"{where}: its response is not a JSON object")
    choices = response.get("choices")
    if not choices:
        return None, response
    first = choices[0] if isinstance(choices, list) else None
    message = first.get("message") if isinstance(first, dict) else None
    if not isinstance(message, dict):
        raise CuratorError(f"{where}: response.choices[0] has no message")
    return message, response


def _message(message: Any, where: str, warnings: list[str]) -> dict[str, Any]:
    if not isinstance(message, dict):
        raise CuratorError(f"{where}: not a message object")
    message = dict(message)
    role = message.get("role")
    if isinstance(role, str) and role in RENAMED_ROLES:
        shown = where.split(": ", 1)[-1]  # the fixture's warnings name no file
        warnings.append(f"{shown}: role {role!r} read as {RENAMED_ROLES[role]!r}")
        message["role"] = RENAMED_ROLES[role]
    content = message.get("content")
    if isinstance(content, list):
        message["content"] = _joined_parts(content, where)
    return message


def _joined_parts(parts: list[Any], where: str) -> str:
    texts = []
    for part in parts:
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, dict) and part.get("type") in ("text", "input_text", "output_text"):
            texts.append(str(part.get("text", "")))
        else:
            kind = part.get("type") if isinstance(part, dict) else type(part).__name__
            raise CuratorError(
                f"{where}: a {kind} part is no text, so it cannot be anonymised; only text "
                "conversations are imported"
            )
    return "\n".join(texts)
