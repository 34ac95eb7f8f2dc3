"""The flat, typed columns the Hugging Face and parquet formats share, one row per fixture.

Nested data users filter on (pages, posts, fields, rubrics) stay as typed lists of
structs; free-form parts (lineage, known-bad field values) go in as JSON strings.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from curator.bundle.serialise import Serialised

COLUMNS = (
    "id", "kind", "doc_type", "category", "status", "adversarial", "mutation_kinds",
    "label_rev", "pages", "posts", "fields", "rubrics", "known_bad", "parent", "lineage_json",
)


def rows(items: Sequence[Serialised]) -> dict[str, list[Any]]:
    columns: dict[str, list[Any]] = {name: [] for name in COLUMNS}
    for item in items:
        for name, value in _row(item).items():
            columns[name].append(value)
    return columns


def _row(item: Serialised) -> dict[str, Any]:
    line = json.loads(item.line)
    expected = line["expected"] or {}
    source = line["input"]
    lineage = line["lineage"]
    return {
        "id": line["id"],
        "kind": line["kind"],
        "doc_type": line["doc_type"],
        "category": line["category"],
        "status": line["metadata"]["status"],
        "adversarial": line["adversarial"],
        "mutation_kinds": line["mutation_kinds"],
        "label_rev": expected.get("rev"),
        "pages": _pages(source),
        "posts": _posts(source),
        "fields": [_field(name, label) for name, label in expected.get("fields", {}).items()],
        "rubrics": [r["text"] for r in expected.get("rubrics", [])],
        "known_bad": [
            {
                "failure_mode": bad["failure_mode"],
                "trace_id": bad.get("trace_id"),
                "text": bad.get("text"),
                "fields_json": json.dumps(bad.get("fields", {}), ensure_ascii=False, sort_keys=True),
            }
            for bad in line["known_bad"]
        ],
        "parent": lineage["parent"] if lineage else None,
        "lineage_json": json.dumps(lineage, ensure_ascii=False, sort_keys=True) if lineage else None,
    }


def _pages(source: dict[str, Any]) -> list[dict[str, Any]]:
    if source["kind"] != "document":
        return []
    return [
        {
            "number": page["number"],
            "text": page["text"],
            "origin": page["origin"],
            "ocr_confidence": page.get("ocr_confidence"),
            "language": page.get("language"),
        }
        for page in source["pages"]
    ]


def _posts(source: dict[str, Any]) -> list[dict[str, Any]]:
    if source["kind"] != "thread":
        return []
    export = source["export"]
    users = export.get("users", {})
    posts = sorted(export["posts"].values(), key=lambda p: (p.get("create_at", 0), p["id"]))
    return [
        {
            "id": post["id"],
            "create_at": post.get("create_at", 0),
            "user_id": post.get("user_id", ""),
            "username": users.get(post.get("user_id", ""), {}).get("username", ""),
            "root_id": post.get("root_id", ""),
            "message": post.get("message", ""),
        }
        for post in posts
    ]


def _field(name: str, label: dict[str, Any]) -> dict[str, Any]:
    evidence = label.get("evidence") or {}
    return {
        "name": name,
        "type": label["type"],
        "value": label.get("value"),
        "expected_absent": label.get("expected_absent", False),
        "variants": label.get("variants", []),
        "evidence_page": evidence.get("page"),
        "evidence_post": evidence.get("post"),
        "evidence_start": evidence.get("start"),
        "evidence_end": evidence.get("end"),
        "evidence_text": label.get("evidence_text"),
        "authority": label.get("authority"),
    }
