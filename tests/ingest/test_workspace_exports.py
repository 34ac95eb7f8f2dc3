"""Mattermost bulk exports and Slack workspace exports become thread fixtures.

The samples (tests/ingest/workspace_exports.py) are built from the formats' sources and docs,
cited there: Mattermost's import_types.go and bulk export docs, Slack's export help and
message event reference; they hold edited and deleted posts, system posts, bots, reactions,
files, link previews, DMs, group DMs, emoji, an empty channel and people named in messages.
"""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest

from curator.ingest.archive import read_folder
from curator.ingest.selection import EVERYTHING, Selection
from curator.ingest.slack_text import to_mattermost
from curator.ingest.sources import read_checked
from curator.limits import DEFAULT
from tests.conftest import run_cli, secrets_left_in, snapshot
from tests.ingest import workspace_exports as sample


def _parsed(path: Path, selection: Selection = EVERYTHING):
    from curator.ingest.sources import workspace

    raw, kind = read_checked(path, DEFAULT, stream=not selection.per_channel)
    return kind, workspace(raw, kind, selection, DEFAULT)


def _imported(store, *sources: Path, args: tuple[str, ...] = ()) -> list[dict]:
    result = run_cli("import", *sources, *args, "--json", store=store.root)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)["created"]


def _contents(store) -> list[dict]:
    return [
        json.loads(path.read_text(encoding="utf-8"))["content"]["export"]
        for path in sorted(store.root.rglob("content.json"))
    ]


def test_bulk_zip_gives_one_fixture_per_thread_with_structure_and_order_kept(tmp_path):
    kind, parsed = _parsed(sample.bulk_zip(tmp_path))
    assert kind == "mattermost-bulk"
    exports = [p.content.export for p in parsed]
    # 2 threads of berth-bookings (a lone join and a lone header change are left out), the DM
    # and the group DM; the empty channel gives nothing
    assert [len(e.posts) for e in exports] == [3, 1, 2, 1]
    thread = exports[0]
    root, first, second = thread.ordered_posts()
    assert root.root_id == "" and first.root_id == second.root_id == root.id
    assert root.reply_count == 2 and root.edit_at > root.create_at and root.model_extra["is_pinned"]
    assert root.metadata["reactions"][0]["emoji_name"] == "+1" and root.has_reactions
    assert thread.users[root.user_id].username == "ingrid.solberg"
    assert thread.channel["name"] == "berth-bookings" and thread.team["name"] == "harbour-ops"
    # the text attachment travels in `files`; the image keeps its metadata only
    [text_file] = root.file_ids or []
    assert text_file in thread.files and thread.file_infos[text_file]["name"] == "berth-plan.txt"
    [image] = second.file_ids or []
    assert image not in thread.files and thread.file_infos[image]["mime_type"] == "image/png"
    direct, group = exports[2].channel, exports[3].channel
    assert (
        direct["type"] == "D" and group["type"] == "G" and "team" not in exports[2].model_fields_set
    )


def test_bulk_per_channel_keeps_system_posts_as_structure(tmp_path):
    _, parsed = _parsed(sample.bulk_zip(tmp_path), Selection(per_channel=True))
    channel = parsed[0].content.export
    types = [p.type for p in channel.ordered_posts()]
    assert types == ["system_join_channel", "", "", "", "system_header_change", ""]
    assert len(parsed) == 3


@pytest.mark.parametrize(
    ("selection", "sizes"),
    [
        (Selection.of(channels=["Berth Bookings"]), [3, 1]),
        (Selection.of(min_replies=1), [3, 2]),
        (Selection.of(since="2024-01-02"), [1]),
        (Selection.of(until="2024-01-01"), [3, 2, 1]),
    ],
)
def test_bulk_filters(tmp_path, selection, sizes):
    _, parsed = _parsed(sample.bulk_zip(tmp_path), selection)
    assert [len(p.content.export.posts) for p in parsed] == sizes


def test_bulk_jsonl_alone_is_told_from_a_chat_log_by_its_version_line(tmp_path):
    kind, parsed = _parsed(sample.bulk_jsonl(tmp_path))
    assert kind == "mattermost-bulk" and len(parsed) == 4


def test_slack_zip_and_folder_read_alike(tmp_path):
    kind, from_zip = _parsed(sample.slack_zip(tmp_path))
    _, from_folder = _parsed(sample.slack_folder(tmp_path))
    assert kind == "slack"
    assert [p.content for p in from_zip] == [p.content for p in from_folder]
    # a folder packs the same way wherever it lies: the same sha256, so a re-import is skipped
    folder = sample.slack_folder(tmp_path / "elsewhere")
    assert read_folder(folder).sha256 == read_folder(sample.slack_folder(tmp_path)).sha256


