"""Mattermost's compliance export, CSV and Actiance XML, becomes thread fixtures.

The samples (tests/ingest/compliance_exports.py) follow the server's writers and test data
in server/enterprise/message_export/ of github.com/mattermost/mattermost (csv_export.go,
actiance_export.go, shared/export_data.go, testdata/csvE2E1Batch1.tmpl, actianceE2E2.tmpl)
and docs.mattermost.com "Compliance export"; they hold an edited and a deleted post, a bot,
joins and leaves, a permalink preview, files, a DM and a group DM, emoji and people named in
messages.
"""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest

from curator.ingest.selection import EVERYTHING, Selection
from curator.ingest.sources import read_checked, workspace
from curator.limits import DEFAULT
from tests.conftest import run_cli, secrets_left_in, snapshot
from tests.ingest import compliance_exports as sample

POSTS = sample.POSTS


def _parsed(path: Path, selection: Selection = EVERYTHING):
    raw, kind = read_checked(path, DEFAULT)
    return kind, workspace(raw, kind, selection, DEFAULT)


def _sizes(parsed) -> list[int]:
    return [len(p.content.export.posts) for p in parsed]


@pytest.mark.parametrize("make", [sample.csv_zip, sample.posts_csv, sample.batches_zip])
def test_csv_threads_are_rebuilt_from_the_reply_to_column(tmp_path, make):
    kind, parsed = _parsed(make(tmp_path))
    assert kind == "mattermost-compliance-csv"
    # berth-bookings' two threads (its lone join and leave are no threads), the DM, the group
    assert _sizes(parsed) == [5, 1, 2, 1]
    thread = parsed[0].content.export
    root, *replies = thread.ordered_posts()
    assert [p.id for p in (root, *replies)] == [POSTS[k] for k in ("p1", "r1", "r2", "r3", "r4")]
    assert all(p.root_id == root.id for p in replies) and root.reply_count == 4
    # the edit: the post keeps its id and its new text; the old copy is folded into it
    assert "berth 4" in root.message and root.edit_at > root.create_at
    assert POSTS["copy"] not in thread.posts
    # the deletion: the post stays, deleted, with its text (not "delete ...")
    deleted = replies[-1]
    assert deleted.delete_at and deleted.message == "Wrong berth, sorry Ingrid Solberg"
    bot = replies[2]
    assert bot.props["from_bot"] == "true" and thread.users[bot.user_id].model_extra["is_bot"]
    user = thread.users[root.user_id]
    assert (user.username, user.email) == ("ingrid.solberg", "ingrid.solberg@fjordline.no")
    assert thread.channel["name"] == "berth-bookings" and thread.team["name"] == "harbour-ops"
    [plan] = root.file_ids or []
    assert thread.file_infos[plan]["name"] == "berth-plan.txt"
    [photo] = replies[1].file_ids or []
    assert thread.file_infos[photo]["mime_type"] == "image/png" and photo not in thread.files
    if make is not sample.posts_csv:  # a posts.csv alone names its files, holds none
        assert plan in thread.files and thread.file_infos[photo]["size"] == len(sample.PNG)
    [later] = parsed[1].content.export.ordered_posts()
    assert later.props["previewed_post"] == root.id
    direct, group = (p.content.export for p in parsed[2:])
    assert direct.channel["type"] == "D" and "team" not in direct.model_fields_set
    assert group.channel["type"] == "G"


def test_a_compliance_monitoring_report_rebuilds_threads_from_post_root_id(tmp_path):
    kind, parsed = _parsed(sample.report_zip(tmp_path))
    assert kind == "mattermost-compliance-csv"
    assert _sizes(parsed) == [5, 1, 2, 1]
    thread = parsed[0].content.export
    root, *replies = thread.ordered_posts()
    assert [p.id for p in (root, *replies)] == [POSTS[k] for k in ("p1", "r1", "r2", "r3", "r4")]
    assert all(p.root_id == root.id for p in replies) and root.reply_count == 4
    # the edit's copy (PostOriginalId, deleted at the edit) is folded into the post
    assert "berth 4" in root.message and root.edit_at == sample.T0 + 5 * sample.MINUTE
    assert POSTS["copy"] not in thread.posts
    assert root.model_extra["hashtags"] == "#berth4" and root.file_ids == [sample.FILES["plan"]]
    bot, deleted = replies[2], replies[3]
    assert bot.message.startswith("+1 for berth 4")  # the spreadsheet guard (') is gone
    assert deleted.delete_at and deleted.props["deleteBy"] and deleted.message.startswith("Wrong")
    user = thread.users[root.user_id]
    assert (user.username, user.nickname) == ("ingrid.solberg", "Ingrid")
    # the report names no ids: made from the names, the same on every import
    assert thread.channel["id"] == parsed[1].content.export.channel["id"]
    direct, group = (p.content.export for p in parsed[2:])
    assert direct.channel["type"] == "D" and group.channel["type"] == "G"
    whole = _parsed(sample.report_zip(tmp_path), Selection(per_channel=True))[1]
    types = [p.type for p in whole[0].content.export.ordered_posts()]
    assert types[0] == "system_join_channel" and "system_leave_channel" in types


