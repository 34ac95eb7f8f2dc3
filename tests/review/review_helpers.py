"""Small helpers shared by the review tests (the server itself is in conftest.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from curator.store import Store


def project_id(admin: Any, store: Store, key: str) -> int:
    from curator.review.push import project_title

    title = project_title(store, key)
    found = [p for p in admin.projects.list(title=title) if p.title == title]
    assert len(found) == 1, f"expected one project {title!r}, found {len(found)}"
    return found[0].id


def tasks_by_fixture(admin: Any, project: int) -> dict[str, Any]:
    tasks = list(admin.tasks.list(project=project, fields="all"))
    by_fixture: dict[str, Any] = {}
    for task in tasks:
        fixture_id = task.data["fixture_id"]
        assert fixture_id not in by_fixture, f"two tasks for {fixture_id}"
        by_fixture[fixture_id] = task
    return by_fixture


def prediction_result(admin: Any, task_id: int) -> list[dict[str, Any]]:
    predictions = admin.predictions.list(task=task_id)
    assert len(predictions) == 1, f"task {task_id} has {len(predictions)} predictions"
    return json.loads(json.dumps(predictions[0].result))


def edited(result: list[dict[str, Any]], **values: str) -> list[dict[str, Any]]:
    """A labeller's answer: the pre-annotation with some text boxes rewritten."""
    out = json.loads(json.dumps(result))
    for region in out:
        field = region["from_name"].removeprefix("value_")
        if region["from_name"].startswith("value_") and field in values:
            region["value"]["text"] = [values[field]]
    return out


def labelstudio_sources(store: Store, fixture_id: str) -> list[str]:
    return [
        r.source for r in store.load(fixture_id).revisions if r.source.startswith("labelstudio:")
    ]


def files_containing(root: Path, secret: str) -> list[str]:
    return [str(p) for p in root.rglob("*") if p.is_file() and secret.encode() in p.read_bytes()]
