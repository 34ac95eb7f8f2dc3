"""Mattermost thread exports: every member kept, orphans flagged, --split-threads."""

from __future__ import annotations

import json

import pytest

from curator.errors import CuratorError
from curator.ingest.source import RawSource, read_source
from curator.ingest.threads import parse_thread_export
from tests.ingest.conftest import EXAMPLES

THREAD = EXAMPLES / "threads" / "lease-question.json"
CHANNEL = EXAMPLES / "threads" / "maintenance-channel.json"


def test_thread_export_round_trips_to_the_same_json():
    [parsed] = parse_thread_export(read_source(THREAD))
    raw = json.loads(THREAD.read_text())
    dumped = parsed.content.model_dump(mode="json")["export"]
    assert dumped == raw  # unknown members (order, is_pinned, notify_props...) included


def test_system_posts_reactions_string_props_and_files_survive():
    [parsed] = parse_thread_export(read_source(THREAD))
    export = parsed.content.export
    posts = export.ordered_posts()
    assert posts[0].root_id == "" and posts[1].type == "system_join_channel"
    reacted = [p for p in posts if p.has_reactions]
    assert [r["emoji_name"] for r in reacted[0].metadata["reactions"]] == ["+1", "white_check_mark"]
    card = next(p for p in posts if "card" in p.props)
    assert isinstance(card.props["card"], str) and json.loads(card.props["card"])["rent"]
    with_file = next(p for p in posts if p.file_ids)
    assert with_file.file_ids[0] in export.files and with_file.file_ids[0] in export.file_infos


def test_authors_missing_from_users_are_kept_with_a_warning():
    [parsed] = parse_thread_export(read_source(THREAD))
    export = parsed.content.export
    missing = [p.id for p in export.posts.values() if p.user_id not in export.users]
    assert len(missing) == 2  # a deleted user and a bot
    for post_id in missing:
        assert any(post_id in warning and "not in users" in warning for warning in parsed.warnings)


def test_channel_export_is_one_fixture_that_flags_orphan_replies():
    [parsed] = parse_thread_export(read_source(CHANNEL))
    content = parsed.content
    raw = json.loads(CHANNEL.read_text())
    assert len(content.export.posts) == len(raw["posts"])
    assert len(content.orphan_post_ids) == 2
    for post_id in content.orphan_post_ids:
        assert content.export.posts[post_id].root_id not in content.export.posts
    assert any("orphan" in w for w in parsed.warnings)


def test_split_threads_gives_one_export_per_thread_with_its_own_users_and_orphans():
    parts = parse_thread_export(read_source(CHANNEL), split_threads=True)
    raw = json.loads(CHANNEL.read_text())
    roots = [p for p in raw["posts"].values() if not p["root_id"] and not p["type"]]
    assert len(parts) == len(roots) + 1  # three threads and the orphans' fragment; joins dropped
    assert len({p.part for p in parts}) == len(parts)
    orphan_parts = [p for p in parts if p.content.orphan_post_ids]
    assert len(orphan_parts) == 1 and len(orphan_parts[0].content.orphan_post_ids) == 2
    covered = set()
    for part in parts:
        export = part.content.export
        covered |= set(export.posts)
        assert set(export.users) <= {p.user_id for p in export.posts.values()}
        assert export.channel == raw["channel"]
    assert covered == {pid for pid, p in raw["posts"].items() if p["type"] != "system_join_channel"}


def test_post_with_no_id_is_bad_input():
    with pytest.raises(CuratorError, match="posts.x has no id"):
        parse_thread_export(RawSource(THREAD, b'{"posts": {"x": {"message": "hi"}}}'))


def test_post_fields_of_the_wrong_type_are_bad_input():
    with pytest.raises(CuratorError, match="not a valid thread export: posts.x.create_at"):
        parse_thread_export(
            RawSource(THREAD, b'{"posts": {"x": {"id": "x", "create_at": "soon"}}}')
        )