def test_replies_whose_root_was_posted_before_the_window_are_kept_as_orphans(tmp_path):
    root_id = POSTS["p1"]
    rows = [r for r in sample._csv_rows() if root_id not in (r[13], r[14])]  # Post Id, Edited By
    path = tmp_path / "posts.csv"
    path.write_bytes(sample.csv_bytes(rows))
    _, parsed = _parsed(path)
    orphans = parsed[0].content
    assert orphans.orphan_post_ids == [POSTS[k] for k in ("r1", "r2", "r3", "r4")]
    assert all(p.root_id == root_id for p in orphans.export.posts.values())
    assert "4 orphan replies" in parsed[0].warnings[-1]


def test_csv_per_channel_keeps_joins_and_leaves_as_system_posts(tmp_path):
    _, parsed = _parsed(sample.csv_zip(tmp_path), Selection(per_channel=True))
    types = [p.type for p in parsed[0].content.export.ordered_posts()]
    # "previously-joined" says who was there when the window opened: no event, no post
    assert types == ["system_join_channel", "", "", "", "", "", "system_leave_channel", ""]
    assert len(parsed) == 3


def test_an_older_servers_csv_without_update_columns_reads_its_deletions(tmp_path):
    _, parsed = _parsed(sample.old_csv(tmp_path))
    assert _sizes(parsed) == [5, 1, 2, 1]
    deleted = parsed[0].content.export.posts[POSTS["r4"]]
    assert deleted.delete_at == sample.T0 + 7 * sample.MINUTE
    assert deleted.create_at == sample.T0 + 6 * sample.MINUTE
    assert deleted.message == "Wrong berth, sorry Ingrid Solberg"


@pytest.mark.parametrize(
    ("selection", "sizes"),
    [
        (Selection.of(channels=["Berth Bookings"]), [5, 1]),
        (Selection.of(min_replies=1), [5, 2]),
        (Selection.of(since="2024-01-02"), [1]),
        (Selection.of(until="2024-01-01"), [5, 2, 1]),
    ],
)
def test_csv_filters(tmp_path, selection, sizes):
    _, parsed = _parsed(sample.csv_zip(tmp_path), selection)
    assert _sizes(parsed) == sizes


@pytest.mark.parametrize("make", [sample.actiance_zip, sample.actiance_xml])
def test_actiance_conversations_are_channel_fixtures_with_people_by_login(tmp_path, make):
    kind, parsed = _parsed(make(tmp_path))
    assert kind == "mattermost-actiance"
    # one fixture per conversation: Actiance records no threads
    assert _sizes(parsed) == [8, 2, 1]
    channel = parsed[0].content.export
    posts = channel.ordered_posts()
    assert [p.type for p in posts] == [
        "system_join_channel",
        *[""] * 5,
        "system_leave_channel",
        "",
    ]
    assert [p.id for p in posts if not p.type] == [
        POSTS[k] for k in ("p1", "r1", "r2", "r3", "r4", "p2")
    ]
    assert all(not p.root_id for p in posts)
    root = posts[1]
    assert "berth 4" in root.message and root.edit_at and POSTS["copy"] not in channel.posts
    assert posts[5].delete_at and posts[5].message.startswith("Wrong berth")
    assert channel.users[posts[4].user_id].model_extra["is_bot"]
    # people by login and e-mail: the login's part before @ is the username
    people = {(u.username, u.email) for u in channel.users.values()}
    assert ("ingrid.solberg", "ingrid.solberg@fjordline.no") in people
    assert channel.channel["name"] == "berth-bookings"
    assert channel.channel["display_name"] == "Berth Bookings"
    [plan] = root.file_ids or []
    assert channel.file_infos[plan]["name"] == "berth-plan.txt"
    assert (plan in channel.files) == (make is sample.actiance_zip)
    assert posts[-1].props["previewed_post"] == root.id
    assert [p.content.export.channel["type"] for p in parsed[1:]] == ["D", "G"]


