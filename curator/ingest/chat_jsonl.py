"""Generic chat logs: JSONL, one message per line (author, text, time, optional thread).

Each log becomes a Mattermost-shaped ThreadExport, so threads from any source share one
content model, one anonymiser path and one bundle format. Unknown members stay on the post.

Message ids are only required to be unique within a thread: when a log repeats them across
threads ("1".."10" in every thread), each threaded message's post id is namespaced by its
thread ("2:7"). An author written as a name ("Greta Lindholm", "Pieter de Wit") also gets
first and last names in the user record, so the anonymiser knows the first name alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable
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
CHANNEL = {
    "id": "chatlog0000000000000000000",
    "name": "chat-log",
    "display_name": "Chat log",
    "type": "O",
}


def parse_chat_jsonl(
    source: RawSource, *, split_threads: bool = False, limits: LimitSettings = DEFAULT
) -> list[Parsed]:
    messages = read_messages(source, limits)
    raw = to_export(messages, source.name)
    return from_export(
        raw, validate_export(raw, source.name), IMPORTER, source.name, split_threads=split_threads
    )


def read_messages(source: RawSource, limits: LimitSettings = DEFAULT) -> list[ChatMessage]:
    messages = []
    for number, data in parse_lines(source.data, source.name, limits):
        try:
            message = ChatMessage.model_validate(data)
        except ValidationError as error:
            raise CuratorError(
                f"{source.name}:{number}: not a chat message: {first_problem(error)}"
            ) from None
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
    post_id = post_ids(messages)
    ids = {post_id(m) for m in messages}
    posts: dict[str, dict[str, Any]] = {}
    for message in messages:
        message_id = post_id(message)
        if message_id in posts:
            # the id itself is not quoted: an error line never echoes input values
            within = (
                " of one thread" if message.thread is not None and message_id != message.id else ""
            )
            raise CuratorError(
                f"{name}: two messages{within} have the same id (ids must be unique)"
            )
        if message.author not in user_ids:
            uid = f"user-{len(user_ids) + 1}"
            user_ids[message.author] = uid
            users[uid] = {"id": uid, "username": message.author, **person_name(message.author)}
        root_id = ""
        if message.thread is not None:
            # The thread's root is the message of that thread whose id is the thread's name,
            # else its first message.
            named = post_id(message.model_copy(update={"id": message.thread}))
            root = named if named in ids else roots.setdefault(message.thread, message_id)
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


def post_ids(messages: list[ChatMessage]) -> Callable[[ChatMessage], str]:
    """Message -> post id: the message id, namespaced by thread when ids repeat across threads."""
    seen = [m.id for m in messages]
    repeated = len(set(seen)) < len(seen)

    def post_id(message: ChatMessage) -> str:
        assert message.id is not None  # read_messages numbers the messages that came without one
        return (
            f"{message.thread}:{message.id}"
            if repeated and message.thread is not None
            else message.id
        )

    return post_id


NAME_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['’.-])*")


def person_name(author: str) -> dict[str, str]:
    """First and last name of an author written as one ("Pieter de Wit"), else nothing."""
    words = author.split()
    if (
        not 2 <= len(words) <= 4
        or not all(NAME_WORD.fullmatch(w) for w in words)
        or not words[0][0].isupper()
    ):
        return {}
    return {"first_name": words[0], "last_name": " ".join(words[1:])}