def test_slack_threads_mentions_links_bots_edits_and_files(tmp_path):
    _, parsed = _parsed(sample.slack_zip(tmp_path))
    exports = [p.content.export for p in parsed]
    thread = exports[0]
    root, reply, preview = thread.ordered_posts()
    assert reply.root_id == preview.root_id == root.id and root.edit_at > root.create_at
    assert root.message.startswith("Can @kwame.mensah confirm berth 4")
    assert (
        "~general" in root.message
        and "[the plan](https://harbour.example.org/plan)" in root.message
    )
    assert root.message.endswith("& rates")
    assert [r["emoji_name"] for r in root.metadata["reactions"]] == ["ship", "ship"]
    [file_id] = root.file_ids or []  # the deleted file (a tombstone) is left out
    assert thread.file_infos[file_id]["name"] == "berth-plan.pdf"
    assert "url_private" not in json.dumps(thread.file_infos)
    assert preview.props["attachments"][0]["title"] == "Harbour plan"
    bot = exports[1].ordered_posts()[0]
    assert bot.props["from_bot"] == "true" and exports[1].users[bot.user_id].model_extra["is_bot"]
    deleted = exports[2].ordered_posts()[0]
    assert deleted.delete_at and deleted.message == ""
    types = {e.channel["type"] for e in exports}
    assert types == {"O", "P", "D", "G"}
    # the topic change is a system post of the channel, not a conversation
    whole = _parsed(tmp_path / "harbour-slack.zip", Selection(per_channel=True))[1]
    assert "system_header_change" in [p.type for p in whole[0].content.export.ordered_posts()]


def test_slack_markup_becomes_mattermost_markup():
    users, channels = {"U1": "ana"}, {"C1": "ops"}
    text = (
        "<@U1> <@U2|bo> <#C1> <#C9|x> <!here> <!subteam^S1|@devs> "
        "<https://a.org> <https://a.org|A> &lt;b&gt;"
    )
    assert to_mattermost(text, users, channels) == (
        "@ana @bo ~ops ~x @here @devs https://a.org [A](https://a.org) <b>"
    )


@pytest.mark.parametrize("make", [sample.bulk_zip, sample.slack_zip, sample.slack_folder])
def test_import_leaves_no_name_username_or_email_and_audit_is_clean(store, tmp_path, make):
    created = _imported(store, make(tmp_path))
    assert created
    assert secrets_left_in(store.root, sample.secrets()) == []
    audit = run_cli("audit", store=store.root)
    assert audit.exit_code == 0, audit.stdout + audit.stderr
    # structure is kept through anonymisation: types, replies' roots
    for export in _contents(store):
        for post in export["posts"].values():
            assert not post["root_id"] or post["root_id"] in export["posts"]


def test_direct_and_group_channels_keep_mattermosts_names_through_anonymisation(store, tmp_path):
    _imported(store, sample.bulk_zip(tmp_path))
    channels = {e["channel"]["type"]: e for e in _contents(store)}
    direct, group = channels["D"], channels["G"]
    # a direct channel is named after its two users' ids, remapped as they are
    assert direct["channel"]["name"] == "__".join(sorted(direct["users"]))
    # a group channel after a hash of its members (an id, not a word), shown as their usernames
    assert re.fullmatch(r"[0-9a-f]{40}", group["channel"]["name"])
    shown = group["channel"]["display_name"].split(", ")
    [author] = [u["username"] for u in group["users"].values()]  # who wrote in it
    originals = {username for username, *_ in sample.PEOPLE}
    assert len(shown) == 3 and author in shown and not originals & set(shown)


def _unzipped(zipped: Path, folder: Path) -> Path:
    with zipfile.ZipFile(zipped) as archive:
        archive.extractall(folder)
    return folder


@pytest.mark.parametrize("per_channel", [False, True])
def test_an_unzipped_bulk_export_reads_as_its_zip(tmp_path, per_channel):
    zipped = sample.bulk_zip(tmp_path)
    folder = _unzipped(zipped, tmp_path / "harbour-export")
    # a PDF among the attachments is the export's file, never a document of its own
    (folder / "data" / "20240101" / "notes" / "manifest.pdf").write_bytes(b"%PDF-1.4\n")
    selection = Selection.of(per_channel=per_channel)
    kind, parsed = _parsed(folder, selection)
    assert kind == "mattermost-bulk"
    assert [p.content for p in parsed] == [p.content for p in _parsed(zipped, selection)[1]]


