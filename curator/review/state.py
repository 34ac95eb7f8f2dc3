"""Local review state under .curator/ (never committed): which project and task holds
each fixture on which server. Label Studio itself stays the authority (task data carries
the fixture id), so a lost state file costs a listing, never a duplicate task."""

from __future__ import annotations

import json
from typing import Any

from curator import atomic

STATE_FILE = "review.json"


def load(store: Any, url: str) -> dict[str, Any]:
    path = store.local_path(STATE_FILE)
    try:
        everything = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        everything = {}
    server = everything.get("servers", {}).get(url, {})
    return {"projects": dict(server.get("projects", {})), "tasks": dict(server.get("tasks", {}))}


def save(store: Any, url: str, state: dict[str, Any]) -> None:
    path = store.local_path(STATE_FILE)
    try:
        everything = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        everything = {}
    everything.setdefault("servers", {})[url] = state
    atomic.write_text(path, json.dumps(everything, indent=2, sort_keys=True) + "\n")