@pytest.mark.parametrize(
    ("selection", "sizes"),
    [
        (Selection.of(channels=["berth-bookings"]), [8]),
        (Selection.of(min_replies=1), [8, 2]),
        (Selection.of(since="2024-01-02"), [1]),
        (Selection.of(until="2024-01-01"), [7, 2, 1]),
    ],
)
def test_actiance_filters_choose_conversations_and_their_messages(tmp_path, selection, sizes):
    _, parsed = _parsed(sample.actiance_zip(tmp_path), selection)
    assert _sizes(parsed) == sizes


@pytest.mark.parametrize(
    "make",
    [
        sample.csv_zip,
        sample.batches_zip,
        sample.report_zip,
        sample.actiance_zip,
        sample.actiance_xml,
    ],
)
def test_import_leaves_no_name_username_or_email_in_store_or_bundle_and_audit_is_clean(
    store, tmp_path, make
):
    result = run_cli("import", make(tmp_path), "--json", store=store.root)
    assert result.exit_code == 0, result.stderr
    created = json.loads(result.stdout)["created"]
    assert created
    built = run_cli(
        "bundle",
        "build",
        "1.0.0",
        "--status",
        "draft",
        "--format",
        "jsonl,mattermost",
        store=store.root,
    )
    assert built.exit_code == 0, built.stderr
    assert secrets_left_in(store.root, sample.secrets()) == []
    audit = run_cli("audit", store=store.root)
    assert audit.exit_code == 0, audit.stdout + audit.stderr
    for path in sorted(store.root.rglob("content.json")):
        export = json.loads(path.read_text(encoding="utf-8"))["content"]["export"]
        for post in export["posts"].values():
            assert not post["root_id"] or post["root_id"] in export["posts"]


