"""Every string in a JSON value, with where it is: what the anonymiser reserves names from,
and what the audit and the bundle leak gate judge.

Base64 attachments (a thread's `files`) are read as text too, in whatever base64 variant
and text encoding they came (attachments.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from curator.anonymise.attachments import decoded_text, read_attachment

# Members that hold machine values, never personal data: no need to scan them.
SKIP_KEYS = frozenset(
    {
        "source_sha256",
        "sha256",
        "schema_version",
        "created_at",
        "imported_at",
        "time",
        "observed_at",
        "create_at",
        "update_at",
        "edit_at",
        "delete_at",
    }
)


def strings_of(data: Any, location: str) -> Iterator[tuple[str, str]]:
    """Every string (and string dict key) in a JSON value, with a path-like location."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in SKIP_KEYS:
                continue
            if isinstance(key, str):
                yield f"{location}#key", key
            yield from strings_of(value, f"{location}.{key}")
            if key == "files" and isinstance(value, dict):
                # a thread's attachments are base64: their text is read as well
                for file_id, payload in value.items():
                    text = decoded_text(payload)
                    if text is not None:
                        yield f"{location}.files.{file_id}(decoded)", text
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from strings_of(value, f"{location}[{i}]")
    elif isinstance(data, str):
        yield location, data


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
