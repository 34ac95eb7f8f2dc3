"""Big Mattermost bulk exports, generated: as many posts as a test or a benchmark wants.

The records are those of tests/ingest/workspace_exports.py (Mattermost's import_types.go:
a `version` line, then teams, channels, users and `post` lines with their replies nested),
written a line at a time so that a million posts never sit in memory. The people are
synthetic (made of the word lists below, no real person), a fixed number of them however
many posts there are, as in a real workspace: its people stay while its posts pile up.
Each thread is one `post` line with 0 to 9 replies; some messages name another member.
"""

from __future__ import annotations

import json
import random
import zipfile
from collections.abc import Iterator
from pathlib import Path

FIRST = ["Ardent", "Bexley", "Corwin", "Dashiell", "Elowen", "Fenwick", "Galen", "Hollis"]
LAST = ["Quillfeather", "Ravensworth", "Stonebridge", "Thornbury", "Underhill", "Vantablack"]
TEAM = "dockside"
CHANNELS = 12
T0 = 1_704_103_200_000  # 2024-01-01 10:00 UTC
MINUTE = 60_000
WORDS = (
    "berth crane manifest pallet tide schedule pilot barge ferry cargo quay forklift shift "
    "invoice container customs harbour gate truck delay weather crew dock tug"
).split()


def people() -> list[tuple[str, str, str]]:
    """(username, first name, last name) of every member: 48, whatever the export's size."""
    return [(f"{first.lower()}.{last.lower()}", first, last) for last in LAST for first in FIRST]


def bulk_records(posts: int, seed: int = 29) -> Iterator[dict]:
    """The lines of an export of `posts` posts (roots and replies), in mmctl's order."""
    rng = random.Random(seed)
    members = people()
    yield {"type": "version", "version": 1, "info": {"generator": "mattermost-server"}}
    yield {"type": "team", "team": {"name": TEAM, "display_name": "Dockside", "type": "O"}}
    for number in range(CHANNELS):
        yield {
            "type": "channel",
            "channel": {
                "team": TEAM,
                "name": f"quay-{number}",
                "display_name": f"Quay {number}",
                "type": "O",
            },
        }
    for username, first, last in members:
        yield {
            "type": "user",
            "user": {
                "username": username,
                "email": f"{username}@dockside.example",
                "first_name": first,
                "last_name": last,
                "nickname": first,
                "roles": "system_user",
            },
        }
    written = 0
    thread = 0
    while written < posts:
        replies = min(rng.randrange(10), posts - written - 1)
        at = T0 + thread * 10 * MINUTE
        root = _post(rng, members, at)
        root.update(team=TEAM, channel=f"quay-{rng.randrange(CHANNELS)}")
        root["replies"] = [_post(rng, members, at + (i + 1) * MINUTE) for i in range(replies)]
        yield {"type": "post", "post": root}
        written += 1 + replies
        thread += 1


def _post(rng: random.Random, members: list[tuple[str, str, str]], at: int) -> dict:
    username = rng.choice(members)[0]
    words = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(6, 18)))
    message = f"The {words}."
    if rng.random() < 0.3:
        _, first, last = rng.choice(members)
        message += f" Ask {first} {last} about it."
    return {"user": username, "message": message, "create_at": at}


def write_bulk_jsonl(path: Path, posts: int, *, bad_line: int | None = None) -> Path:
    """An import.jsonl of `posts` posts; line `bad_line` (1-based) cut short: not JSON."""
    with path.open("w", encoding="utf-8") as out:
        for number, record in enumerate(bulk_records(posts), start=1):
            line = json.dumps(record, ensure_ascii=False)
            out.write((line[: len(line) // 2] if number == bad_line else line) + "\n")
    return path


def write_bulk_zip(path: Path, posts: int) -> Path:
    """The export as mmctl writes it: a zip holding import.jsonl."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("import.jsonl", "w", force_zip64=True) as member:
            for record in bulk_records(posts):
                member.write((json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8"))
    return path
