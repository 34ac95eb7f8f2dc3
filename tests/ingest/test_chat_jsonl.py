"""Generic chat JSONL logs become Mattermost-shaped threads."""

from __future__ import annotations

import json

import pytest

from curator.errors import CuratorError
from curator.ingest.chat_jsonl import parse_chat_jsonl
from curator.ingest.source import RawSource, read_source
from curator.model import ChatMessage
from tests.ingest.conftest import EXAMPLES

LOG = EXAMPLES / "chat" / "office-chat.jsonl"


def test_every_line_of_the_example_is_a_valid_chat_message():
    for line in LOG.read_text().splitlines():
        ChatMessage.model_validate_json(line)


def test_chat_log_becomes_one_thread_export_with_replies_under_their_roots():
    [parsed] = parse_chat_jsonl(read_source(LOG))
    export = parsed.content.export
    lines = [json.loads(line) for line in LOG.read_text().splitlines()]
    assert [p.id for p in export.ordered_posts()] == [line["id"] for line in lines]
    assert export.posts["m2"].root_id == "m1" and export.posts["m3"].root_id == "m1"
    assert export.posts["m4"].root_id == "" and export.posts["m6"].root_id == "m5"
    assert export.posts["m1"].create_at == 1_706_781_600_000
    assert export.posts["m4"].create_at == (1_706_781_600 + 600) * 1000  # epoch ms kept
    assert export.users[export.posts["m1"].user_id].username == lines[0]["author"]
    assert export.posts["m1"].user_id == export.posts["m3"].user_id
    # Unknown members stay on the post.
    assert export.posts["m2"].model_extra["reactions"] == ["+1"]
    assert export.posts["m6"].model_extra["client"] == "mobile"


def test_split_threads_on_a_chat_log():
    parts = parse_chat_jsonl(read_source(LOG), split_threads=True)
    assert sorted(sorted(p.content.export.posts) for p in parts) == [
        ["m1", "m2", "m3"],
        ["m4"],
        ["m5", "m6"],
    ]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"author": "a", "text": "hi"}\n', "log.jsonl:1: not a chat message: time"),
        (b'{"author": "a", "text": "hi", "time": "yesterday"}\n', "not ISO 8601"),
        (b"\n\n", "no messages"),
        (
            b'{"author": "a", "text": "x", "time": 1, "id": "d"}\n'
            b'{"author": "b", "text": "y", "time": 2, "id": "d"}\n',
            "two messages have the same id",
        ),
        (b"\xff\xfe", "not UTF-8"),
    ],
)
def test_bad_chat_logs_say_what_is_wrong(tmp_path, data, message):
    with pytest.raises(CuratorError, match=message):
        parse_chat_jsonl(RawSource(tmp_path / "log.jsonl", data))
