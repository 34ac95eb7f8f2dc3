"""Mattermost's bulk export: `mmctl export create` (a .zip holding `import.jsonl` and the
attachments under `data/`), or its `import.jsonl` alone.

Each line is one record, `{"type": T, T: {...}}`, the first a `version` line: `team`,
`channel`, `user`, `post` (its `replies` and `reactions` nested, `attachments` by path),
`direct_channel` and `direct_post` (members by username); other types (scheme, role,
emoji, bot) describe the server, not conversations, and are passed over. The records name
everything by name, nothing by id, so each team, channel, user and post gets a
Mattermost-shaped id made from its names (chat_ids), and every channel becomes a thread
export as Mattermost's API writes it (posts by id, replies pointing at their root, users,
channel, team, file infos, text attachments as base64), cut into fixtures by selection.
System posts (joins, header changes) keep their `type`: they are structure, not people's
messages. Formats: server/channels/app/imports/import_types.go (LineImportData,
PostImportData, ReplyImportData, DirectChannelImportData, DirectPostImportData).

A post line carries its replies, so each post line is one thread: `BulkExport` reads an
export of any size in two passes over its lines, holding one thread at a time. The first
reads the teams, channels and users and checks every line (a bad line anywhere is found
before anything is anonymised); the second hands over one thread at a time, cut as the
whole channel's export would be. One fixture per channel needs the channel whole:
`parse_bulk_export` reads the export into memory, within [limits].
"""

from __future__ import annotations

import base64
import hashlib
import mimetypes
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from curator.errors import CuratorError
from curator.ingest.archive import Archive
from curator.ingest.chat_ids import mattermost_id
from curator.ingest.selection import Selection, channel_fixtures
from curator.ingest.source import Parsed, RawSource, StreamedSource
from curator.json_input import parse_each, parse_lines, read_lines
from curator.limits import DEFAULT
from curator.model import LimitSettings, ThreadContent

IMPORTER = "mattermost-bulk"
LINES = "import.jsonl"
# Attachments whose text the anonymiser can rewrite; any other file keeps its metadata only.
TEXT_EXTENSIONS = frozenset({"txt", "md", "csv", "json", "log", "xml", "yaml", "yml", "html"})
USER_MEMBERS = ("email", "nickname", "first_name", "last_name", "position", "roles", "locale")


def is_bulk_lines(data: bytes) -> bool:
    """Whether JSONL starts as a bulk export does: a `version` line (checked, not parsed whole)."""
    first = next((line for line in data[:4096].splitlines() if line.strip()), b"")
    return b'"type"' in first and b'"version"' in first


def parse_bulk_export(
    source: RawSource | StreamedSource,
    *,
    selection: Selection,
    limits: LimitSettings = DEFAULT,
    archive: Archive | None = None,
) -> list[Parsed]:
    """The fixtures-to-be of a bulk export read whole (a .zip or a folder when `archive` is
    given, else .jsonl), every channel gathered first: what one fixture per channel needs."""
    member, where, root = _member(source, archive)
    if archive is not None:
        data = archive.read(member)
    else:
        assert isinstance(source, RawSource)  # the .jsonl alone is read whole
        data = source.data
    workspace = _Workspace(where, archive, root)
    for number, kind, record in _checked(parse_lines(data, where, limits), where):
        workspace.add(number, kind, record)
    if not workspace.posts_seen:
        raise CuratorError(f"{where}: the export has no posts")
    return channel_fixtures(workspace.exports(), IMPORTER, source.name, selection)


