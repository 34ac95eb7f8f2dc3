"""Slack's workspace export: a .zip (or the folder it unzips to) of `users.json`, the
conversation lists (`channels.json`, and where the plan exports them `groups.json` for
private channels, `dms.json` and `mpims.json` for direct and group messages) and one folder
per conversation of daily `YYYY-MM-DD.json` files, each a list of messages.

Every conversation becomes a thread export in Mattermost's shape, as the bulk export does:
a reply is a message whose `thread_ts` is another's `ts`; `<@U…>` mentions become the
user's `@name` and links Mattermost's markdown (slack_text); an edit's time is `edit_at`; a
bot's message is its bot's post (`props.from_bot`); channel joins, topic and purpose changes
are Mattermost's system posts; a deleted message (`tombstone`) is a deleted post; files keep
their metadata (the export holds links, never the bytes, and the links hold tokens: dropped);
link previews (`attachments`) are the post's `props.attachments`. Slack's ids are not
Mattermost's shape, so each gets a Mattermost-shaped id made from it (chat_ids). Sources:
https://slack.com/help/articles/220556107 ("How to read Slack data exports") and
https://api.slack.com/events/message (message subtypes, `edited`, `files`, `reactions`).
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from pathlib import PurePosixPath
from typing import Any

from curator.errors import CuratorError
from curator.ingest.archive import Archive
from curator.ingest.chat_ids import mattermost_id
from curator.ingest.chat_jsonl import person_name
from curator.ingest.selection import Selection, channel_fixtures
from curator.ingest.slack_text import to_mattermost
from curator.ingest.source import Parsed, RawSource
from curator.json_input import parse
from curator.limits import DEFAULT
from curator.model import LimitSettings

IMPORTER = "slack"
# conversation list -> Mattermost's channel type
LISTS = {"channels.json": "O", "groups.json": "P", "dms.json": "D", "mpims.json": "G"}
DAY = re.compile(r"\d{4}-\d{2}-\d{2}\.json")
SYSTEM = {
    "channel_join": "system_join_channel",
    "group_join": "system_join_channel",
    "channel_leave": "system_leave_channel",
    "group_leave": "system_leave_channel",
    "channel_topic": "system_header_change",
    "group_topic": "system_header_change",
    "channel_purpose": "system_purpose_change",
    "group_purpose": "system_purpose_change",
    "channel_name": "system_displayname_change",
    "channel_archive": "system_channel_deleted",
    "channel_unarchive": "system_channel_restored",
}
PREVIEW_MEMBERS = (
    "fallback",
    "title",
    "title_link",
    "text",
    "pretext",
    "author_name",
    "service_name",
    "from_url",
    "footer",
)
TEAM = {"name": "slack-export", "display_name": "Slack export", "type": "O"}


def is_slack_archive(archive: Archive) -> bool:
    return archive.find("channels.json") is not None or archive.find("users.json") is not None


def slack_id(value: str) -> str:
    return mattermost_id("slack", value)


def parse_slack_export(
    source: RawSource, *, selection: Selection, archive: Archive, limits: LimitSettings = DEFAULT
) -> list[Parsed]:
    users_file = archive.find("users.json")
    if users_file is None:
        raise CuratorError(f"{source.name}: no users.json: not a whole Slack export")
    prefix = str(PurePosixPath(users_file).parent)
    reader = _Reader(source.name, archive, limits, "" if prefix == "." else prefix + "/")
    users = reader.users()
    conversations = reader.conversations()
    if not conversations:
        raise CuratorError(f"{source.name}: no channels.json: not a whole Slack export")
    names = {uid: str(user["username"]) for uid, user in users.items()}
    channel_names = {sid: str(record.get("name") or sid) for sid, _, record in conversations}
    exports = []
    for sid, kind, record in conversations:
        folder = str(record.get("name") or sid) if kind != "D" else sid
        channel = _Channel(sid, kind, record, users, names, channel_names)
        for day in reader.days(folder):
            for index, message in enumerate(reader.messages(day, sid)):
                channel.add(message, f"{reader.where}: {sid}/{PurePosixPath(day).name}", index)
        if channel.posts:  # an empty channel holds no conversation
            exports.append(channel.export())
    if not exports:
        raise CuratorError(f"{source.name}: the Slack export has no messages")
    return channel_fixtures(exports, IMPORTER, source.name, selection)


class _Reader:
    def __init__(self, where: str, archive: Archive, limits: LimitSettings, prefix: str) -> None:
        self.where = where
        self.archive = archive
        self.limits = limits
        self.prefix = prefix

    def _list(self, name: str, what: str) -> list[dict[str, Any]]:
        return self._objects(name, f"{self.where}: {name.removeprefix(self.prefix)}", what)

    def _objects(self, name: str, where: str, what: str) -> list[dict[str, Any]]:
        """The JSON list of objects in part `name`, named `where` in an error."""
        value = parse(self.archive.read(name), where, self.limits)
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise CuratorError(f"{where}: must be a list of {what} objects")
        return value

    def users(self) -> dict[str, dict[str, Any]]:
        """Slack user id -> a Mattermost user record."""
        made = {}
        for index, user in enumerate(self._list(self.prefix + "users.json", "user")):
            uid = user.get("id")
            if not isinstance(uid, str) or not uid:
                raise CuratorError(f"{self.where}: users.json: user {index + 1} has no id")
            made[uid] = user_record(uid, user)
        return made

    def conversations(self) -> list[tuple[str, str, dict[str, Any]]]:
        found = []
        for list_name, kind in LISTS.items():
            name = self.prefix + list_name
            if not self.archive.has(name):
                continue
            for index, record in enumerate(self._list(name, "conversation")):
                sid = record.get("id")
                if not isinstance(sid, str) or not sid:
                    raise CuratorError(
                        f"{self.where}: {list_name}: conversation {index + 1} has no id"
                    )
                if kind != "D" and not isinstance(record.get("name"), str):
                    raise CuratorError(f"{self.where}: {list_name}: conversation {sid} has no name")
                found.append((sid, kind, record))
        return found

    def days(self, folder: str) -> list[str]:
        base = f"{self.prefix}{folder}/"
        return [
            n
            for n in self.archive.names()
            if n.startswith(base) and "/" not in n[len(base) :] and DAY.fullmatch(n[len(base) :])
        ]

    def messages(self, day: str, sid: str) -> list[dict[str, Any]]:
        return self._objects(day, f"{self.where}: {sid}/{PurePosixPath(day).name}", "message")


def user_record(uid: str, user: dict[str, Any]) -> dict[str, Any]:
    """A Slack user (users.json, or a message's `user_profile`) as Mattermost's user."""
    given = user.get("profile")
    profile: dict[str, Any] = given if isinstance(given, dict) else user
    real = str(profile.get("real_name") or user.get("real_name") or "")
    names = {"first_name": profile.get("first_name"), "last_name": profile.get("last_name")}
    if not names["first_name"] and not names["last_name"]:
        names = dict(person_name(real))
    record: dict[str, Any] = {
        "id": slack_id(uid),
        "username": str(user.get("name") or profile.get("display_name") or uid),
        "email": str(profile.get("email") or ""),
        "nickname": str(profile.get("display_name") or ""),
        "first_name": str(names.get("first_name") or ""),
        "last_name": str(names.get("last_name") or ""),
        "position": str(profile.get("title") or ""),
        "roles": "system_user",
    }
    if user.get("is_bot") or user.get("is_app_user"):
        record["is_bot"] = True
    return record


def _ms(ts: Any, where: str) -> int:
    try:
        return int(Decimal(str(ts)) * 1000)
    except (InvalidOperation, ValueError):
        raise CuratorError(f"{where}: its 'ts' is not a Slack timestamp") from None


def _count(value: Any) -> int:
    """A count or epoch seconds as Slack writes them; anything else is no count (0)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


class _Channel:
    """One conversation's messages, as Mattermost posts."""

    def __init__(
        self,
        sid: str,
        kind: str,
        record: dict[str, Any],
        users: dict[str, dict[str, Any]],
        names: dict[str, str],
        channel_names: dict[str, str],
    ) -> None:
        self.sid = sid
        self.id = slack_id(sid)
        self.kind = kind
        self.record = record
        self.users = users
        self.names = names
        self.channel_names = channel_names
        self.authors: dict[str, dict[str, Any]] = {}
        self.posts: dict[str, dict[str, Any]] = {}
        self.file_infos: dict[str, dict[str, Any]] = {}

    def _post_id(self, ts: str) -> str:
        return mattermost_id("slack-post", self.sid, ts)

    def add(self, message: dict[str, Any], where: str, index: int) -> None:
        ts = message.get("ts")
        if not isinstance(ts, str) or not ts:
            raise CuratorError(f"{where}: message {index + 1} has no 'ts'")
        created = _ms(ts, f"{where}: message {index + 1}")
        subtype = str(message.get("subtype") or "")
        post_id = self._post_id(ts)
        thread = message.get("thread_ts")
        root = self._post_id(thread) if isinstance(thread, str) and thread != ts else ""
        edited = message.get("edited")
        edit_at = _ms(edited.get("ts"), where) if isinstance(edited, dict) else 0
        deleted = subtype == "tombstone"
        props: dict[str, Any] = {}
        user_id = self._author(message, props)
        given = message.get("text")
        text = given if isinstance(given, str) else ""
        previews = [
            {k: a[k] for k in PREVIEW_MEMBERS if isinstance(a.get(k), str)}
            for a in message.get("attachments") or []
            if isinstance(a, dict)
        ]
        if previews:
            props["attachments"] = previews
        post: dict[str, Any] = {
            "id": post_id,
            "create_at": created,
            "update_at": max(created, edit_at),
            "edit_at": edit_at,
            "delete_at": created if deleted else 0,
            "is_pinned": bool(message.get("pinned_to")),
            "user_id": user_id,
            "channel_id": self.id,
            "root_id": root,
            "message": "" if deleted else to_mattermost(text, self.names, self.channel_names),
            "type": SYSTEM.get(subtype, ""),
            "props": props,
            "reply_count": _count(message.get("reply_count")),
            "metadata": {},
        }
        reactions = [
            {"user_id": slack_id(user), "post_id": post_id, "emoji_name": r["name"], "create_at": 0}
            for r in message.get("reactions") or []
            if isinstance(r, dict) and isinstance(r.get("name"), str)
            for user in r.get("users") or []
            if isinstance(user, str)
        ]
        if reactions:
            post["has_reactions"] = True
            post["metadata"]["reactions"] = reactions
        file_ids = self._files(message, post_id, user_id, created)
        if file_ids:
            post["file_ids"] = file_ids
        self.posts[post_id] = post

    def _author(self, message: dict[str, Any], props: dict[str, Any]) -> str:
        """The post's user id; the user (or the bot) is recorded among the authors."""
        uid = message.get("user")
        bot = message.get("bot_id")
        if isinstance(bot, str) and bot and (not isinstance(uid, str) or uid not in self.users):
            props["from_bot"] = "true"
            given = message.get("bot_profile")
            profile = given if isinstance(given, dict) else {}
            name = profile.get("name") or message.get("username") or bot
            self.authors.setdefault(
                bot, {"id": slack_id(bot), "username": str(name), "is_bot": True}
            )
            return slack_id(bot)
        if not isinstance(uid, str) or not uid:
            return ""  # a message of no one (an integration's): kept, the fixture warns
        if uid in self.users:
            self.authors.setdefault(uid, self.users[uid])
        elif isinstance(message.get("user_profile"), dict):
            # a user gone from users.json (deleted, or from another workspace) still has
            # the profile Slack copied onto the message
            profile = message["user_profile"]
            self.authors.setdefault(uid, user_record(uid, {**profile, "profile": profile}))
            self.names.setdefault(uid, self.authors[uid]["username"])
        return slack_id(uid)

    def _files(
        self, message: dict[str, Any], post_id: str, user_id: str, created: int
    ) -> list[str]:
        file_ids: list[str] = []
        for file in message.get("files") or []:
            # a deleted file (mode "tombstone") or one beyond the plan's limit has no name
            if not isinstance(file, dict) or not isinstance(file.get("name"), str):
                continue
            file_id = slack_id(str(file.get("id") or f"{post_id}:{len(file_ids)}"))
            self.file_infos[file_id] = {
                "id": file_id,
                "user_id": user_id,
                "post_id": post_id,
                "create_at": created,
                "name": file["name"],
                "extension": str(file.get("filetype") or PurePosixPath(file["name"]).suffix[1:]),
                "size": _count(file.get("size")),
                "mime_type": str(file.get("mimetype") or "application/octet-stream"),
            }
            file_ids.append(file_id)
        return file_ids

    def channel(self) -> dict[str, Any]:
        record = self.record
        members = sorted(m for m in record.get("members") or [] if isinstance(m, str))
        header, purpose = (
            given if isinstance(given := record.get(key), dict) else {}
            for key in ("topic", "purpose")
        )
        name, display = str(record.get("name") or ""), str(record.get("name") or "")
        if self.kind == "D":
            # Mattermost names a direct channel after its two users' ids.
            name, display = "__".join(sorted(slack_id(m) for m in members)), ""
        elif self.kind == "G":
            name = mattermost_id("slack-group", self.sid)
            display = ", ".join(self.names.get(m, m) for m in members)
        return {
            "id": self.id,
            "team_id": "" if self.kind in ("D", "G") else mattermost_id("slack-team"),
            "type": self.kind,
            "display_name": display,
            "name": name,
            "header": str(header.get("value") or ""),
            "purpose": str(purpose.get("value") or ""),
            "create_at": _count(record.get("created")) * 1000,
            "delete_at": 0,
        }

    def export(self) -> dict[str, Any]:
        export: dict[str, Any] = {
            "posts": self.posts,
            "channel": self.channel(),
            "users": {user["id"]: user for user in self.authors.values()},
            "order": [
                p["id"]
                for p in sorted(
                    self.posts.values(), key=lambda p: (p["create_at"], p["id"]), reverse=True
                )
            ],
        }
        if self.kind not in ("D", "G"):
            export["team"] = {"id": mattermost_id("slack-team"), **TEAM}
        if self.file_infos:
            export["file_infos"] = self.file_infos
        return export
