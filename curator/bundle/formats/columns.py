"""The typed columns the Hugging Face and parquet formats share, one row per fixture.

Everything is a typed column, nested data (pages, posts, messages, fields, lineage,
provenance, known-bad answers) as structs and lists of structs, so users filter with their tools
instead of decoding JSON. The only free-form values, mutation parameters and
measurements and a known-bad answer's field values, become name/value pairs whose value
is text (a string as it is, anything else as its JSON).

A bundle with fixtures that have named tasks gets one more column, `tasks` (TASKS_COLUMN);
other bundles keep exactly the columns they had, so their files keep their bytes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from curator.bundle.serialise import Serialised

# column -> what it holds: the dataset card's column table is made from this.
COLUMNS: dict[str, str] = {
    "id": "fixture id (a slug of the title and a content hash)",
    "kind": "`document` (pages), `thread` (Mattermost posts) or `conversation` (chat messages)",
    "doc_type": "document type from curator.toml (lease, invoice, ...); null for threads",
    "category": "category from curator.toml",
    "status": "review status when bundled (active unless other statuses were chosen)",
    "adversarial": "made by a mutation or promoted from a production failure",
    "mutation_kinds": "names of the mutations that made it, in order; empty for goldens",
    "label_rev": "the label revision bundled as its truth",
    "label_source": "who set that revision: manual, labelstudio:TASK/ANNOTATION, mutation:NAME, "
    "import-suggestion, promote",
    "pages": "document pages: number, text, origin (text-layer or ocr), OCR confidence, language",
    "posts": "thread posts in conversation order: id, time, user, root post, message",
    "messages": "conversation messages in order: role (system, user, assistant, tool), "
    "content, name, the tool call a result answers, tool calls (id, name, arguments as JSON)",
    "model": "the model that answered a conversation, when known; null otherwise",
    "fields": "expected field values: name, type, value, expected_absent, accepted variants, "
    "evidence span (page, post or message number) and text, authority, no_evidence (why a "
    "value stands without evidence), "
    "unanswerable (why no reader can recover it: the gate does not score such a field)",
    "rubrics": "rubric statements a thread's summary or a conversation's answer is judged against",
    "rubric_evidence": "each rubric statement with the ids of the posts it is judged on",
    "reference": "a reviewed answer that meets every rubric; null when there is none",
    "known_bad": "wrong answers a system really gave: failure mode, trace id, time, text, fields",
    "lineage": "for variants: the golden (parent) and its label revision, and each mutation "
    "with its seed, parameters and measurements",
    "provenance": "where the input came from: source file name and sha256, importer, import "
    "time, trace id, pseudonym vault fingerprint",
}


TASKS_COLUMN = {
    "tasks": "named tasks asked of the input (summary, action items, ...), each with its "
    "rubrics, their evidence posts, a reference answer and the fields it asks for; empty for "
    "a fixture with only its default task (then `rubrics` and `reference` are its task's)"
}


def described(columns: dict[str, list[Any]]) -> dict[str, str]:
    """column -> what it holds, for the columns these rows have."""
    return {**COLUMNS, **(TASKS_COLUMN if "tasks" in columns else {})}


def rows(items: Sequence[Serialised]) -> dict[str, list[Any]]:
    columns: dict[str, list[Any]] = {name: [] for name in [*COLUMNS, *TASKS_COLUMN]}
    for item in items:
        for name, value in _row(item).items():
            columns[name].append(value)
    if not any(columns["tasks"]):
        del columns["tasks"]
    return columns


def _row(item: Serialised) -> dict[str, Any]:
    line = json.loads(item.line)
    expected = line["expected"] or {}
    source = line["input"]
    return {
        "id": line["id"],
        "kind": line["kind"],
        "doc_type": line["doc_type"],
        "category": line["category"],
        "status": line["metadata"]["status"],
        "adversarial": line["adversarial"],
        "mutation_kinds": line["mutation_kinds"],
        "label_rev": expected.get("rev"),
        "label_source": expected.get("source"),
        "pages": _pages(source),
        "posts": _posts(source),
        "messages": _messages(source),
        "model": source.get("model") if source["kind"] == "conversation" else None,
        "fields": [_field(name, label) for name, label in expected.get("fields", {}).items()],
        "rubrics": [r["text"] for r in expected.get("rubrics", [])],
        "rubric_evidence": [
            {"rubric": r["text"], "posts": r.get("evidence_posts", [])}
            for r in expected.get("rubrics", [])
        ],
        "reference": expected.get("reference"),
        "tasks": [_task(name, task) for name, task in expected.get("tasks", {}).items()],
        "known_bad": [_known_bad(bad) for bad in line["known_bad"]],
        "lineage": _lineage(line["lineage"]),
        "provenance": _provenance(line["metadata"]["provenance"]),
    }


def _task(name: str, task: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": name,
        "rubrics": [r["text"] for r in task.get("rubrics", [])],
        "rubric_evidence": [
            {"rubric": r["text"], "posts": r.get("evidence_posts", [])}
            for r in task.get("rubrics", [])
        ],
        "reference": task.get("reference"),
        "fields": task.get("fields", []),
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


def _messages(source: dict[str, Any]) -> list[dict[str, Any]]:
    if source["kind"] != "conversation":
        return []
    return [
        {
            "role": message["role"],
            "content": message.get("content"),
            "name": message.get("name"),
            "tool_call_id": message.get("tool_call_id"),
            "tool_calls": [
                {
                    "id": call.get("id", ""),
                    "name": call.get("function", {}).get("name", ""),
                    "arguments": _as_text(call.get("function", {}).get("arguments")),
                }
                for call in message.get("tool_calls") or []
            ],
        }
        for message in source["messages"]
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
        "evidence_message": evidence.get("message"),
        "evidence_start": evidence.get("start"),
        "evidence_end": evidence.get("end"),
        "evidence_text": label.get("evidence_text"),
        "authority": label.get("authority"),
        "no_evidence": label.get("no_evidence"),
        "unanswerable": label.get("unanswerable"),
    }


def _known_bad(bad: dict[str, Any]) -> dict[str, Any]:
    return {
        "failure_mode": bad["failure_mode"],
        "trace_id": bad.get("trace_id"),
        "observed_at": bad.get("observed_at"),
        "text": bad.get("text"),
        "fields": _pairs(bad.get("fields", {})),
    }


def _lineage(lineage: dict[str, Any] | None) -> dict[str, Any] | None:
    if lineage is None:
        return None
    return {
        "parent": lineage["parent"],
        "parent_label_rev": lineage["parent_label_rev"],
        "mutations": [
            {
                "name": step["name"],
                "seed": step["seed"],
                "params": _pairs(step.get("params", {})),
                "measured": _pairs(step.get("measured", {})),
            }
            for step in lineage["mutations"]
        ],
    }


def _provenance(provenance: dict[str, Any]) -> dict[str, Any]:
    keys = ("source_sha256", "source_name", "importer", "imported_at", "trace_id", "vault_id")
    return {key: provenance.get(key) for key in keys}


def _pairs(values: dict[str, Any]) -> list[dict[str, str | None]]:
    """A free-form mapping as sorted name/value pairs; a value is text, null stays null."""
    return [{"name": name, "value": _as_text(value)} for name, value in sorted(values.items())]


def _as_text(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)
