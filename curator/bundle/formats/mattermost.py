"""mattermost/<name>.json thread files that Mattermost's Go eval package loads, plus rubrics.json.

Each file is a fixture's thread file (`curator.bundle.thread_file`) under the name that
file gives it, the source file's; fixtures of one bundle that would share a name, also in
another case (threads split from one channel export), each add the 8 hex digits of their
id. rubrics.json maps file name -> rubric statements, as a Go suite's table lists them; a
thread with named tasks maps to task -> its rubric statements instead, so a suite running
one prompt picks that task's.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from curator.bundle.serialise import Serialised

FOLDER = "mattermost"
RUBRICS = f"{FOLDER}/rubrics.json"
# rubrics.json: thread file -> its rubric statements, or task -> its rubric statements
RubricMap = dict[str, list[str] | dict[str, list[str]]]


def file_names(items: Sequence[Serialised]) -> dict[str, str]:
    """Fixture id -> bundle path of its thread file, for every thread fixture of a bundle."""
    threads = [item for item in items if item.thread is not None]
    # a checkout on a case-insensitive file system must not merge two files into one
    taken = Counter((item.thread_name or "").lower() for item in threads)
    names = {}
    for item in threads:
        name = item.thread_name or f"{item.id}.json"
        if taken[name.lower()] > 1:
            name = f"{name.removesuffix('.json')}.{item.id[-8:]}.json"
        names[item.id] = f"{FOLDER}/{name}"
    return names


def renamed(items: Sequence[Serialised]) -> list[str]:
    """What the build says of each thread file named after an anonymised source name."""
    names = file_names(items)
    return [
        f"{names[item.id]}: named through the vault (the source's file name holds a name it "
        "replaces); a Go suite's table must name this file, or `curator vault forget` the word "
        "if it names no one"
        for item in items
        if item.id in names and item.thread_renamed
    ]


def render(items: Sequence[Serialised]) -> dict[str, bytes]:
    """Bundle path -> bytes for every thread fixture and the rubric map."""
    names = file_names(items)
    files: dict[str, bytes] = {}
    rubrics: RubricMap = {}
    for item in items:
        if item.id not in names:
            continue
        files[names[item.id]] = item.thread.encode("utf-8")  # type: ignore[union-attr]
        rubrics[names[item.id].removeprefix(f"{FOLDER}/")] = item.tasks or list(item.rubrics)
    files[RUBRICS] = (
        json.dumps(rubrics, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
    ).encode("utf-8")
    return files


def write(directory: Path, files: dict[str, bytes]) -> list[str]:
    (directory / FOLDER).mkdir(exist_ok=True)
    for name, data in files.items():
        (directory / name).write_bytes(data)
    return sorted(files)
