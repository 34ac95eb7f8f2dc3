"""Generic chat logs: JSONL, one message per line (author, text, time, optional thread).

Each log becomes a Mattermost-shaped ThreadExport, so threads from any source share one
content model, one anonymiser path and one bundle format. Unknown members stay on the post.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from curator.errors import CuratorError, first_problem
from curator.ingest.source import Parsed, RawSource
from curator.ingest.threads import from_export, validate_export
from curator.json_input import parse_lines
from curator.limits import DEFAULT
from curator.model import ChatMessage, LimitSettings

IMPORTER = "chat-jsonl"
# A Mattermost-shaped (26-character) channel id: short ids like "chat" would be
# pseudonymised as ids and then flagged wherever the word occurs.
CHANNEL = {"id": "chatlog0000000000000000000", "name": "chat-log", "display_name": "Chat log", "type": "O"}


def parse_chat_jsonl(source: RawSource, *, split_threads: bool = False,
                     limits: LimitSettings = DEFAULT) -> list[Parsed]:
    messages = read_messages(source, limits)
    raw = to_export(messages, source.name)
    return from_export(raw, validate_export(raw, source.name), IMPORTER, source.name,
                       split_threads=split_threads)


def read_messages(source: RawSource, limits: LimitSettings = DEFAULT) -> list[ChatMessage]:
    messages = []
    for number, data in parse_lines(source.data, source.name, limits):
        try:
            message = ChatMessage.model_validate(data)
        except ValidationError as error:
            raise CuratorError(f"{source.name}:{number}: not a chat message: {first_problem(error)}") from None
        if message.id is None:
            message.id = f"line-{number}"
        messages.append(message)
    if not messages:
        raise CuratorError(f"{source.name}: no messages")
    return messages


# Epoch milliseconds of 0001-01-01 and 9999-12-31: what a date can be.
EARLIEST_MS, LATEST_MS = -62_135_596_800_000, 253_402_300_799_999


def to_epoch_ms(value: str | int, where: str) -> int:
    if isinstance(value, int):
        if not EARLIEST_MS <= value <= LATEST_MS:
            raise CuratorError(f"{where}: its time is out of range for epoch milliseconds")
        return value
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        # The value is not echoed: a time field may hold anything, a name included.
        raise CuratorError(f"{where}: its time is not ISO 8601 or epoch milliseconds") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)


def to_export(messages: list[ChatMessage], name: str) -> dict[str, Any]:
    """Mattermost export JSON: users by first appearance, replies point at their thread's root."""
    users: dict[str, dict[str, Any]] = {}
    user_ids: dict[str, str] = {}
    roots: dict[str, str] = {}
    ids = {m.id for m in messages}
    posts: dict[str, dict[str, Any]] = {}
    for message in messages:
        message_id = message.id
        assert message_id is not None  # read_messages numbers the messages that came without one
        if message_id in posts:
            raise CuratorError(f"{name}: two messages have the same id (ids must be unique)")
        if message.author not in user_ids:
            uid = f"user-{len(user_ids) + 1}"
            user_ids[message.author] = uid
            users[uid] = {"id": uid, "username": message.author}
        root_id = ""
        if message.thread is not None:
            # The thread's root is the message whose id is the thread id, else its first message.
            root = message.thread if message.thread in ids else roots.setdefault(message.thread, message_id)
            root_id = "" if root == message_id else root
        extra = message.model_extra or {}
        posts[message_id] = {
            **extra,
            "id": message_id,
            "create_at": to_epoch_ms(message.time, f"{name}: message {message_id}"),
            "user_id": user_ids[message.author],
            "channel_id": CHANNEL["id"],
            "root_id": root_id,
            "message": message.text,
        }
    return {"posts": posts, "channel": dict(CHANNEL), "users": users}
