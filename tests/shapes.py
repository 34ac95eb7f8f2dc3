"""Hostile variants of a JSON document, for readers that must refuse bad shapes cleanly."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

OTHER_SHAPES: tuple[Any, ...] = ([], 7, "x", None, {"a": 1})


def mangled(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """Every variant of `value` with one member (at any depth) replaced by a value of
    another shape, with the path to that member."""
    if isinstance(value, dict):
        for key, item in value.items():
            for swapped in OTHER_SHAPES:
                if type(swapped) is not type(item):
                    yield (*path, key), {**value, key: swapped}
            for where, inner in mangled(item, (*path, key)):
                yield where, {**value, key: inner}
    elif isinstance(value, list):
        for i, item in enumerate(value):
            for where, inner in mangled(item, (*path, i)):
                yield where, [*value[:i], inner, *value[i + 1 :]]