class BulkExport:
    """A bulk export read from its file a line at a time: `survey` first, then `threads`.

    Each line is held to [limits] on its own; the export as a whole may be any size."""

    def __init__(
        self,
        source: StreamedSource,
        *,
        selection: Selection,
        limits: LimitSettings = DEFAULT,
        archive: Archive | None = None,
    ) -> None:
        self.source = source
        self.selection = selection
        self.limits = limits
        self.archive = archive
        self.member, self.where, root = _member(source, archive)
        self._workspace = _Workspace(self.where, archive, root)
        self._people: dict[str, dict[str, Any]] = {}
        self._surveyed = False

    def survey(self) -> None:
        """The first pass: every line read and checked, the teams, channels and users kept,
        and for each channel whether its threads carry files."""
        workspace = self._workspace
        for number, kind, record in self._records():
            channel = workspace.add_record(number, kind, record)
            if channel is None:
                continue
            thread = workspace.thread(channel, record, number)
            channel.has_file_infos |= bool(thread.file_infos)
            channel.has_files |= bool(thread.files)
            for item in self._fixtures(channel, thread):
                assert isinstance(item.content, ThreadContent)
                for user_id, user in item.content.export.users.items():
                    self._people.setdefault(user_id, user.model_dump(mode="json"))
        if not workspace.posts_seen:
            raise CuratorError(f"{self.where}: the export has no posts")
        self._surveyed = True

    def people(self) -> list[dict[str, Any]]:
        """The user records of everyone who wrote in a chosen thread, as its fixture holds
        them: their names are reserved before the first pseudonym is drawn."""
        assert self._surveyed, "survey() first"
        return list(self._people.values())

    def threads(self) -> Iterator[Parsed]:
        """The second pass: the chosen threads' fixtures-to-be, a post line at a time, in
        the order of the export."""
        assert self._surveyed, "survey() first"
        workspace = self._workspace
        for number, kind, record in self._records():
            channel = workspace.channel_of(kind, record, f"{self.where}:{number}")
            if channel is not None:
                yield from self._fixtures(channel, workspace.thread(channel, record, number))

    def _fixtures(self, channel: _Channel, thread: _Channel) -> list[Parsed]:
        export = self._workspace.export(channel, thread)
        return channel_fixtures([export], IMPORTER, self.source.name, self.selection)

    def _records(self) -> Iterator[tuple[int, str, dict]]:
        if self.archive is not None:
            numbered = self.archive.member_lines(self.member)
            yield from _checked(parse_each(numbered, self.where, self.limits), self.where)
            return
        with self.source.path.open("rb") as handle:
            numbered = read_lines(handle, self.where, self.limits.json_bytes)
            yield from _checked(parse_each(numbered, self.where, self.limits), self.where)


def _member(source: RawSource | StreamedSource, archive: Archive | None) -> tuple[str, str, str]:
    """The zip member holding the export's lines ("" for a .jsonl: the source itself),
    where they are named in errors, and the folder its attachments' paths start from."""
    if archive is None:
        return "", source.name, "."
    member = archive.find(LINES)
    if member is None:
        raise CuratorError(f"{source.name}: no {LINES} in the archive")
    return member, f"{source.name}: {member}", str(PurePosixPath(member).parent)


def _checked(parsed: Iterator[tuple[int, Any]], where: str) -> Iterator[tuple[int, str, dict]]:
    """(line number, type, record) of every line, each checked to be a bulk export record."""
    first = True
    for number, line in parsed:
        kind = line.get("type") if isinstance(line, dict) else None
        if not isinstance(kind, str):
            raise CuratorError(f"{where}:{number}: not a bulk export line (no 'type')")
        if first and kind != "version":
            raise CuratorError(f"{where}:{number}: a bulk export starts with a 'version' line")
        first = False
        record = line.get(kind)
        if kind != "version" and not isinstance(record, dict):
            raise CuratorError(f"{where}:{number}: a '{kind}' line needs a '{kind}' object")
        yield number, kind, record if isinstance(record, dict) else {}


def _text(record: dict[str, Any], key: str, where: str, *, required: bool = False) -> str:
    value = record.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value):
        raise CuratorError(f"{where}: '{key}' must be a non-empty string")
    return value


def _ms(record: dict[str, Any], key: str, where: str) -> int:
    value = record.get(key) or 0
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise CuratorError(f"{where}: '{key}' must be epoch milliseconds")
    return value


def _list(record: dict[str, Any], key: str, where: str) -> list[Any]:
    value = record.get(key) or []
    if not isinstance(value, list):
        raise CuratorError(f"{where}: '{key}' must be a list")
    return value


@dataclass
class _Channel:
    record: dict[str, Any]
    team: dict[str, Any] | None
    posts: dict[str, dict[str, Any]] = field(default_factory=dict)
    authors: set[str] = field(default_factory=set)
    file_infos: dict[str, dict[str, Any]] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    # Whether any of its threads has files: a streamed thread's export then carries the
    # (maybe empty) maps, as the whole channel's export would.
    has_file_infos: bool = False
    has_files: bool = False


