"""Synthetic Mattermost compliance exports, shaped as the server writes them (no real people).

Built from the server's own writers and test data, server/enterprise/message_export/ of
github.com/mattermost/mattermost: csv_export/csv_export.go (the header, a row per post
change, "attachment" rows naming `files/POST/FILE-NAME`, enter/leave/previously-joined
rows written "User NAME (EMAIL) joined the channel"), actiance_export/actiance_export.go
(FileDump > Conversation with Perspective, RoomID "TYPE - NAME - ID", StartTimeUTC,
ParticipantEntered, Message, FileTransferStarted/Ended, ParticipantLeft, EndTimeUTC),
shared/export_data.go (an edit as EditedNewMsg plus an EditedOriginalMsg copy under a new
id, a deletion as "delete " + text), testdata/csvE2E1Batch1.tmpl and actianceE2E2.tmpl
(the layouts), and docs.mattermost.com "Compliance export" (batch zips, downloaded as one
zip of them). Compliance Monitoring's report: server/public/model/compliance_post.go
(CompliancePostHeader, Row: RFC 3339 times, a ' before a formula-like message).

Both hold the messy parts: an edited and a deleted post, a bot, joins and leaves, a
permalink preview, a text and an image attachment, a DM and a group DM, emoji, unicode
names, and people named in messages.
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
from datetime import UTC, datetime
from pathlib import Path
from xml.sax.saxutils import escape

from curator.ingest.chat_ids import mattermost_id

# Everyone's usernames, e-mails and names: none may be left in a store after import.
PEOPLE = {
    "ingrid.solberg": ("Ingrid", "Solberg"),
    "kwame.mensah": ("Kwame", "Mensah"),
    "zoe.angstrom": ("Zoë", "Ångström"),
    "pieter.dewit": ("Pieter", "de Wit"),
}
DOMAIN = "fjordline.no"
BOT = "tidebot"
T0 = 1_704_103_200_000  # 2024-01-01 10:00 UTC
MINUTE = 60_000
DAY = 86_400_000
START, END = T0 - 60 * MINUTE, T0 + 2 * DAY  # the export window

TEAM = mattermost_id("sample-team", "harbour-ops")
USER_IDS = {name: mattermost_id("sample-user", name) for name in [*PEOPLE, BOT]}
CHANNELS = {
    "berth": (
        mattermost_id("sample-channel", "berth"),
        "berth-bookings",
        "Berth Bookings",
        "public",
    ),
    "dm": (
        mattermost_id("sample-channel", "dm"),
        "__".join(sorted([USER_IDS["ingrid.solberg"], USER_IDS["pieter.dewit"]])),
        "",
        "direct",
    ),
    "group": (mattermost_id("sample-channel", "group"), mattermost_id("gm"), "", "group"),
}
POSTS = {
    key: mattermost_id("sample-post", key)
    for key in ("p1", "copy", "r1", "r2", "r3", "r4", "p2", "d1", "d2", "g1")
}
FILES = {key: mattermost_id("sample-file", key) for key in ("plan", "photo")}
TEXT_FILE = "Berth 4: ferry of Zoë Ångström, contact kwame.mensah@fjordline.no\n"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(64)


def email(username: str) -> str:
    return f"{username}@{DOMAIN}"


def secrets() -> list[str]:
    """What must not survive anonymisation."""
    found = []
    for username, (first, last) in PEOPLE.items():
        found += [username, email(username), f"{first} {last}", first, last]
    return found


# One event per entry, in time order: (kind, channel, user, time, extra members).
def events() -> list[dict]:
    berth, dm, group = "berth", "dm", "group"
    return [
        {"kind": "previously-joined", "channel": berth, "user": "ingrid.solberg", "at": START},
        {"kind": "enter", "channel": berth, "user": "kwame.mensah", "at": T0 - MINUTE},
        {
            "kind": "post",
            "channel": berth,
            "user": "ingrid.solberg",
            "id": "p1",
            "at": T0,
            "updated": T0 + 5 * MINUTE,
            "update_type": "EditedNewMsg",
            "message": "Can @kwame.mensah confirm berth 4 for Zoë Ångström's ferry? 🚢",
            "file": ("plan", "berth-plan.txt"),
        },
        {
            "kind": "post",
            "channel": berth,
            "user": "ingrid.solberg",
            "id": "copy",
            "edited_by": "p1",
            "at": T0,
            "updated": T0 + 5 * MINUTE,
            "update_type": "EditedOriginalMsg",
            "message": "Can @kwame.mensah confirm berth 3 for Zoë Ångström's ferry?",
        },
        {
            "kind": "post",
            "channel": berth,
            "user": "kwame.mensah",
            "id": "r1",
            "root": "p1",
            "at": T0 + 2 * MINUTE,
            "message": "Confirmed, Ingrid. Pieter de Wit has the keys.",
        },
        {
            "kind": "post",
            "channel": berth,
            "user": "zoe.angstrom",
            "id": "r2",
            "root": "p1",
            "at": T0 + 3 * MINUTE,
            "message": "Takk! I will tell Kwame Mensah when we dock. :ship:",
            "file": ("photo", "quay.png"),
        },
        {
            "kind": "post",
            "channel": berth,
            "user": BOT,
            "id": "r3",
            "root": "p1",
            "at": T0 + 4 * MINUTE,
            "message": "+1 for berth 4, high tide at 14:05 🌊",
        },
        {
            "kind": "post",
            "channel": berth,
            "user": "pieter.dewit",
            "id": "r4",
            "root": "p1",
            "at": T0 + 6 * MINUTE,
            "message": "Wrong berth, sorry Ingrid Solberg",
        },
        {
            "kind": "post",
            "channel": berth,
            "user": "pieter.dewit",
            "id": "r4",
            "root": "p1",
            "at": T0 + 6 * MINUTE,
            "updated": T0 + 7 * MINUTE,
            "update_type": "Deleted",
            "message": "delete Wrong berth, sorry Ingrid Solberg",
        },
        {"kind": "leave", "channel": berth, "user": "pieter.dewit", "at": T0 + 8 * MINUTE},
        {
            "kind": "post",
            "channel": dm,
            "user": "pieter.dewit",
            "id": "d1",
            "at": T0 + 20 * MINUTE,
            "message": "Ingrid, your invoice to ingrid.solberg@fjordline.no bounced.",
        },
        {
            "kind": "post",
            "channel": dm,
            "user": "ingrid.solberg",
            "id": "d2",
            "root": "d1",
            "at": T0 + 21 * MINUTE,
            "message": "Odd, resend it please.",
        },
        {
            "kind": "post",
            "channel": group,
            "user": "zoe.angstrom",
            "id": "g1",
            "at": T0 + 30 * MINUTE,
            "message": "Group lunch Friday? Kwame picks the place.",
        },
        {
            "kind": "post",
            "channel": berth,
            "user": "pieter.dewit",
            "id": "p2",
            "at": T0 + DAY,
            "message": "Tug schedule for next week is posted, see the booking above.",
            "previews": "p1",
        },
    ]


# ---------------------------------------------------------------- CSV

HEADER = [
    "Post Creation Time",
    "Post Update Time",
    "Post Update Type",
    "Team Id",
    "Team Name",
    "Team Display Name",
    "Channel Id",
    "Channel Name",
    "Channel Display Name",
    "Channel Type",
    "User Id",
    "User Email",
    "Username",
    "Post Id",
    "Edited By Post Id",
    "Replied to Post Id",
    "Post Message",
    "Post Type",
    "User Type",
    "Previews Post Id",
]
JOINED = {
    "enter": "User {u} ({e}) joined the channel",
    "leave": "User {u} ({e}) left the channel",
    "previously-joined": "User {u} ({e}) was already in the channel",
}


def _csv_rows() -> list[list[str]]:
    rows = []
    for event in events():
        channel_id, name, display, kind = CHANNELS[event["channel"]]
        team = (
            (TEAM, "harbour-ops", "Harbour Ops") if kind in ("public", "private") else ("", "", "")
        )
        user = event["user"]
        base = [str(event["at"]), "", "", *team, channel_id, name, display, kind]
        base += [USER_IDS[user], email(user), user]
        user_type = "bot" if user == BOT else "user"
        if event["kind"] in JOINED:
            base[1] = "0"
            message = JOINED[event["kind"]].format(u=user, e=email(user))
            rows.append([*base, "", "", "", message, event["kind"], user_type, ""])
            continue
        base[1] = str(event.get("updated", event["at"]))
        base[2] = event.get("update_type", "")
        post_id = POSTS[event["id"]]
        edited_by = POSTS[event["edited_by"]] if "edited_by" in event else ""
        root = POSTS[event["root"]] if "root" in event else ""
        previews = POSTS[event["previews"]] if "previews" in event else ""
        rows.append(
            [*base, post_id, edited_by, root, event["message"], "message", user_type, previews]
        )
        if "file" in event:
            key, file_name = event["file"]
            entry = f"{file_name} (files/{post_id}/{FILES[key]}-{file_name})"
            rows.append([*base, post_id, edited_by, root, entry, "attachment", user_type, previews])
    return rows


def csv_bytes(rows: list[list[str]] | None = None, header: list[str] = HEADER) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")  # Go's encoding/csv: \n, quotes as needed
    writer.writerow(header)
    writer.writerows(_csv_rows() if rows is None else rows)
    return out.getvalue().encode("utf-8")


def _attachments(path_of) -> dict[str, bytes]:
    plan, photo = POSTS["p1"], POSTS["r2"]
    return {
        path_of(plan, "plan", "berth-plan.txt"): TEXT_FILE.encode("utf-8"),
        path_of(photo, "photo", "quay.png"): PNG,
    }


def csv_members() -> dict[str, bytes]:
    members = {"posts.csv": csv_bytes()}
    members |= _attachments(lambda post, key, name: f"files/{post}/{FILES[key]}-{name}")
    members["metadata.json"] = b'{"Channels": {}, "MessagesCount": 11, "AttachmentsCount": 2}'
    return members


def write_zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def csv_zip(folder: Path, name: str = "batch001-1704099600000-1704276000000.zip") -> Path:
    return write_zip(folder / name, csv_members())


def posts_csv(folder: Path) -> Path:
    path = folder / "posts.csv"
    path.write_bytes(csv_bytes())
    return path


def old_csv(folder: Path) -> Path:
    """As older servers wrote it: no update columns, a deletion as a second row of the post
    at its deletion time, its message "delete " and the text."""
    header = [h for h in HEADER if h not in ("Post Update Time", "Post Update Type")]
    rows = []
    for row in _csv_rows():
        if row[2] == "Deleted":
            row[0] = row[1]
        rows.append([row[0], *row[3:]])
    path = folder / "old-posts.csv"
    path.write_bytes(csv_bytes(rows, header))
    return path


def batches_zip(folder: Path) -> Path:
    """The System Console's download: one zip holding the batch zips, split mid-thread."""
    text = csv_bytes().decode("utf-8").splitlines(keepends=True)
    header, rows = text[0], text[1:]
    first, second = header + "".join(rows[:6]), header + "".join(rows[6:])
    inner = []
    for number, part in enumerate((first, second), start=1):
        members = csv_members() | {"posts.csv": part.encode("utf-8")}
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for name, data in members.items():
                archive.writestr(name, data)
        inner.append(
            (f"compliance-export-2024-01-03-10h00m/batch00{number}-0-1.zip", buffer.getvalue())
        )
    return write_zip(folder / "compliance-export.zip", dict(inner))


