"""The thread file Mattermost's Go eval package loads: its shape, its name, what it needs.

A file holds the eval package's ThreadExport layout (`posts`, `channel`, `team`, `users`,
`file_infos`, `files`; unknown members kept) and is what its `LoadThreadFromJSON` reads.
Its `String()` dereferences the team, the channel and every post's author, so a file
always has them: an export that lacked one (chat logs have no team; a deleted user has no
record) gets a stand-in built from what the thread itself holds. A Go suite names its
files in code (`filename: "developers_webapp.json"`), so a thread keeps its source file's
name as it came, plus the mutation kinds of a variant (`developers_webapp.truncate.json`);
where that name held a name the vault replaces, the import (or `vault add`) stored it
through the vault and the build says so. A name unsafe as a path, and every name of a
fixture imported before the import recorded this (`Provenance.source_name_anonymised`
unset), is slugged as it always was (`lease-question.json`), so an existing store's
bundles keep their names.

Pure functions of one fixture, kept apart from the bundle format (formats/mattermost.py)
so that serialising a fixture needs no format module.
"""

from __future__ import annotations

import json
import re
from pathlib import PurePath
from typing import Any

from curator.model import Fixture, ThreadContent

_UNSAFE = re.compile(r"[^a-z0-9_-]+")
# a file name on every system: no separator, no leading dot, no "..", no control character
_KEPT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_ +-]*(?:\.[A-Za-z0-9_ +-]+)*", re.ASCII)
_LONGEST = 120


def base_name(fixture: Fixture) -> str:
    """The file name a fixture's thread gets unless another fixture of the bundle shares it."""
    source = PurePath(fixture.provenance.source_name).stem
    kept = fixture.provenance.source_name_anonymised is not None
    if kept and _KEPT.fullmatch(source) and len(source) <= _LONGEST:
        stem = source
    else:
        stem = _slug(source) or "thread"
    # Names come from fixture.json, which anyone can edit: slugged like the stem, so no
    # "/" or ".." ever reaches a path.
    mutations = (
        [_slug(step.name) or "mutation" for step in fixture.lineage.mutations]
        if fixture.lineage
        else []
    )
    return ".".join([stem, "+".join(mutations)] if mutations else [stem]) + ".json"


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
        channel_ids = [
            post.channel_id for post in content.export.ordered_posts() if post.channel_id
        ]
        data["channel"] = {
            "id": channel_ids[0] if channel_ids else "",
            "name": _slug(label),
            "display_name": label,
            "type": "O",
        }
    if not data.get("team"):
        data["team"] = {"id": "", "name": _slug(label), "display_name": label}
    return data


def go_problems(data: dict[str, Any]) -> list[str]:
    """What the Go eval package would trip over in a thread file: the check `bundle verify` runs."""
    problems = [
        f"no {member}" for member in ("channel", "team") if not isinstance(data.get(member), dict)
    ]
    users, posts = (data.get(member) for member in ("users", "posts"))
    users = users if isinstance(users, dict) else {}
    posts = posts if isinstance(posts, dict) else {}
    missing = sorted(
        {str(p.get("user_id", "")) for p in posts.values() if isinstance(p, dict)} - set(users)
    )
    if missing:
        problems.append(f"post authors not in users: {', '.join(missing)}")
    return problems


def dump(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _slug(text: str) -> str:
    return _UNSAFE.sub("-", text.lower()).strip("-")
