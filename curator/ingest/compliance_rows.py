"""The rows of Mattermost's compliance export, gathered into channel thread exports.

Both formats (the CSV and Actiance XML) record a post once per change in the export
window (server/enterprise/message_export/shared/export_data.go): as created; as edited
(`EditedNewMsg`, the post's id with its new text, and `EditedOriginalMsg`, a copy under a
new id holding the old text, whose `EditedNewMsgId` names the post); as updated without
a change of text (`UpdatedNoMsgChange`: a reaction, a reply); as deleted (`Deleted`, its
text behind "delete ", which the readers take off). Each post id becomes one post in
Mattermost's shape: its latest text, `edit_at` and `delete_at` from those rows, the old
copies folded into it. Joins and leaves become Mattermost's system posts: structure, not
people's messages.
"""

from __future__ import annotations

import mimetypes
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath
from typing import Any

from curator.ingest.chat_ids import mattermost_id

EDITED_NEW = "EditedNewMsg"
EDITED_ORIGINAL = "EditedOriginalMsg"
DELETED = "Deleted"
DELETED_PREFIX = "delete "
# Which row's text a post keeps: the edit's, then the post as created or updated, then the
# deleted post's (its text behind "delete "), then an old copy's (the post seen only as such).
TEXT_RANK = {EDITED_NEW: 3, "": 2, "UpdatedNoMsgChange": 2, DELETED: 1, EDITED_ORIGINAL: 0}


@dataclass(frozen=True)
class Channel:
    id: str
    name: str
    display_name: str
    type: str  # Mattermost's: O, P, D or G
    team_id: str = ""
    team_name: str = ""
    team_display_name: str = ""


@dataclass(frozen=True)
class Person:
    id: str
    username: str
    email: str
    is_bot: bool = False
    nickname: str = ""


@dataclass(frozen=True)
class Row:
    """One post row: the post as one change in the export window left it."""

    channel: Channel
    person: Person
    post_id: str
    created: int
    updated: int = 0
    update_type: str = ""
    edited_by: str = ""  # on an old copy: the id of the post it is a copy of
    root_id: str = ""
    message: str = ""
    post_type: str = ""
    previews: str = ""  # the post a permalink preview shows
    props: dict[str, Any] = field(default_factory=dict)
    hashtags: str = ""
    file_ids: tuple[str, ...] = ()


@dataclass
class _ChannelPosts:
    channel: Channel
    posts: dict[str, dict[str, Any]] = field(default_factory=dict)
    text_rank: dict[str, tuple[int, int]] = field(default_factory=dict)
    authors: dict[str, Person] = field(default_factory=dict)
    file_infos: dict[str, dict[str, Any]] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)


