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
"delete " and its text; a file row may lack the last columns.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from curator.errors import CuratorError
from curator.ingest.compliance_rows import DELETED, DELETED_PREFIX, Channel, Gathered, Person, Row

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
FILE_ROWS = {"attachment": False, "deleted attachment": True}


def is_compliance_csv(data: bytes) -> bool:
    """Whether the first line is the compliance export's header (checked, not parsed)."""
    first = data[:4096].lstrip(b"\xef\xbb\xbf").split(b"\n", 1)[0]
    return b"Post Creation Time" in first and b"Post Id" in first


# (zip path, file name, where) -> (size, base64 of a text file or None for metadata only)
Files = Callable[[str, str, str], tuple[int, str | None]]


def no_files(path: str, name: str, where: str) -> tuple[int, str | None]:
    """A posts.csv alone: its files are named, not held."""
    return 0, None


class _Fields:
    """One row's fields by header name; a row may lack the last (optional) ones."""

    def __init__(self, columns: dict[str, int], fields: list[str], where: str) -> None:
        self.columns = columns
        self.fields = fields
        self.where = where

    def get(self, name: str) -> str:
        index = self.columns.get(name)
        return self.fields[index] if index is not None and index < len(self.fields) else ""

    def required(self, name: str) -> str:
        text = self.get(name).strip()
        if not text:
            raise CuratorError(f"{self.where}: '{name}' is empty")
        return text

    def ms(self, name: str, default: str = "") -> int:
        text = self.get(name).strip() or default
        if not text.isdigit():
            raise CuratorError(f"{self.where}: '{name}' must be epoch milliseconds")
        return int(text)


def read_csv(data: bytes, where: str, gathered: Gathered, files: Files = no_files) -> None:
    """Every row of `data` (a posts.csv named `where`) into `gathered`."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CuratorError(f"{where}: not UTF-8 text") from None
    rows = _rows(csv.reader(io.StringIO(text, newline=""), strict=True), where)
    first = next(rows, None)
    if first is None:
        raise CuratorError(f"{where}: empty file")
    header = first[1]
    columns = {name.strip(): index for index, name in enumerate(header)}
    missing = [name for name in REQUIRED if name not in columns]
    if missing:
        raise CuratorError(
            f"{where}: no '{missing[0]}' column: not a Mattermost compliance export's posts.csv"
        )
    need = max(columns[name] for name in REQUIRED) + 1
    old = "Post Update Type" not in columns
    texts: dict[str, str] = {}  # an older export's post id -> its text, to know its deletion
    for number, fields in rows:
        at = f"{where}:{number}"
        if not need <= len(fields) <= len(header):
            raise CuratorError(
                f"{at}: {len(fields)} fields, the header has {len(header)}: a malformed row"
            )
        row_fields = _Fields(columns, fields, at)
        row = _row(row_fields)
        kind = row_fields.get("Post Type")
        if kind == "previously-joined":
            continue  # who was in the channel when the window opened: no event
        if kind in EVENTS:
            gathered.event(
                row.channel, row.person, row.created, joined=EVENTS[kind], message=row.message
            )
        elif kind in FILE_ROWS:
            _file(gathered, row, FILE_ROWS[kind], files, at)
        else:
            if old and row.post_id in texts and row.message == DELETED_PREFIX + texts[row.post_id]:
                row = replace(row, update_type=DELETED, updated=row.created)
            texts.setdefault(row.post_id, row.message)
            gathered.post(replace(row, post_type="" if kind == "message" else kind))


def _rows(reader: Any, where: str) -> Iterator[tuple[int, list[str]]]:
    """(line the row starts on, its fields) of every non-blank row."""
    while True:
        start = reader.line_num + 1
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise CuratorError(f"{where}:{start}: not a well-formed CSV row ({error})") from None
        if fields:
            yield start, fields


def _row(fields: _Fields) -> Row:
    where = fields.where
    kind = fields.get("Channel Type").strip().lower()
    if kind and kind not in CHANNEL_TYPES and kind.upper() not in CHANNEL_TYPES.values():
        raise CuratorError(f"{where}: 'Channel Type' must be public, private, direct or group")
    created = fields.ms("Post Creation Time")
    post_id = fields.get("Post Id").strip()
    kind_of_row = fields.get("Post Type")
    if not post_id and kind_of_row not in EVENTS and kind_of_row != "previously-joined":
        raise CuratorError(f"{where}: 'Post Id' is empty")
    return Row(
        channel=Channel(
            id=fields.required("Channel Id"),
            name=fields.get("Channel Name"),
            display_name=fields.get("Channel Display Name"),
            type=CHANNEL_TYPES.get(kind, kind.upper() or "O"),
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
        updated=fields.ms("Post Update Time", "0") or created,
        update_type=fields.get("Post Update Type"),
        edited_by=fields.get("Edited By Post Id").strip(),
        root_id=fields.get("Replied to Post Id").strip(),
        message=fields.get("Post Message"),
        previews=fields.get("Previews Post Id").strip(),
    )


def _file(gathered: Gathered, row: Row, deleted: bool, files: Files, where: str) -> None:
    entry = FILE_ENTRY.match(row.message.strip())
    if entry is None or not row.post_id:
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
