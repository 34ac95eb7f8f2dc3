"""Compliance Monitoring's report (System Console > Compliance > Compliance Monitoring, or
the API's /compliance/reports): a zip of `posts.csv` and `metadata.json`, one row per post.

Columns by header name (server/public/model/compliance_post.go, CompliancePostHeader and
Row): TeamName, TeamDisplayName, ChannelName, ChannelDisplayName, ChannelType (O, P, D, G;
older reports lack it), UserUsername, UserEmail, UserNickname, UserType (user, bot), PostId,
PostCreateAt, PostUpdateAt and PostDeleteAt (RFC 3339 times; empty when never), PostRootId
(the thread's root: threads are rebuilt from it), PostOriginalId (on the copy an edit left
of the old text, deleted at the edit), PostMessage (a leading = + or - behind a ' that
keeps spreadsheets from running it), PostType, PostProps (JSON), PostHashtags, PostFileIds
(a JSON list). The report names no channel, team or user by id, so each gets a
Mattermost-shaped id made from its names (chat_ids).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from curator.errors import CuratorError
from curator.ingest.chat_ids import mattermost_id
from curator.ingest.compliance_rows import DELETED, EDITED_ORIGINAL, Channel, Gathered, Person, Row
from curator.ingest.csv_table import Fields, read_table
from curator.json_input import parse

REQUIRED = (
    "ChannelName",
    "UserUsername",
    "UserEmail",
    "PostId",
    "PostCreateAt",
    "PostRootId",
    "PostMessage",
)
CHANNEL_TYPES = ("O", "P", "D", "G")
# A direct channel is named after its two users' ids.
DIRECT_NAME = re.compile(r"[a-z0-9]{26}__[a-z0-9]{26}")
# The ' Mattermost puts before a message a spreadsheet would run as a formula.
FORMULA_GUARD = re.compile(r"'(?=[\t\n\f\r ]*[=+\-])")
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def is_report(header: str) -> bool:
    return "PostCreateAt" in header and "PostId" in header


def read_report(data: bytes, where: str, gathered: Gathered) -> None:
    """Every row of `data` (a Compliance Monitoring posts.csv named `where`) into `gathered`."""
    _, rows = read_table(data, where, REQUIRED, "a Mattermost compliance report's posts.csv")
    for fields in rows:
        gathered.post(_row(fields))


def _row(fields: Fields) -> Row:
    where = fields.where
    team = fields.get("TeamName").strip()
    name = fields.required("ChannelName")
    kind = fields.get("ChannelType").strip().upper()
    if kind and kind not in CHANNEL_TYPES:
        raise CuratorError(f"{where}: 'ChannelType' must be O, P, D or G")
    username = fields.required("UserUsername")
    created = _time(fields, "PostCreateAt")
    deleted = _time(fields, "PostDeleteAt") if fields.get("PostDeleteAt").strip() else 0
    original = fields.get("PostOriginalId").strip()
    copy = bool(deleted and original)  # the old text an edit left, deleted at the edit
    updated = deleted or (
        _time(fields, "PostUpdateAt") if fields.get("PostUpdateAt").strip() else created
    )
    return Row(
        channel=Channel(
            id=mattermost_id("compliance-channel", team, name),
            name=name,
            display_name=fields.get("ChannelDisplayName"),
            type=kind or ("D" if DIRECT_NAME.fullmatch(name) else "O"),
            team_id=mattermost_id("compliance-team", team) if team else "",
            team_name=team,
            team_display_name=fields.get("TeamDisplayName"),
        ),
        person=Person(
            id=mattermost_id("compliance-user", username),
            username=username,
            email=fields.get("UserEmail"),
            is_bot=fields.get("UserType").strip().lower() == "bot",
            nickname=fields.get("UserNickname"),
        ),
        post_id=fields.required("PostId"),
        created=created,
        updated=updated,
        update_type=EDITED_ORIGINAL if copy else (DELETED if deleted else ""),
        edited_by=original if copy else "",
        root_id=fields.get("PostRootId").strip(),
        message=_unguarded(fields.get("PostMessage")),
        post_type=fields.get("PostType").strip(),
        props=_props(fields),
        hashtags=fields.get("PostHashtags"),
        file_ids=_file_ids(fields),
    )


def _time(fields: Fields, name: str) -> int:
    text = fields.get(name).strip()
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise CuratorError(f"{fields.where}: '{name}' must be an RFC 3339 time") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return (moment - EPOCH) // timedelta(milliseconds=1)


def _unguarded(message: str) -> str:
    return message[1:] if FORMULA_GUARD.match(message) else message


def _props(fields: Fields) -> dict[str, Any]:
    text = fields.get("PostProps").strip()
    value = parse(text, f"{fields.where}: 'PostProps'") if text else {}
    if not isinstance(value, dict):
        raise CuratorError(f"{fields.where}: 'PostProps' is not a JSON object")
    return value


def _file_ids(fields: Fields) -> tuple[str, ...]:
    text = fields.get("PostFileIds").strip()
    value = parse(text, f"{fields.where}: 'PostFileIds'") if text else []
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise CuratorError(f"{fields.where}: 'PostFileIds' is not a JSON list of ids")
    return tuple(value)
