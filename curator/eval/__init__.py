"""Running a system over a bundle: `curator eval run` and the pytest plugin.

A system is a function of one `EvalItem` (a document's pages and text, or a thread in the
Mattermost ThreadExport form, with its doc type and field definitions) that returns an
`Answer` (or a mapping of fields, or a text). The runner calls it per fixture per
repetition, judges the rubrics, writes `predictions.jsonl` for `curator gate` and
`evals.jsonl` in Mattermost's eval log format.

Names are imported on first use: pytest loads the plugin module of this package in every
session, and a session that runs no eval should not pay for pydantic models.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Answer": "curator.eval.answer",
    "EvalItem": "curator.eval.items",
    "load_items": "curator.eval.items",
    "assert_fields": "curator.eval.asserts",
    "assert_rubric": "curator.eval.asserts",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'curator.eval' has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name]), name)
