"""mattermost/<id>.json thread files, exactly as a Mattermost ThreadExport, plus rubrics.json.

The Go eval suite loads a thread file and judges its output against that file's rubrics,
so rubrics.json maps file name -> rubric statements.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from curator.bundle.serialise import Serialised

FOLDER = "mattermost"
RUBRICS = f"{FOLDER}/rubrics.json"


def thread_path(fixture_id: str) -> str:
    return f"{FOLDER}/{fixture_id}.json"


def render(items: Sequence[Serialised]) -> dict[str, bytes]:
    """Bundle path -> bytes for every thread fixture and the rubric map."""
    files: dict[str, bytes] = {}
    rubrics: dict[str, list[str]] = {}
    for item in items:
        if item.thread is None:
            continue
        files[thread_path(item.id)] = item.thread.encode("utf-8")
        rubrics[f"{item.id}.json"] = list(item.rubrics)
    files[RUBRICS] = (json.dumps(rubrics, indent=2, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
    return files


def write(directory: Path, files: dict[str, bytes]) -> list[str]:
    (directory / FOLDER).mkdir(exist_ok=True)
    for name, data in files.items():
        (directory / name).write_bytes(data)
    return sorted(files)
