"""Synthetic workspace exports, shaped as the real tools write them (no real people).

Mattermost's bulk export as `mmctl export create` writes it: a zip of `import.jsonl` (one
record a line, a `version` line first; records as in server/channels/app/imports/
import_types.go: LineImportData, TeamImportData, ChannelImportData, UserImportData,
PostImportData with nested ReplyImportData and ReactionImportData, AttachmentImportData by
path, DirectChannelImportData, DirectPostImportData; docs.mattermost.com "Bulk export tool")
and the attachments under `data/`.

Slack's workspace export (slack.com/help/articles/220556107 "How to read Slack data
exports"; message fields from api.slack.com/events/message): users.json, channels.json,
groups.json, dms.json, mpims.json and a folder of YYYY-MM-DD.json per conversation.

Both hold the messy parts real exports have: unicode names and emoji, edited and deleted
messages, system messages (joins, header or topic changes), bots, reactions, files, link
previews, direct and group messages, an empty channel, and people named in the messages.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

# Everyone's names, usernames and e-mails: none may be left in a store after import.
PEOPLE = [
    ("ingrid.solberg", "Ingrid", "Solberg", "ingrid.solberg@fjordline.no"),
    ("kwame.mensah", "Kwame", "Mensah", "kwame.mensah@fjordline.no"),
    ("zoe.angstrom", "Zoë", "Ångström", "zoe.angstrom@fjordline.no"),
    ("pieter.dewit", "Pieter", "de Wit", "pieter.dewit@fjordline.no"),
]
T0 = 1_704_103_200_000  # 2024-01-01 10:00 UTC
MINUTE = 60_000


def secrets() -> list[str]:
    """What must not survive anonymisation."""
    found = []
    for username, first, last, email in PEOPLE:
        found += [username, email, f"{first} {last}", first, last]
    return found


def _lines(records: list[dict]) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode("utf-8")


def bulk_lines() -> list[dict]:
    users = [
        {
            "type": "user",
            "user": {
                "username": u,
                "email": e,
                "first_name": f,
                "last_name": last,
                "nickname": f,
                "position": "Dispatcher",
                "roles": "system_user",
                "locale": "en",
                "teams": [{"name": "harbour-ops", "roles": "team_user", "channels": []}],
            },
        }
        for u, f, last, e in PEOPLE
    ]
    return [
        {"type": "version", "version": 1, "info": {"generator": "mattermost-server"}},
        {
            "type": "team",
            "team": {"name": "harbour-ops", "display_name": "Harbour Ops", "type": "O"},
        },
        {
            "type": "channel",
            "channel": {
                "team": "harbour-ops",
                "name": "berth-bookings",
                "display_name": "Berth Bookings",
                "type": "O",
                "header": "Bookings for the north quay",
                "purpose": "",
            },
        },
        {
            "type": "channel",
            "channel": {
                "team": "harbour-ops",
                "name": "empty-room",
                "display_name": "Empty Room",
                "type": "P",
            },
        },
        *users,
        {
            "type": "post",
            "post": {
                "team": "harbour-ops",
                "channel": "berth-bookings",
                "user": "kwame.mensah",
                "type": "system_join_channel",
                "message": "@kwame.mensah joined the channel.",
                "create_at": T0 - MINUTE,
                "props": {"username": "kwame.mensah"},
            },
        },
        {
            "type": "post",
            "post": {
                "team": "harbour-ops",
                "channel": "berth-bookings",
                "user": "ingrid.solberg",
                "message": "Can @kwame.mensah confirm berth 4 for Zoë Ångström's ferry? 🚢",
                "create_at": T0,
                "edit_at": T0 + 5 * MINUTE,
                "is_pinned": True,
                "reactions": [
                    {"user": "pieter.dewit", "emoji_name": "+1", "create_at": T0 + MINUTE}
                ],
                "attachments": [{"path": "data/20240101/notes/berth-plan.txt"}],
                "replies": [
                    {
                        "user": "kwame.mensah",
                        "message": "Confirmed, Ingrid. Pieter de Wit has the keys.",
                        "create_at": T0 + 2 * MINUTE,
                    },
                    {
                        "user": "zoe.angstrom",
                        "message": "Takk! I will tell Kwame Mensah when we dock.",
                        "create_at": T0 + 3 * MINUTE,
                        "edit_at": T0 + 4 * MINUTE,
                        "attachments": [{"path": "data/20240101/photos/quay.png"}],
                    },
                ],
            },
        },
        {
            "type": "post",
            "post": {
                "team": "harbour-ops",
                "channel": "berth-bookings",
                "user": "pieter.dewit",
                "type": "system_header_change",
                "message": "@pieter.dewit updated the channel header",
                "create_at": T0 + 10 * MINUTE,
                "props": {"old_header": "", "new_header": "Bookings for the north quay"},
            },
        },
        {
            "type": "post",
            "post": {
                "team": "harbour-ops",
                "channel": "berth-bookings",
                "user": "pieter.dewit",
                "message": "Tug schedule for next week is posted.",
                "create_at": T0 + 86_400_000,
            },
        },
        {
            "type": "direct_channel",
            "direct_channel": {"members": ["ingrid.solberg", "pieter.dewit"], "header": ""},
        },
        {
            "type": "direct_post",
            "direct_post": {
                "channel_members": ["ingrid.solberg", "pieter.dewit"],
                "user": "pieter.dewit",
                "message": "Ingrid, your invoice to ingrid.solberg@fjordline.no bounced.",
                "create_at": T0 + 20 * MINUTE,
                "replies": [
                    {
                        "user": "ingrid.solberg",
                        "message": "Odd, resend it please.",
                        "create_at": T0 + 21 * MINUTE,
                    },
                ],
            },
        },
        {
            "type": "direct_post",
            "direct_post": {
                "channel_members": ["ingrid.solberg", "kwame.mensah", "zoe.angstrom"],
                "user": "zoe.angstrom",
                "message": "Group lunch Friday? Kwame picks the place.",
                "create_at": T0 + 30 * MINUTE,
            },
        },
    ]


def bulk_zip(folder: Path) -> Path:
    path = folder / "harbour-export.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("import.jsonl", _lines(bulk_lines()))
        archive.writestr(
            "data/20240101/notes/berth-plan.txt",
            "Berth 4: ferry of Zoë Ångström, contact kwame.mensah@fjordline.no\n",
        )
        archive.writestr("data/20240101/photos/quay.png", b"\x89PNG\r\n\x1a\n" + bytes(64))
    return path


def bulk_jsonl(folder: Path) -> Path:
    """The import.jsonl alone, without the attachments' files (its posts have none)."""
    lines = [dict(line) for line in bulk_lines()]
    for line in lines:
        if line["type"] == "post":
            line["post"] = {k: v for k, v in line["post"].items() if k != "attachments"}
            line["post"]["replies"] = [
                {k: v for k, v in r.items() if k != "attachments"}
                for r in line["post"].get("replies", [])
            ]
    path = folder / "import.jsonl"
    path.write_bytes(_lines(lines))
    return path


