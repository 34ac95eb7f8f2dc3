"""Mattermost thread exports: validate, flag orphan replies, optionally split per thread.

The export is kept as it came (unknown members too): sub-exports for --split-threads are
cut from the raw JSON, so `ThreadExport` dumps (exclude_unset) give back the same shape.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from curator.errors import CuratorError, first_problem
from curator.ingest.source import Parsed, RawSource
from curator.json_input import parse
from curator.limits import DEFAULT
from curator.model import Content, LimitSettings, ThreadContent, ThreadExport

IMPORTER = "mattermost"


def load_json(source: RawSource, limits: LimitSettings = DEFAULT) -> Any:
    return parse(source.data, source.name, limits)


def check_export_shape(data: Any, name: str) -> dict[str, Any]:
    """The raw export dict, or a one-line reason why it is not a thread export.

    Older exports of the Agents plugin call the posts map `thread`: it is read as `posts`,
    so the fixture has the shape today's suites load (a list of posts there is keyed by id)."""
    if isinstance(data, dict) and "posts" not in data and "thread" in data:
        thread = data["thread"]
        if isinstance(thread, list) and all(isinstance(p, dict) and "id" in p for p in thread):
            thread = {str(post["id"]): post for post in thread}
        data = {("posts" if key == "thread" else key): v for key, v in data.items()}
        data["posts"] = thread
    if not isinstance(data, dict) or "posts" not in data:
        raise CuratorError(f"{name}: not a Mattermost thread export (no top-level 'posts' map)")
    posts = data["posts"]
    if not isinstance(posts, dict):
        raise CuratorError(
            f"{name}: 'posts' must be a map of post id to post, got {type(posts).__name__}"
        )
    if not posts:
        raise CuratorError(f"{name}: the export has no posts")
    for key, post in posts.items():
        if not isinstance(post, dict):
            raise CuratorError(
                f"{name}: posts.{key} is not a post object (got {type(post).__name__})"
            )
        if "id" not in post:
            raise CuratorError(f"{name}: posts.{key} has no id")
    return data


def validate_export(data: dict[str, Any], name: str) -> ThreadExport:
    try:
        return ThreadExport.model_validate(data)
    except ValidationError as error:
        raise CuratorError(f"{name}: not a valid thread export: {first_problem(error)}") from None


def parse_thread_export(
    source: RawSource, *, split_threads: bool = False, limits: LimitSettings = DEFAULT
) -> list[Parsed]:
    """One channel fixture (orphans flagged), or one fixture per thread with split_threads."""
    raw = check_export_shape(load_json(source, limits), source.name)
    export = validate_export(raw, source.name)
    return from_export(raw, export, IMPORTER, source.name, split_threads=split_threads)


def from_export(
    raw: dict[str, Any], export: ThreadExport, importer: str, name: str, *, split_threads: bool
) -> list[Parsed]:
    if not split_threads:
        content = ThreadContent(export=export, orphan_post_ids=orphan_ids(export))
        return [Parsed(content, importer, warnings=thread_warnings(content))]
    parsed = []
    for key, post_ids in thread_groups(export).items():
        if all(export.posts[pid].type.startswith("system_") for pid in post_ids):
            continue  # a lone "joined the channel" is channel noise, not a thread
        sub = validate_export(sub_export(raw, post_ids), name)
        content = ThreadContent(export=sub, orphan_post_ids=orphan_ids(sub))
        parsed.append(Parsed(content, importer, part=key, warnings=thread_warnings(content)))
    return parsed


def orphan_ids(export: ThreadExport) -> list[str]:
    """Replies whose root is not in the export (it fell outside the export window)."""
    return [p.id for p in export.ordered_posts() if p.root_id and p.root_id not in export.posts]


def thread_warnings(content: ThreadContent) -> list[str]:
    """Authors missing from users and orphan replies; ids as they stand in `content`."""
    return author_warnings(content.export) + orphan_warnings(content.orphan_post_ids)


def anonymised_warnings(content: Content, parsed: list[str]) -> list[str]:
    """The warnings of anonymised content whose parser said `parsed`.

    A thread's name post and user ids, which the anonymiser replaced, so they are said anew
    from the content; a document's (page and OCR notes) stand as parsed.
    """
    if isinstance(content, ThreadContent):
        return thread_warnings(content)
    return list(parsed)


def author_warnings(export: ThreadExport) -> list[str]:
    return [
        f"post {p.id}: author {p.user_id} is not in users (deleted user or bot); post kept"
        for p in export.ordered_posts()
        if p.user_id and p.user_id not in export.users
    ]


def orphan_warnings(orphans: list[str]) -> list[str]:
    if not orphans:
        return []
    return [
        f"{len(orphans)} orphan repl{'y' if len(orphans) == 1 else 'ies'} whose root is outside "
        f"the export: {', '.join(orphans)}"
    ]


def thread_groups(export: ThreadExport) -> dict[str, list[str]]:
    """Thread key (root id, or the missing root's id for orphans) -> post ids, in order."""
    groups: dict[str, list[str]] = {}
    for post in export.ordered_posts():
        groups.setdefault(post.root_id or post.id, []).append(post.id)
    return groups


def sub_export(raw: dict[str, Any], post_ids: list[str]) -> dict[str, Any]:
    """The raw export cut down to some posts, their authors and their files."""
    chosen = set(post_ids)
    posts = {key: post for key, post in raw["posts"].items() if post["id"] in chosen}
    authors = {post.get("user_id") for post in posts.values()}
    files = {fid for post in posts.values() for fid in (post.get("file_ids") or [])}
    sub = dict(raw)
    sub["posts"] = posts
    if isinstance(raw.get("users"), dict):
        sub["users"] = {uid: user for uid, user in raw["users"].items() if uid in authors}
    for member in ("file_infos", "files"):
        if isinstance(raw.get(member), dict):
            sub[member] = {fid: v for fid, v in raw[member].items() if fid in files}
    if isinstance(raw.get("order"), list):
        sub["order"] = [pid for pid in raw["order"] if pid in chosen]
    return sub