class _Workspace:
    """The export's records, gathered into channels of posts."""

    def __init__(self, where: str, archive: Archive | None, root: str) -> None:
        self.where = where
        self.archive = archive
        self.root = root
        self.teams: dict[str, dict[str, Any]] = {}
        self.users: dict[str, dict[str, Any]] = {}
        self.channels: dict[tuple[str, ...], _Channel] = {}
        self.posts_seen = 0

    def add(self, number: int, kind: str, record: dict[str, Any]) -> None:
        channel = self.add_record(number, kind, record)
        if channel is not None:
            self._post(channel, record, f"{self.where}:{number}", number)

    def add_record(self, number: int, kind: str, record: dict[str, Any]) -> _Channel | None:
        """Take in a line's team, channel, user or direct channel; for a post line, the
        channel its thread belongs to (made when no channel line named it)."""
        where = f"{self.where}:{number}"
        if kind == "team":
            self._team(_text(record, "name", where, required=True), record, where)
        elif kind == "channel":
            self._channel(record, where)
        elif kind == "user":
            self._user(record, where)
        elif kind == "direct_channel":
            self._direct(self._members(record, where), record, where)
        return self.channel_of(kind, record, where)

    def channel_of(self, kind: str, record: dict[str, Any], where: str) -> _Channel | None:
        """The channel of a post or direct post line; None for any other line."""
        if kind == "post":
            team = _text(record, "team", where, required=True)
            name = _text(record, "channel", where, required=True)
            return self.channels.get(("team", team, name)) or self._channel(
                {"team": team, "name": name}, where
            )
        if kind == "direct_post":
            members = _list(record, "channel_members", where)
            if len(members) < 2 or not all(isinstance(m, str) and m for m in members):
                raise CuratorError(f"{where}: 'channel_members' must list two or more usernames")
            return self._direct(members, {}, where)
        return None

    def thread(self, channel: _Channel, record: dict[str, Any], number: int) -> _Channel:
        """One post line's thread alone, in a channel of its own with `channel`'s record."""
        alone = _Channel(channel.record, channel.team)
        self._post(alone, record, f"{self.where}:{number}", number)
        return alone

    def _team(self, name: str, record: dict[str, Any], where: str) -> dict[str, Any]:
        team = self.teams.get(name)
        if team is None or record.get("display_name") is not None:
            team = {
                "id": mattermost_id("team", name),
                "name": name,
                "display_name": _text(record, "display_name", where) or name,
                "type": _text(record, "type", where) or "O",
            }
            self.teams[name] = team
        return team

    def _channel(self, record: dict[str, Any], where: str) -> _Channel:
        team_name = _text(record, "team", where, required=True)
        name = _text(record, "name", where, required=True)
        team = self.teams.get(team_name) or self._team(team_name, {}, where)
        channel = {
            "id": mattermost_id("channel", team_name, name),
            "team_id": team["id"],
            "type": _text(record, "type", where) or "O",
            "display_name": _text(record, "display_name", where) or name,
            "name": name,
            "header": _text(record, "header", where),
            "purpose": _text(record, "purpose", where),
            "delete_at": _ms(record, "deleted_at", where),
        }
        made = _Channel(channel, team)
        key = ("team", team_name, name)
        if key in self.channels:  # a channel line after its posts' lines: the posts stay
            self.channels[key].record = channel
            return self.channels[key]
        self.channels[key] = made
        return made

    def _user(self, record: dict[str, Any], where: str) -> None:
        username = _text(record, "username", where, required=True)
        user: dict[str, Any] = {"id": self._user_id(username), "username": username}
        for key in USER_MEMBERS:
            user[key] = _text(record, key, where)
        if record.get("auth_service"):
            user["auth_service"] = _text(record, "auth_service", where)
        user["delete_at"] = _ms(record, "delete_at", where)
        self.users[username] = user

    @staticmethod
    def _user_id(username: str) -> str:
        return mattermost_id("user", username)

    @staticmethod
    def _members(record: dict[str, Any], where: str) -> list[str]:
        """A direct channel's usernames: `members`, or newer servers' `participants`."""
        members = _list(record, "members", where)
        if not members:
            members = [
                p.get("username") if isinstance(p, dict) else None
                for p in _list(record, "participants", where)
            ]
        if len(members) < 2 or not all(isinstance(m, str) and m for m in members):
            raise CuratorError(f"{where}: a direct channel needs two or more member usernames")
        return members

    def _direct(self, members: list[str], record: dict[str, Any], where: str) -> _Channel:
        names = sorted(set(members))
        key = ("direct", *names)
        if key in self.channels:
            return self.channels[key]
        ids = sorted(self._user_id(n) for n in names)
        if len(names) == 2:
            # Mattermost names a direct channel after its two users' ids.
            channel = {"type": "D", "name": "__".join(ids), "display_name": ""}
        else:
            digest = hashlib.sha1("".join(ids).encode()).hexdigest()  # noqa: S324 - a name
            channel = {"type": "G", "name": digest, "display_name": ", ".join(names)}
        channel = {
            "id": mattermost_id("direct", *names),
            "team_id": "",
            **channel,
            "header": _text(record, "header", where),
            "purpose": "",
        }
        self.channels[key] = _Channel(channel, None)
        return self.channels[key]

    def _post(self, channel: _Channel, record: dict[str, Any], where: str, number: int) -> None:
        root = self._one_post(channel, record, where, f"{number}", "")
        replies = _list(record, "replies", where)
        for index, reply in enumerate(replies):
            if not isinstance(reply, dict):
                raise CuratorError(f"{where}: reply {index + 1} is not an object")
            self._one_post(channel, reply, f"{where}: reply {index + 1}", f"{number}.{index}", root)
        channel.posts[root]["reply_count"] = len(replies)

    def _one_post(
        self, channel: _Channel, record: dict[str, Any], where: str, seat: str, root: str
    ) -> str:
        self.posts_seen += 1
        username = _text(record, "user", where, required=True)
        message = _text(record, "message", where)
        created = _ms(record, "create_at", where)
        edited = _ms(record, "edit_at", where)
        channel_id = channel.record["id"]
        post_id = mattermost_id("post", channel_id, str(created), username, seat)
        props = record.get("props") or {}
        if not isinstance(props, dict):
            raise CuratorError(f"{where}: 'props' must be an object")
        user_id = self._user_id(username)
        channel.authors.add(username)
        post: dict[str, Any] = {
            "id": post_id,
            "create_at": created,
            "update_at": max(created, edited),
            "edit_at": edited,
            "delete_at": _ms(record, "delete_at", where),
            "is_pinned": bool(record.get("is_pinned")),
            "user_id": user_id,
            "channel_id": channel_id,
            "root_id": root,
            "message": message,
            "type": _text(record, "type", where),
            "props": props,
            "reply_count": 0,
            "metadata": {},
        }
        reactions = self._reactions(record, post_id, where)
        if reactions:
            post["has_reactions"] = True
            post["metadata"]["reactions"] = reactions
        file_ids = self._attachments(channel, record, post_id, user_id, created, where)
        if file_ids:
            post["file_ids"] = file_ids
        channel.posts[post_id] = post
        return post_id

    def _reactions(self, record: dict[str, Any], post_id: str, where: str) -> list[dict]:
        reactions = []
        for reaction in _list(record, "reactions", where):
            if not isinstance(reaction, dict):
                raise CuratorError(f"{where}: a reaction is not an object")
            reactions.append(
                {
                    "user_id": self._user_id(_text(reaction, "user", where, required=True)),
                    "post_id": post_id,
                    "emoji_name": _text(reaction, "emoji_name", where, required=True),
                    "create_at": _ms(reaction, "create_at", where),
                }
            )
        return reactions

    def _attachments(
        self,
        channel: _Channel,
        record: dict[str, Any],
        post_id: str,
        user_id: str,
        created: int,
        where: str,
    ) -> list[str]:
        file_ids = []
        for index, attachment in enumerate(_list(record, "attachments", where)):
            if not isinstance(attachment, dict):
                raise CuratorError(f"{where}: an attachment is not an object")
            path = _text(attachment, "path", where, required=True)
            file_id = mattermost_id("file", post_id, str(index))
            name = PurePosixPath(path).name
            extension = PurePosixPath(name).suffix.lstrip(".").lower()
            size, data = self._attachment(path, extension in TEXT_EXTENSIONS, where)
            channel.file_infos[file_id] = {
                "id": file_id,
                "user_id": user_id,
                "post_id": post_id,
                "create_at": created,
                "name": name,
                "extension": extension,
                "size": size,
                "mime_type": mimetypes.guess_type(name)[0] or "application/octet-stream",
            }
            if data is not None:
                channel.files[file_id] = base64.b64encode(data).decode("ascii")
            file_ids.append(file_id)
        return file_ids

    def _attachment(self, path: str, text: bool, where: str) -> tuple[int, bytes | None]:
        """An attachment's size in the zip (by its path, or under data/) and, for a text
        file, its bytes; a bare import.jsonl has no files (size 0, no bytes)."""
        if self.archive is None:
            return 0, None
        clean = path.lstrip("./")
        for candidate in (clean, f"data/{clean}"):
            name = candidate if self.root == "." else f"{self.root}/{candidate}"
            if self.archive.has(name):
                return self.archive.size(name), self.archive.read(name) if text else None
        raise CuratorError(f"{where}: an attachment's file is not in the archive's data folder")

    def exports(self) -> list[dict[str, Any]]:
        """Every channel with posts, as a thread export, in the order the export named them."""
        return [self.export(c, c) for c in self.channels.values() if c.posts]

    def export(self, channel: _Channel, posted: _Channel) -> dict[str, Any]:
        """`posted`'s posts (a whole channel, or one thread of it) as a thread export of
        `channel`."""
        posts = posted.posts
        authors = sorted(posted.authors)
        export: dict[str, Any] = {
            "posts": posts,
            "channel": channel.record,
            "users": {self.users[a]["id"]: self.users[a] for a in authors if a in self.users},
            "order": [
                p["id"]
                for p in sorted(
                    posts.values(), key=lambda p: (p["create_at"], p["id"]), reverse=True
                )
            ],
        }
        if channel.team is not None:
            export["team"] = channel.team
        if posted.file_infos or channel.has_file_infos:
            export["file_infos"] = posted.file_infos
        if posted.files or channel.has_files:
            export["files"] = posted.files
        return export