def test_an_unzipped_bulk_export_imports_once_as_one_source(store, tmp_path):
    folder = _unzipped(sample.bulk_zip(tmp_path), tmp_path / "harbour-export")
    created = _imported(store, folder)
    assert {c["source"] for c in created} == {"harbour-export"} and len(created) == 4
    assert secrets_left_in(store.root, sample.secrets()) == []
    again = run_cli("import", folder, store=store.root)
    assert again.exit_code == 0 and "already imported" in again.stdout
    assert run_cli("audit", store=store.root).exit_code == 0


def test_old_thread_export_with_thread_key_imports_as_posts(store, tmp_path):
    from tests.ingest.conftest import EXAMPLES

    data = json.loads((EXAMPLES / "threads" / "rent-question.json").read_text())
    data["thread"] = data.pop("posts")
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data))
    [created] = _imported(store, old)
    assert created["posts"] == len(data["thread"])


def _truncated(tmp_path: Path) -> Path:
    good = sample.bulk_zip(tmp_path).read_bytes()
    path = tmp_path / "cut.zip"
    path.write_bytes(good[: len(good) // 2])
    return path


def _bad_line(tmp_path: Path) -> Path:
    path = tmp_path / "bad.zip"
    lines = sample.bulk_jsonl(tmp_path).read_bytes().splitlines()
    lines[5] = b'{"type": "user", "user": {'
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("import.jsonl", b"\n".join(lines))
    return path


def _no_version(tmp_path: Path) -> Path:
    path = tmp_path / "import.jsonl"
    path.write_bytes(b'{"type": "version", "version": 1}\n{"type": "post", "post": 3}\n')
    return path


def _unzipped_bad_line(tmp_path: Path) -> Path:
    folder = _unzipped(sample.bulk_zip(tmp_path), tmp_path / "harbour-export")
    lines = (folder / "import.jsonl").read_text().splitlines()
    (folder / "import.jsonl").write_text("\n".join([*lines[:3], "{not json", *lines[3:]]) + "\n")
    return folder


def _unzipped_with_a_link(tmp_path: Path) -> Path:
    """An attachment that is a link to a file outside the export: no member of it."""
    folder = _unzipped(sample.bulk_zip(tmp_path), tmp_path / "harbour-export")
    secret = tmp_path / "elsewhere.txt"
    secret.write_text("read me and you read outside the export\n")
    plan = folder / "data" / "20240101" / "notes" / "berth-plan.txt"
    plan.unlink()
    plan.symlink_to(secret)
    return folder


@pytest.mark.parametrize(
    ("make", "phrase"),
    [
        (_truncated, "not a readable zip archive"),
        (_bad_line, "import.jsonl:6"),
        (_no_version, "a 'post' line needs a 'post' object"),
        (lambda tmp: sample.slack_zip(tmp, leave_out="users.json"), "no users.json"),
        (_unzipped_bad_line, "harbour-export: import.jsonl:4: not valid JSON"),
        (_unzipped_with_a_link, "attachment's file is not in the archive"),
    ],
)
def test_bad_export_is_one_line_exit_2_store_unchanged(store, tmp_path, make, phrase):
    path = make(tmp_path)
    before = snapshot(store.root)
    result = run_cli("import", path, store=store.root)
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert line.startswith("curator: error: ") and phrase in line and path.name in line
    assert snapshot(store.root) == before


def test_keep_going_imports_the_good_exports_of_a_folder(store, tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    sample.bulk_zip(inbox)
    _truncated(tmp_path).rename(inbox / "cut.zip")
    result = run_cli("import", inbox, "--keep-going", "--json", store=store.root)
    assert result.exit_code == 2
    assert len(json.loads(result.stdout)["created"]) == 4 and "cut.zip" in result.stderr


def test_unknown_zip_is_refused(store, tmp_path):
    path = tmp_path / "photos.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("a.png", b"x")
    result = run_cli("import", path, store=store.root)
    assert result.exit_code == 2 and "neither a Mattermost bulk export" in result.stderr


def test_bad_filter_values_are_bad_usage(store):
    for args, phrase in [
        (["--since", "yesterday"], "--since must be a date"),
        (["--since", "2024-02-01", "--until", "2024-01-01"], "--until must be later"),
    ]:
        result = run_cli("import", "x.zip", *args, store=store.root)
        assert result.exit_code == 2 and phrase in result.stderr


def test_bulk_import_is_deterministic(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    one = _parsed(sample.bulk_zip(tmp_path / "a"))[1]
    two = _parsed(sample.bulk_zip(tmp_path / "b"))[1]
    assert [(p.part, p.content) for p in one] == [(p.part, p.content) for p in two]
