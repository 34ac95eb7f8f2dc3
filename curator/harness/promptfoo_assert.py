"""The python assertion promptfoo runs for each field: curator's verdict on that field.

promptfoo calls `get_assert(output, context)`; the test's metadata (curator's export)
says the field's type and accepted answers, the assertion's `config.field` which field.
An assertion without a field is the one a fixture without ground truth gets: it fails.
"""

from __future__ import annotations

from typing import Any

from curator.harness.verdicts import score_answer


def get_assert(output: str, context: dict[str, Any]) -> dict[str, Any]:
    metadata = context.get("test", {}).get("metadata") or {}
    name = (context.get("config") or {}).get("field")
    if not name or "fixture_id" not in metadata:
        return {"pass": False, "score": 0.0, "reason": "curator: this fixture has no ground truth"}
    items = score_answer(metadata, output, str(context.get("vars", {}).get("input", "")))
    item = next((i for i in items if i.kind == "field" and i.name == name), None)
    if item is None:
        return {"pass": False, "score": 0.0, "reason": f"curator: no answerable field {name!r}"}
    expected = "absent" if item.expected_absent else repr(item.expected)
    return {
        "pass": item.right,
        "score": 1.0 if item.right else 0.0,
        "reason": f"{name}: {item.outcome} (expected {expected}, got {item.predicted!r}"
        + (f"; {', '.join(item.classes)})" if item.classes else ")"),
    }