# ---------------------------------------------------------------- Slack

SLACK_IDS = {
    "ingrid.solberg": "U01AB2CD3EF",
    "kwame.mensah": "U02GH4IJ5KL",
    "zoe.angstrom": "U03MN6OP7QR",
    "pieter.dewit": "U04ST8UV9WX",
}
TS0 = 1_704_103_200


def _ts(seconds: int, micro: int = 0) -> str:
    return f"{TS0 + seconds}.{micro:06d}"


def slack_files() -> dict[str, object]:
    """Relative path -> JSON value, as the export zip holds them."""
    users = [
        {
            "id": SLACK_IDS[u],
            "team_id": "T0HARBOUR1",
            "name": u,
            "deleted": False,
            "real_name": f"{f} {last}",
            "tz": "Europe/Oslo",
            "profile": {
                "title": "Dispatcher",
                "real_name": f"{f} {last}",
                "display_name": f,
                "email": e,
                "first_name": f,
                "last_name": last,
            },
            "is_bot": False,
        }
        for u, f, last, e in PEOPLE
    ]
    users.append(
        {
            "id": "U09BOT0001",
            "team_id": "T0HARBOUR1",
            "name": "tidebot",
            "deleted": False,
            "is_bot": True,
            "profile": {"real_name": "Tide Bot", "bot_id": "B0TIDE01"},
        }
    )
    i, k, z, p = (SLACK_IDS[u] for u, *_ in PEOPLE)
    root = _ts(0, 100)
    general = [
        {
            "type": "message",
            "subtype": "channel_join",
            "user": k,
            "ts": _ts(-60),
            "text": f"<@{k}> has joined the channel",
        },
        {
            "type": "message",
            "user": i,
            "ts": root,
            "client_msg_id": "6a1f3c2e",
            "text": f"Can <@{k}> confirm berth 4 for Zoë Ångström? See <#C0GENERAL1|general> "
            "and <https://harbour.example.org/plan|the plan> &amp; rates",
            "thread_ts": root,
            "reply_count": 2,
            "reply_users": [k, z],
            "replies": [{"user": k, "ts": _ts(120)}, {"user": z, "ts": _ts(180)}],
            "edited": {"user": i, "ts": _ts(300)},
            "reactions": [{"name": "ship", "users": [p, k], "count": 2}],
            "files": [
                {
                    "id": "F0PLAN0001",
                    "name": "berth-plan.pdf",
                    "title": "Berth plan",
                    "mimetype": "application/pdf",
                    "filetype": "pdf",
                    "size": 48213,
                    "url_private": "https://files.slack.com/files-pri/T0-F0/berth-plan.pdf",
                },
                {"id": "F0GONE0001", "mode": "tombstone"},
            ],
        },
        {
            "type": "message",
            "user": k,
            "ts": _ts(120),
            "thread_ts": root,
            "parent_user_id": i,
            "text": "Confirmed, Ingrid. Pieter de Wit has the keys :key:",
        },
        {
            "type": "message",
            "user": z,
            "ts": _ts(180),
            "thread_ts": root,
            "parent_user_id": i,
            "text": "Takk! I'll tell Kwame Mensah.",
            "attachments": [
                {
                    "fallback": "Harbour plan",
                    "title": "Harbour plan",
                    "title_link": "https://harbour.example.org/plan",
                    "text": "North quay berths",
                    "service_name": "harbour.example.org",
                    "image_url": "https://harbour.example.org/plan.png",
                }
            ],
        },
        {
            "type": "message",
            "subtype": "channel_topic",
            "user": p,
            "ts": _ts(600),
            "text": f"<@{p}> set the channel topic: North quay",
            "topic": "North quay",
        },
        {
            "type": "message",
            "subtype": "bot_message",
            "bot_id": "B0TIDE01",
            "username": "tidebot",
            "ts": _ts(900),
            "text": "High tide at 14:05 :ocean:",
            "bot_profile": {"id": "B0TIDE01", "name": "tidebot", "app_id": "A0TIDE01"},
        },
    ]
    day2 = [
        {
            "type": "message",
            "subtype": "tombstone",
            "hidden": True,
            "user": "USLACKBOT",
            "ts": _ts(86_400),
            "thread_ts": _ts(86_400),
            "reply_count": 1,
            "text": "This message was deleted.",
        },
        {
            "type": "message",
            "user": p,
            "ts": _ts(86_460),
            "thread_ts": _ts(86_400),
            "text": "Answering the deleted question: yes, <!here> berth 2 is free.",
        },
    ]
    return {
        "users.json": users,
        "channels.json": [
            {
                "id": "C0GENERAL1",
                "name": "general",
                "created": TS0 - 86_400,
                "creator": i,
                "is_archived": False,
                "is_general": True,
                "members": [i, k, z, p],
                "topic": {"value": "North quay", "creator": p, "last_set": TS0 + 600},
                "purpose": {"value": "Harbour talk", "creator": i, "last_set": TS0 - 86_400},
            },
            {
                "id": "C0QUIET001",
                "name": "quiet",
                "created": TS0,
                "creator": p,
                "is_archived": True,
                "members": [p],
                "topic": {"value": "", "creator": "", "last_set": 0},
                "purpose": {"value": "", "creator": "", "last_set": 0},
            },
        ],
        "groups.json": [
            {
                "id": "G0PRIVATE1",
                "name": "payroll",
                "created": TS0,
                "creator": i,
                "is_archived": False,
                "members": [i, p],
                "topic": {"value": "", "creator": "", "last_set": 0},
                "purpose": {"value": "Salaries", "creator": i, "last_set": TS0},
            },
        ],
        "dms.json": [{"id": "D0DIRECT01", "created": TS0, "members": [i, p]}],
        "mpims.json": [
            {
                "id": "G0GROUPDM1",
                "name": "mpdm-ingrid.solberg--kwame.mensah--zoe.angstrom-1",
                "created": TS0,
                "creator": z,
                "is_archived": False,
                "members": [i, k, z],
                "topic": {"value": "", "creator": "", "last_set": 0},
                "purpose": {"value": "Group messaging", "creator": z, "last_set": TS0},
            },
        ],
        "general/2024-01-01.json": general,
        "general/2024-01-02.json": day2,
        "payroll/2024-01-01.json": [
            {
                "type": "message",
                "user": i,
                "ts": _ts(50),
                "text": "Pieter, Kwame's overtime goes in January.",
            },
        ],
        "D0DIRECT01/2024-01-01.json": [
            {
                "type": "message",
                "user": p,
                "ts": _ts(1200),
                "text": "Ingrid, mail me at <mailto:pieter.dewit@fjordline.no|"
                "pieter.dewit@fjordline.no>",
            },
        ],
        "mpdm-ingrid.solberg--kwame.mensah--zoe.angstrom-1/2024-01-01.json": [
            {
                "type": "message",
                "user": z,
                "ts": _ts(1800),
                "text": f"Lunch Friday? <@{k}> picks 🍜",
            },
        ],
        "integration_logs.json": [],
    }


def slack_folder(folder: Path) -> Path:
    root = folder / "harbour-slack-export"
    for name, value in slack_files().items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value, ensure_ascii=False, indent=1), encoding="utf-8")
    return root


def slack_zip(folder: Path, *, leave_out: str | None = None) -> Path:
    path = folder / "harbour-slack.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, value in slack_files().items():
            if name != leave_out:
                archive.writestr(name, json.dumps(value, ensure_ascii=False))
    return path
