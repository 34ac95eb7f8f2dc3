"""mattermost/<name>.json thread files that Mattermost's Go eval package loads, plus rubrics.json.

A file holds the eval package's ThreadExport layout (`posts`, `channel`, `team`, `users`,
`file_infos`, `files`; unknown members kept) and is what its `LoadThreadFromJSON` reads.
Its `String()` dereferences the team, the channel and every post's author, so a file
always has them: an export that lacked one (chat logs have no team; a deleted user has no
record) gets a stand-in built from what the thread itself holds. A Go suite names its
files in code, so names are stable and readable: the source file's stem, plus the mutation
kinds of a variant (`lease-question.truncate.json`); fixtures of one bundle that would
share a name (threads split from one channel export) each add the 8 hex digits of their
id. rubrics.json maps file name -> rubric statements, as a Go suite's table lists them.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

from curator.model import Fixture, ThreadContent

if TYPE_CHECKING:
    from curator.bundle.serialise import Serialised

FOLDER = "mattermost"
RUBRICS = f"{FOLDER}/rubrics.json"
_UNSAFE = re.compile(r"[^a-z0-9_-]+")


def base_name(fixture: Fixture) -> str:
    """The file name a fixture's thread gets unless another fixture of the bundle shares it."""
    stem = _UNSAFE.sub("-", PurePath(fixture.provenance.source_name).stem.lower()).strip("-") or "thread"
    mutations = [step.name for step in fixture.lineage.mutations] if fixture.lineage else []
    return ".".join([stem, "+".join(mutations)] if mutations else [stem]) + ".json"


def file_names(items: Sequence[Serialised]) -> dict[str, str]:
    """Fixture id -> bundle path of its thread file, for every thread fixture of a bundle."""
    threads = [item for item in items if item.thread is not None]
    taken = Counter(item.thread_name for item in threads)
    names = {}
    for item in threads:
        name = item.thread_name or f"{item.id}.json"
        if taken[name] > 1:
            name = f"{name.removesuffix('.json')}.{item.id[-8:]}.json"
        names[item.id] = f"{FOLDER}/{name}"
    return names


def go_export(content: ThreadContent, fixture: Fixture) -> dict[str, Any]:
    """The thread as the Go eval package reads it: the stored export, completed so that the
    team, the channel and every post's author are there."""
    data = content.export.model_dump(mode="json", exclude_unset=True)
    users = data.setdefault("users", {})
    for post in content.export.ordered_posts():
        if post.user_id not in users:
            users[post.user_id] = {"id": post.user_id, "username": post.user_id}
    label = PurePath(fixture.provenance.source_name).stem
    if not data.get("channel"):
        channel_ids = [post.channel_id for post in content.export.ordered_posts() if post.channel_id]
        data["channel"] = {"id": channel_ids[0] if channel_ids else "", "name": _slug(label),
                           "display_name": label, "type": "O"}
    if not data.get("team"):
        data["team"] = {"id": "", "name": _slug(label), "display_name": label}
    return data


def go_problems(data: dict[str, Any]) -> list[str]:
    """What the Go eval package would trip over in a thread file: the check `bundle verify` runs."""
    problems = [f"no {member}" for member in ("channel", "team") if not isinstance(data.get(member), dict)]
    users, posts = (data.get(member) for member in ("users", "posts"))
    users = users if isinstance(users, dict) else {}
    posts = posts if isinstance(posts, dict) else {}
    missing = sorted({str(p.get("user_id", "")) for p in posts.values() if isinstance(p, dict)} - set(users))
    if missing:
        problems.append(f"post authors not in users: {', '.join(missing)}")
    return problems


def dump(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def render(items: Sequence[Serialised]) -> dict[str, bytes]:
    """Bundle path -> bytes for every thread fixture and the rubric map."""
    names = file_names(items)
    files: dict[str, bytes] = {}
    rubrics: dict[str, list[str]] = {}
    for item in items:
        if item.id not in names:
            continue
        files[names[item.id]] = item.thread.encode("utf-8")  # type: ignore[union-attr]
        rubrics[names[item.id].removeprefix(f"{FOLDER}/")] = list(item.rubrics)
    files[RUBRICS] = (json.dumps(rubrics, indent=2, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
    return files


def write(directory: Path, files: dict[str, bytes]) -> list[str]:
    (directory / FOLDER).mkdir(exist_ok=True)
    for name, data in files.items():
        (directory / name).write_bytes(data)
    return sorted(files)


def _slug(text: str) -> str:
    return _UNSAFE.sub("-", text.lower()).strip("-")