class Gathered:
    """Every channel of a compliance export, with its posts, authors and files."""

    def __init__(self) -> None:
        self.channels: dict[str, _ChannelPosts] = {}

    def _channel(self, channel: Channel) -> _ChannelPosts:
        known = self.channels.get(channel.id)
        if known is None:
            known = self.channels[channel.id] = _ChannelPosts(channel)
        elif channel.team_name and not known.channel.team_name:
            # a channel seen first by a join alone has no team name; its posts have
            known.channel = channel
        return known

    def post(self, row: Row) -> None:
        gathered = self._channel(row.channel)
        gathered.authors.setdefault(row.person.id, row.person)
        copy = bool(row.edited_by)
        post_id = row.edited_by or row.post_id
        post = gathered.posts.get(post_id)
        if post is None:
            post = gathered.posts[post_id] = {
                "id": post_id,
                "create_at": row.created,
                "update_at": row.created,
                "edit_at": 0,
                "delete_at": 0,
                "user_id": row.person.id,
                "channel_id": row.channel.id,
                "root_id": row.root_id,
                "message": "",
                "type": row.post_type,
                "props": {"from_bot": "true"} if row.person.is_bot else {},
                "reply_count": 0,
                "metadata": {},
            }
            gathered.text_rank[post_id] = (-1, 0)
        post["create_at"] = min(post["create_at"], row.created)
        post["update_at"] = max(post["update_at"], row.updated, row.created)
        if row.update_type == DELETED:
            post["delete_at"] = row.updated or row.created
        if copy or row.update_type == EDITED_NEW:
            post["edit_at"] = max(post["edit_at"], row.updated)
        rank = (
            TEXT_RANK[EDITED_ORIGINAL] if copy else TEXT_RANK.get(row.update_type, 2),
            row.updated,
        )
        if rank > gathered.text_rank[post_id]:
            gathered.text_rank[post_id] = rank
            post["message"] = row.message
            post["props"].update(row.props)
        if row.root_id:
            post["root_id"] = row.root_id
        if row.previews:
            post["props"]["previewed_post"] = row.previews
        for key, value in row.props.items():  # an older version's props add, never replace
            post["props"].setdefault(key, value)
        if row.hashtags:
            post["hashtags"] = row.hashtags
        for file_id in row.file_ids:
            if file_id not in (post.get("file_ids") or []):
                post["file_ids"] = [*(post.get("file_ids") or []), file_id]

    def event(
        self, channel: Channel, person: Person, at: int, *, joined: bool, message: str
    ) -> None:
        """A join or a leave, as Mattermost's system post of it."""
        gathered = self._channel(channel)
        gathered.authors.setdefault(person.id, person)
        what = "join" if joined else "leave"
        post_id = mattermost_id("compliance-event", channel.id, person.id, str(at), what)
        gathered.posts[post_id] = {
            "id": post_id,
            "create_at": at,
            "update_at": at,
            "edit_at": 0,
            "delete_at": 0,
            "user_id": person.id,
            "channel_id": channel.id,
            "root_id": "",
            "message": message,
            "type": f"system_{what}_channel",
            "props": {"username": person.username},
            "reply_count": 0,
            "metadata": {},
        }
        gathered.text_rank[post_id] = (TEXT_RANK[""], at)

    def attach(
        self,
        row: Row,
        file_id: str,
        name: str,
        *,
        size: int,
        data: str | None,
        deleted_at: int = 0,
    ) -> None:
        """A file of the post `row` names (the post is made from the row if not yet seen);
        `data` is a text file's base64, None for a file that travels as metadata only."""
        gathered = self._channel(row.channel)
        post = gathered.posts.get(row.post_id)
        if post is None:  # a file row before its post's row: the post's text comes later
            self.post(replace(row, message=""))
            gathered.text_rank[row.post_id] = (-1, 0)
            post = gathered.posts[row.post_id]
        extension = PurePosixPath(name).suffix.lstrip(".").lower()
        info = gathered.file_infos.setdefault(
            file_id,
            {
                "id": file_id,
                "user_id": row.person.id,
                "post_id": row.post_id,
                "create_at": post["create_at"],
                "name": name,
                "extension": extension,
                "size": size,
                "mime_type": mimetypes.guess_type(name)[0] or "application/octet-stream",
            },
        )
        if deleted_at:
            info["delete_at"] = deleted_at
        if file_id not in (post.get("file_ids") or []):
            post["file_ids"] = [*(post.get("file_ids") or []), file_id]
        if data is not None:
            gathered.files[file_id] = data

    def exports(self) -> list[dict[str, Any]]:
        """Every channel with posts as a thread export, in the order the export named them."""
        made = []
        for gathered in self.channels.values():
            posts = gathered.posts
            if not posts:
                continue
            for post in posts.values():
                root = posts.get(post["root_id"]) if post["root_id"] else None
                if root is not None:
                    root["reply_count"] += 1
            made.append(_export(gathered))
        return made


def _export(gathered: _ChannelPosts) -> dict[str, Any]:
    channel = gathered.channel
    posts = gathered.posts
    authors = {p["user_id"] for p in posts.values()}
    export: dict[str, Any] = {
        "posts": posts,
        "channel": {
            "id": channel.id,
            "team_id": channel.team_id,
            "type": channel.type,
            "display_name": channel.display_name,
            "name": channel.name,
            "header": "",
            "purpose": "",
        },
        "users": {
            person.id: _user(person) for person in gathered.authors.values() if person.id in authors
        },
        "order": [
            p["id"]
            for p in sorted(posts.values(), key=lambda p: (p["create_at"], p["id"]), reverse=True)
        ],
    }
    if channel.team_id and channel.type in ("O", "P"):
        export["team"] = {
            "id": channel.team_id,
            "name": channel.team_name,
            "display_name": channel.team_display_name or channel.team_name,
        }
    if gathered.file_infos:
        export["file_infos"] = gathered.file_infos
    if gathered.files:
        export["files"] = gathered.files
    return export


def _user(person: Person) -> dict[str, Any]:
    user: dict[str, Any] = {
        "id": person.id,
        "username": person.username,
        "email": person.email,
        "roles": "system_user",
    }
    if person.nickname:
        user["nickname"] = person.nickname
    if person.is_bot:
        user["is_bot"] = True
    return user
