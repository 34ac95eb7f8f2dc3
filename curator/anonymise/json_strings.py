"""Every text in a JSON value, with where it is: what the anonymiser reserves names from, and
what the audit and the bundle leak gate judge. structure.py says what is text.

Base64 attachments (a thread's `files`) are read as text too, in whatever base64 variant
and text encoding they came (attachments.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from curator.anonymise.attachments import decoded_text, read_attachment
from curator.anonymise.structure import LIST, Part, json_held, key_part, plain_text, value_part


def _never(_: str) -> bool:
    return False


def texts_of(
    data: Any, location: str, *, ours: Callable[[str], bool] = _never
) -> Iterator[tuple[str, str]]:
    """Every text (and text-bearing dict key) in a JSON value, with a path-like location.

    `ours(value)`: whether an id is one the vault handed out (then it is not judged)."""
    yield from _texts(data, location, None, ours)


def _texts(
    data: Any, location: str, container: str | None, ours: Callable[[str], bool]
) -> Iterator[tuple[str, str]]:
    if isinstance(data, dict):
        for key, value in data.items():
            part = key_part(container, key)
            if part is Part.TEXT or (part is Part.ID and not ours(key)):
                yield f"{location}#key", key
            yield from _member(container, key, value, data, f"{location}.{key}", ours)
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _texts(value, f"{location}[{i}]", LIST, ours)
    elif isinstance(data, str):
        inner = json_held(data)
        if inner is None:
            yield location, data
        else:
            yield from _texts(inner, location, container, ours)


def _member(
    container: str | None,
    key: str,
    value: Any,
    record: dict[str, Any],
    where: str,
    ours: Callable[[str], bool],
) -> Iterator[tuple[str, str]]:
    part = value_part(container, key, record)
    if part is Part.STRUCTURE:
        return
    if part is Part.ID and isinstance(value, str | list):
        ids = [value] if isinstance(value, str) else value
        for i, item in enumerate(ids):
            place = where if isinstance(value, str) else f"{where}[{i}]"
            if not isinstance(item, str):
                yield from _texts(item, place, LIST, ours)
            elif not ours(item):
                yield place, item
    elif plain_text(container, key) and isinstance(value, str):
        yield where, value  # plain text even when it looks like JSON, as the rewriter reads it
    elif key == "files" and isinstance(value, dict):
        # a thread's attachments are base64: their text is what is read
        for file_id, payload in value.items():
            if key_part(key, file_id) is Part.ID and not ours(file_id):
                yield f"{where}#key", file_id
            text = decoded_text(payload)
            if text is not None:
                yield from _texts(text, f"{where}.{file_id}(decoded)", None, ours)
    else:
        yield from _texts(value, where, key, ours)


def undecodable_attachments(data: Any, location: str) -> Iterator[str]:
    """Where a thread's `files` hold bytes that are no text: nothing can show they name nobody."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "files" and isinstance(value, dict):
                yield from (
                    f"{location}.files.{file_id}"
                    for file_id, payload in value.items()
                    if isinstance(payload, str) and read_attachment(payload) is None
                )
            elif isinstance(value, dict | list):
                yield from undecodable_attachments(value, f"{location}.{key}")
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from undecodable_attachments(value, f"{location}[{i}]")
