"""The CSV compliance export: `posts.csv`, one row per post change, join, leave or file.

Columns by header name (server/enterprise/message_export/csv_export/csv_export.go): "Post
Creation Time" (epoch ms), "Post Update Time" and "Post Update Type" (newer servers),
"Team Id/Name/Display Name", "Channel Id/Name/Display Name/Type" (public, private, direct,
group), "User Id", "User Email", "Username", "Post Id", "Edited By Post Id", "Replied to
Post Id" (the thread's root: threads are rebuilt from it), "Post Message", "Post Type"
(message, attachment, deleted attachment, enter, leave, previously-joined, or on older
servers the post's own type), "User Type" (user, bot), "Previews Post Id". A file row's
message is "NAME (files/POST/FILE-BASE)", the file's path in the zip. Older servers wrote
no update columns and recorded a deletion as a second row of the post whose message is
"delete " and its text; a file row may lack the last columns. A posts.csv of the other
kind, Compliance Monitoring's report (`PostRootId`), is compliance_report's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from curator.errors import CuratorError
from curator.ingest.compliance_report import is_report, read_report
from curator.ingest.compliance_rows import DELETED, DELETED_PREFIX, Channel, Gathered, Person, Row
from curator.ingest.csv_table import Fields, header_of, read_table

MEMBER = "posts.csv"
REQUIRED = (
    "Post Creation Time",
    "Channel Id",
    "Channel Name",
    "User Id",
    "User Email",
    "Username",
    "Post Id",
    "Replied to Post Id",
    "Post Message",
    "Post Type",
)
CHANNEL_TYPES = {"public": "O", "private": "P", "direct": "D", "group": "G"}
FILE_ENTRY = re.compile(
    r"^(?P<name>.*?) ?\((?P<path>files/(?P<post>[^/()]+)/(?P<file>[^-/()]+)-[^/()]+)\)$"
)
EVENTS = {"enter": True, "leave": False}
PRESENT = "previously-joined"  # who was in the channel when the window opened: no event
FILE_ROWS = {"attachment": False, "deleted attachment": True}
# (zip path, file name, where) -> (size, base64 of a text file or None for metadata only)
Files = Callable[[str, str, str], tuple[int, str | None]]


def is_compliance_csv(data: bytes) -> bool:
    """Whether the first line is a compliance export's or report's header."""
    header = header_of(data)
    return ("Post Creation Time" in header and "Post Id" in header) or is_report(header)


def no_files(path: str, name: str, where: str) -> tuple[int, str | None]:
    """A posts.csv alone: its files are named, not held."""
    return 0, None


def read_csv(data: bytes, where: str, gathered: Gathered, files: Files = no_files) -> None:
    """Every row of `data` (a posts.csv named `where`) into `gathered`."""
    if is_report(header_of(data)):
        read_report(data, where, gathered)
        return
    columns, rows = read_table(data, where, REQUIRED, "a Mattermost compliance export's posts.csv")
    old = "Post Update Type" not in columns
    texts: dict[str, str] = {}  # an older export's post id -> its text, to know its deletion
    for fields in rows:
        kind = fields.get("Post Type")
        if kind == PRESENT:
            continue
        row = _row(fields, kind)
        if kind in EVENTS:
            gathered.event(
                row.channel, row.person, row.created, joined=EVENTS[kind], message=row.message
            )
        elif kind in FILE_ROWS:
            _file(gathered, row, FILE_ROWS[kind], files, fields.where)
        else:
            if old and row.post_id in texts and row.message == DELETED_PREFIX + texts[row.post_id]:
                row = replace(row, update_type=DELETED, updated=row.created)
            if row.update_type == DELETED:
                row = replace(row, message=row.message.removeprefix(DELETED_PREFIX))
            texts.setdefault(row.post_id, row.message)
            gathered.post(replace(row, post_type="" if kind == "message" else kind))


def _ms(fields: Fields, name: str, default: str = "") -> int:
    text = fields.get(name).strip() or default
    if not text.isdigit():
        raise CuratorError(f"{fields.where}: '{name}' must be epoch milliseconds")
    return int(text)


def _row(fields: Fields, kind: str) -> Row:
    where = fields.where
    channel_type = fields.get("Channel Type").strip().lower()
    if channel_type and channel_type not in CHANNEL_TYPES:
        if channel_type.upper() not in CHANNEL_TYPES.values():
            raise CuratorError(f"{where}: 'Channel Type' must be public, private, direct or group")
    post_id = fields.get("Post Id").strip()
    if not post_id and kind not in EVENTS:
        raise CuratorError(f"{where}: 'Post Id' is empty")
    created = _ms(fields, "Post Creation Time")
    return Row(
        channel=Channel(
            id=fields.required("Channel Id"),
            name=fields.get("Channel Name"),
            display_name=fields.get("Channel Display Name"),
            type=CHANNEL_TYPES.get(channel_type, channel_type.upper() or "O"),
            team_id=fields.get("Team Id"),
            team_name=fields.get("Team Name"),
            team_display_name=fields.get("Team Display Name"),
        ),
        person=Person(
            id=fields.required("User Id"),
            username=fields.get("Username"),
            email=fields.get("User Email"),
            is_bot=fields.get("User Type").strip().lower() == "bot",
        ),
        post_id=post_id,
        created=created,
        updated=_ms(fields, "Post Update Time", "0") or created,
        update_type=fields.get("Post Update Type"),
        edited_by=fields.get("Edited By Post Id").strip(),
        root_id=fields.get("Replied to Post Id").strip(),
        message=fields.get("Post Message"),
        previews=fields.get("Previews Post Id").strip(),
    )


def _file(gathered: Gathered, row: Row, deleted: bool, files: Files, where: str) -> None:
    entry = FILE_ENTRY.match(row.message.strip())
    if entry is None:
        raise CuratorError(f"{where}: a file row's message is not 'NAME (files/POST/FILE-NAME)'")
    name = entry["name"] or entry["path"].rsplit("/", 1)[1].split("-", 1)[1]
    size, data = files(entry["path"], name, where)
    gathered.attach(
        replace(row, update_type="", message=""),
        entry["file"],
        name,
        size=size,
        data=data,
        deleted_at=(row.updated or row.created) if deleted else 0,
    )
