"""Synthetic Mattermost thread exports written to disk, as the Agents plugin's eval suites
keep them: the ThreadExport layout (`posts`) and the older one (`thread`, a list of posts).

Ids have Mattermost's shape (26 characters of its alphabet), so the import pseudonymises
them like a real export's; the people are fictional.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from curator.ingest.chat_ids import mattermost_id

PEOPLE = ("ingrid.solberg", "tomas.varga", "mei.tanaka")
MESSAGES = (
    "The webapp build fails on the coverage step since this morning.",
    "@ingrid.solberg I saw it too, the report upload times out.",
    "Raised the upload timeout to five minutes, @tomas.varga can you rerun it?",
    "Rerun is green, thanks @mei.tanaka.",
)
SECOND_THREAD = (  # a channel export holds more than one thread
    "Webguild on Monday: I will show the accessible autocomplete.",
    "Count me in, @mei.tanaka.",
)


@dataclass(frozen=True)
class Written:
    path: Path
    post_ids: list[str]  # the source's ids, in posting order
    usernames: tuple[str, ...]


def write_thread_export(path: Path, *, legacy: bool = False, channel: bool = False) -> Written:
    """A root post and its replies by PEOPLE at `path`; `legacy` writes the older layout,
    `channel` a second thread after the first, as a channel export has."""
    seed = path.name
    user_ids = {name: mattermost_id(seed, "user", name) for name in PEOPLE}
    channel_id = mattermost_id(seed, "channel")
    threads = [MESSAGES, SECOND_THREAD] if channel else [MESSAGES]
    posts: list[dict] = []
    for number, messages in enumerate(threads):
        root = mattermost_id(seed, "post", str(len(posts)))
        for i, message in enumerate(messages):
            posts.append(
                {
                    "id": mattermost_id(seed, "post", str(len(posts))),
                    "create_at": 1_748_000_000_000 + len(posts) * 60_000,
                    "user_id": user_ids[PEOPLE[(i + number) % len(PEOPLE)]],
                    "channel_id": channel_id,
                    "root_id": "" if i == 0 else root,
                    "message": message,
                }
            )
    post_ids = [post["id"] for post in posts]
    data = {
        ("thread" if legacy else "posts"): posts if legacy else {p["id"]: p for p in posts},
        "channel": {"id": channel_id, "name": "webapp", "display_name": "Developers: Webapp"},
        "team": {"id": mattermost_id(seed, "team"), "name": "core", "display_name": "Core"},
        "users": {uid: {"id": uid, "username": name} for name, uid in user_ids.items()},
    }
    path.write_text(json.dumps(data, indent=2))
    return Written(path, post_ids, PEOPLE)