# ---------------------------------------------------------------- Compliance Monitoring report

REPORT_HEADER = [
    "TeamName",
    "TeamDisplayName",
    "ChannelName",
    "ChannelDisplayName",
    "ChannelType",
    "UserUsername",
    "UserEmail",
    "UserNickname",
    "UserType",
    "PostId",
    "PostCreateAt",
    "PostUpdateAt",
    "PostDeleteAt",
    "PostRootId",
    "PostOriginalId",
    "PostMessage",
    "PostType",
    "PostProps",
    "PostHashtags",
    "PostFileIds",
]
SYSTEM = {"enter": ("system_join_channel", "joined"), "leave": ("system_leave_channel", "left")}


def _rfc3339(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _report_rows() -> list[list[str]]:
    """One row per post as the database holds it: the edit's copy as a post of its own,
    deleted at the edit; a deleted post with its delete time and text."""
    latest: dict[str, dict] = {}
    for event in events():
        if event["kind"] == "post":
            latest[event["id"]] = {**latest.get(event["id"], {}), **event}
        elif event["kind"] in SYSTEM:
            post_type, verb = SYSTEM[event["kind"]]
            key = f"{event['kind']}-{event['user']}"
            latest[key] = {**event, "id": key, "post_type": post_type}
            latest[key]["message"] = f"{event['user']} {verb} the channel."
    rows = []
    for key, post in latest.items():
        _, name, display, kind = CHANNELS[post["channel"]]
        team = ("harbour-ops", "Harbour Ops") if kind in ("public", "private") else ("", "")
        user = post["user"]
        nickname = PEOPLE.get(user, ("Tide",))[0]
        deleted = (
            post.get("updated", 0)
            if post.get("update_type") in ("Deleted", "EditedOriginalMsg")
            else 0
        )
        updated = post.get("updated", post["at"])
        message = post["message"].removeprefix("delete ")
        if message[:1] in "=+-":
            message = "'" + message  # as Mattermost guards it from spreadsheets
        files = [FILES[post["file"][0]]] if "file" in post else []
        rows.append(
            [
                *team,
                name,
                display,
                {"public": "O", "private": "P", "direct": "D", "group": "G"}[kind],
                user,
                email(user),
                nickname,
                "bot" if user == BOT else "user",
                POSTS.get(key, mattermost_id("sample-post", key)),
                _rfc3339(post["at"]),
                _rfc3339(updated) if updated != post["at"] else "",
                _rfc3339(deleted) if deleted else "",
                POSTS[post["root"]] if "root" in post else "",
                POSTS[post["edited_by"]] if "edited_by" in post else "",
                message,
                post.get("post_type", ""),
                json.dumps({"deleteBy": USER_IDS[user]})
                if post.get("update_type") == "Deleted"
                else "{}",
                "#berth4" if key == "p1" else "",
                json.dumps(files),
            ]
        )
    return rows


def report_zip(folder: Path) -> Path:
    members = {
        "posts.csv": csv_bytes(_report_rows(), REPORT_HEADER),
        "metadata.json": b'{"id": "x", "type": "adhoc", "count": 12}',
    }
    return write_zip(folder / "adhoc-compliance-report.zip", members)


# ---------------------------------------------------------------- Actiance XML


def _file_path(post: str, key: str, name: str) -> str:
    return f"20240101/teams/{TEAM}/channels/{CHANNELS['berth'][0]}/users/x/{FILES[key]}/{name}"


def _tag(name: str, value: object) -> str:
    return f"<{name}>{escape(str(value))}</{name}>"


def _person(element: str, user: str, at: int) -> str:
    kind = "bot" if user == BOT else "user"
    inner = _tag("LoginName", email(user)) + _tag("UserType", kind) + _tag("DateTimeUTC", at)
    return f"<{element}>{inner}{_tag('CorporateEmailID', email(user))}</{element}>"


def _message(event: dict) -> str:
    user = event["user"]
    parts = [
        _tag("MessageId", POSTS[event["id"]]),
        _tag("LoginName", email(user)),
        _tag("UserType", "bot" if user == BOT else "user"),
        _tag("DateTimeUTC", event["at"]),
    ]
    if event.get("update_type"):
        parts += [
            _tag("UpdatedType", event["update_type"]),
            _tag("UpdatedDateTimeUTC", event["updated"]),
        ]
    if "edited_by" in event:
        parts.append(_tag("EditedNewMsgId", POSTS[event["edited_by"]]))
    parts.append(_tag("Content", event["message"]))
    if "previews" in event:
        parts.append(_tag("PreviewsPost", POSTS[event["previews"]]))
    xml = f"<Message>{''.join(parts)}</Message>"
    if "file" in event:
        key, name = event["file"]
        path = _file_path(POSTS[event["id"]], key, name)
        who = _tag("LoginName", email(user)) + _tag("DateTimeUTC", event["at"])
        files = _tag("UserFileName", name) + _tag("FileName", path)
        xml += f"<FileTransferStarted>{who}{files}</FileTransferStarted>"
        xml += f"<FileTransferEnded>{who}{files}{_tag('Status', 'Completed')}</FileTransferEnded>"
    return xml


def actiance_bytes() -> bytes:
    conversations = []
    for key, (channel_id, name, display, kind) in CHANNELS.items():
        mine = [e for e in events() if e["channel"] == key]
        people = sorted({e["user"] for e in mine})
        body = [f'<Conversation Perspective="{escape(display)}">']
        body.append(_tag("RoomID", f"{kind} - {name} - {channel_id}"))
        body.append(_tag("StartTimeUTC", START))
        for event in mine:
            if event["kind"] in ("previously-joined", "enter"):
                body.append(_person("ParticipantEntered", event["user"], event["at"]))
        joined = {e["user"] for e in mine if e["kind"] in ("previously-joined", "enter")}
        body += [_person("ParticipantEntered", u, START) for u in people if u not in joined]
        body += [_message(e) for e in mine if e["kind"] == "post"]
        left = {e["user"] for e in mine if e["kind"] == "leave"}
        body += [
            _person("ParticipantLeft", e["user"], e["at"]) for e in mine if e["kind"] == "leave"
        ]
        body += [_person("ParticipantLeft", u, END) for u in people if u not in left]
        body.append(_tag("EndTimeUTC", END))
        body.append("</Conversation>")
        conversations.append("\n    ".join(body))
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<FileDump xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n  '
        + "\n  ".join(conversations)
        + "\n</FileDump>\n"
    ).encode("utf-8")


def actiance_zip(folder: Path) -> Path:
    members = {"actiance_export.xml": actiance_bytes()} | _attachments(_file_path)
    return write_zip(folder / "actiance-batch001.zip", members)


def actiance_xml(folder: Path) -> Path:
    path = folder / "actiance_export.xml"
    path.write_bytes(actiance_bytes())
    return path
