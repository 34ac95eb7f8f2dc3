"""Which threads of a workspace export become fixtures, and how they are grouped.

A workspace export (Mattermost's bulk or compliance export, Slack's) holds many channels of
many threads; it becomes one fixture per thread, or one per channel with `per_channel`.
A thread is chosen by its channel (name, display name or id), by when its root was posted
(`since` inclusive, `until` exclusive) and by how many replies people wrote (system posts do
not count). An export without threads (Actiance XML's channel-level conversations) gives one
fixture per conversation: the times choose its messages, and its replies are the messages
people wrote after its first.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from typing import Any

from curator.errors import CuratorError
from curator.ingest.source import Parsed
from curator.ingest.threads import from_export, validate_export


@dataclass(frozen=True)
class Selection:
    channels: tuple[str, ...] = ()
    since_ms: int | None = None
    until_ms: int | None = None
    min_replies: int = 0
    per_channel: bool = False

    @classmethod
    def of(
        cls,
        *,
        channels: tuple[str, ...] | list[str] = (),
        since: str | None = None,
        until: str | None = None,
        min_replies: int = 0,
        per_channel: bool = False,
    ) -> Selection:
        """From the command line's words; a date alone means its whole day (UTC)."""
        if min_replies < 0:
            raise CuratorError("--min-replies cannot be negative")
        start = _moment(since, "--since", end=False)
        stop = _moment(until, "--until", end=True)
        if start is not None and stop is not None and stop <= start:
            raise CuratorError("--until must be later than --since")
        names = tuple(c.strip().lower() for c in channels if c.strip())
        return cls(names, start, stop, min_replies, per_channel)

    def wants_channel(self, channel: dict[str, Any]) -> bool:
        if not self.channels:
            return True
        names = {str(channel.get(k) or "").lower() for k in ("name", "display_name", "id")}
        return bool(names & set(self.channels))

    def wants_thread(self, root_at: int, replies: int) -> bool:
        return (
            (self.since_ms is None or root_at >= self.since_ms)
            and (self.until_ms is None or root_at < self.until_ms)
            and replies >= self.min_replies
        )


EVERYTHING = Selection()


def _moment(value: str | None, option: str, *, end: bool) -> int | None:
    if value is None:
        return None
    text = value.strip()
    try:
        if len(text) == 10:
            day = date.fromisoformat(text)
            moment = datetime(day.year, day.month, day.day, tzinfo=UTC)
            if end:
                moment += timedelta(days=1)  # --until 2024-01-31 takes in the 31st
        else:
            moment = datetime.fromisoformat(text)
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)
    except ValueError:
        raise CuratorError(
            f"{option} must be a date (2024-01-31) or an ISO 8601 time, got {value!r}"
        ) from None
    return int(moment.timestamp() * 1000)


def chosen(raw: dict[str, Any], selection: Selection) -> dict[str, Any] | None:
    """The channel export cut down to the chosen threads; None when none is left."""
    if not selection.wants_channel(raw.get("channel") or {}):
        return None
    posts: dict[str, dict[str, Any]] = raw["posts"]
    groups: dict[str, list[str]] = {}
    for key, post in posts.items():
        groups.setdefault(post.get("root_id") or post["id"], []).append(key)
    keep: set[str] = set()
    for root, keys in groups.items():
        members = [posts[k] for k in keys]
        head = posts.get(root) or min(members, key=lambda p: (p.get("create_at", 0), p["id"]))
        replies = sum(
            1
            for p in members
            if p is not head and not str(p.get("type") or "").startswith("system_")
        )
        if selection.wants_thread(int(head.get("create_at") or 0), replies):
            keep.update(keys)
    if not keep:
        return None
    if len(keep) == len(posts):
        return raw
    cut = dict(raw)
    cut["posts"] = {k: v for k, v in posts.items() if k in keep}
    if isinstance(raw.get("order"), list):
        cut["order"] = [pid for pid in raw["order"] if pid in cut["posts"]]
    return cut


def channel_fixtures(
    raws: list[dict[str, Any]], importer: str, name: str, selection: Selection
) -> list[Parsed]:
    """The fixtures-to-be of a workspace export's channel exports: per thread, or per channel."""
    parsed: list[Parsed] = []
    for raw in raws:
        cut = chosen(raw, selection)
        if cut is None:
            continue
        channel_id = str((cut.get("channel") or {}).get("id") or "")
        items = from_export(
            cut,
            validate_export(cut, name),
            importer,
            name,
            split_threads=not selection.per_channel,
        )
        for item in items:
            item.part = f"{channel_id}:{item.part}"
        parsed.extend(items)
    return parsed


def conversation_fixtures(
    raws: list[dict[str, Any]], importer: str, name: str, selection: Selection
) -> list[Parsed]:
    """The fixtures-to-be of an export whose channels are conversations without threads: one
    per channel, of the messages posted in the window; none of system posts alone."""
    each_message = replace(selection, min_replies=0, per_channel=True)
    parsed: list[Parsed] = []
    for raw in raws:
        cut = chosen(raw, each_message)
        if cut is None:
            continue
        said = [
            p for p in cut["posts"].values() if not str(p.get("type") or "").startswith("system_")
        ]
        if said and len(said) - 1 >= selection.min_replies:
            parsed.extend(channel_fixtures([cut], importer, name, each_message))
    return parsed