def _truncated(tmp_path: Path) -> Path:
    good = sample.csv_zip(tmp_path).read_bytes()
    path = tmp_path / "cut.zip"
    path.write_bytes(good[: len(good) // 2])
    return path


def _malformed_row(tmp_path: Path) -> Path:
    lines = sample.csv_bytes().splitlines(keepends=True)
    assert b",message," in lines[3]
    lines[3] = lines[3].replace(b",message,", b',"message,', 1)  # a quote left open
    return sample.write_zip(tmp_path / "bad-row.zip", {"posts.csv": b"".join(lines)})


def _extra_field(tmp_path: Path) -> Path:
    lines = sample.csv_bytes().splitlines(keepends=True)
    lines[3] = lines[3].rstrip(b"\n") + b",surplus\n"
    path = tmp_path / "posts.csv"
    path.write_bytes(b"".join(lines))
    return path


def _no_reply_column(tmp_path: Path) -> Path:
    header = [h if h != "Replied to Post Id" else "Thread" for h in sample.HEADER]
    path = tmp_path / "posts.csv"
    path.write_bytes(sample.csv_bytes(header=header))
    return path


def _report_without_roots(tmp_path: Path) -> Path:
    data = zipfile.ZipFile(sample.report_zip(tmp_path)).read("posts.csv")
    path = tmp_path / "report.csv"
    path.write_bytes(data.replace(b"PostRootId", b"RootId", 1))
    return path


def _report_bad_time(tmp_path: Path) -> Path:
    data = zipfile.ZipFile(sample.report_zip(tmp_path)).read("posts.csv")
    path = tmp_path / "report.csv"
    path.write_bytes(data.replace(b"2024-01-01T10:02:00Z", b"yesterday", 1))
    return path


def _not_well_formed(tmp_path: Path) -> Path:
    data = sample.actiance_bytes().replace(b"</Content>", b"</Contents>", 1)
    return sample.write_zip(tmp_path / "bad-xml.zip", {"actiance_export.xml": data})


def _entities(tmp_path: Path) -> Path:
    lol = b'<!DOCTYPE FileDump [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;">]>\n'
    data = sample.actiance_bytes().replace(b"?>\n", b"?>\n" + lol, 1)
    data = data.replace(b"Odd, resend it please.", b"&b;")
    path = tmp_path / "actiance_export.xml"
    path.write_bytes(data)
    return path


def _no_room(tmp_path: Path) -> Path:
    data = sample.actiance_bytes().replace(b"<RoomID>", b"<Room>").replace(b"</RoomID>", b"</Room>")
    path = tmp_path / "actiance_export.xml"
    path.write_bytes(data)
    return path


def _other_csv(tmp_path: Path) -> Path:
    path = tmp_path / "people.csv"
    path.write_text("name,phone\nA,1\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("make", "phrase"),
    [
        (_truncated, "not a readable zip archive"),
        (_malformed_row, "posts.csv:4: not a well-formed CSV row"),
        (_extra_field, "posts.csv:4: 21 fields, the header has 20"),
        (_no_reply_column, "no 'Replied to Post Id' column"),
        (_report_without_roots, "no 'PostRootId' column"),
        (_report_bad_time, "report.csv:5: 'PostCreateAt' must be an RFC 3339 time"),
        (_not_well_formed, "actiance_export.xml:"),
        (_entities, "holds a DTD or entities"),
        (_no_room, "conversation 1: no RoomID"),
        (_other_csv, "neither a Mattermost compliance export"),
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


@pytest.mark.parametrize("zipped", [False, True])
def test_a_posts_csv_over_max_json_mb_is_refused_as_a_json_input_is(store, tmp_path, zipped):
    config = store.root / "curator.toml"
    config.write_text(config.read_text() + "\n[limits]\nmax_json_mb = 1\n")
    rows = sample._csv_rows()
    long = [[*row[:16], "word " * 300, *row[17:]] for row in rows[3:4] * 800]
    data = sample.csv_bytes([*rows, *long])
    path = tmp_path / "posts.csv"
    path.write_bytes(data)
    if zipped:
        path = sample.write_zip(tmp_path / "big.zip", {"posts.csv": data})
    before = snapshot(store.root)
    result = run_cli("import", path, store=store.root)
    assert result.exit_code == 2
    assert "over the limit of 1 MB (raise [limits] max_json_mb" in result.stderr
    assert snapshot(store.root) == before


def test_keep_going_imports_the_good_exports_of_a_folder(store, tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    sample.csv_zip(inbox)
    sample.actiance_zip(inbox)
    _truncated(tmp_path).rename(inbox / "cut.zip")
    _no_reply_column(tmp_path).rename(inbox / "posts.csv")
    result = run_cli("import", inbox, "--keep-going", "--json", store=store.root)
    assert result.exit_code == 2
    assert len(json.loads(result.stdout)["created"]) == 4 + 3
    assert "cut.zip" in result.stderr and "posts.csv" in result.stderr


@pytest.mark.parametrize("make", [sample.csv_zip, sample.actiance_zip])
def test_an_unzipped_batch_reads_as_its_zip_and_imports_as_one_source(store, tmp_path, make):
    zipped = make(tmp_path)
    folder = tmp_path / zipped.stem
    with zipfile.ZipFile(zipped) as archive:
        archive.extractall(folder)
    kind, parsed = _parsed(folder)
    assert [p.content for p in parsed] == [p.content for p in _parsed(zipped)[1]]
    assert kind in ("mattermost-compliance-csv", "mattermost-actiance")
    result = run_cli("import", folder, "--json", store=store.root)
    assert result.exit_code == 0, result.stderr
    assert {c["source"] for c in json.loads(result.stdout)["created"]} == {folder.name}
    assert secrets_left_in(store.root, sample.secrets()) == []


def test_a_zip_of_zips_of_other_files_is_still_refused(store, tmp_path):
    inner = sample.write_zip(tmp_path / "photos.zip", {"a.png": sample.PNG})
    path = sample.write_zip(tmp_path / "outer.zip", {"photos.zip": inner.read_bytes()})
    result = run_cli("import", path, store=store.root)
    assert result.exit_code == 2 and "neither a Mattermost bulk export" in result.stderr


def test_compliance_import_is_deterministic(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for make in (sample.csv_zip, sample.actiance_zip):
        one = _parsed(make(tmp_path / "a"))[1]
        two = _parsed(make(tmp_path / "b"))[1]
        assert [(p.part, p.content) for p in one] == [(p.part, p.content) for p in two]


@pytest.mark.skipif(shutil.which("go") is None, reason="Go is not installed")
def test_a_bundle_of_compliance_fixtures_loads_in_the_go_eval_package_layout(store, tmp_path):
    from tests.go.test_go_thread_files import go_test

    for make in (sample.csv_zip, sample.report_zip, sample.actiance_zip):
        rubric = ("--rubric", "Names who confirms the berth.")
        assert run_cli("import", make(tmp_path), *rubric, store=store.root).exit_code == 0
    moved = run_cli("status", "--to", "active", "--where", "status=draft", store=store.root)
    assert moved.exit_code == 0, moved.stderr
    built = run_cli("bundle", "build", "1.0.0", "--format", "jsonl,mattermost", store=store.root)
    assert built.exit_code == 0, built.stderr
    run = go_test(store.root / "bundles" / "1.0.0")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "checked 11 thread files" in run.stdout  # 4 + 4 threads, 3 conversations
