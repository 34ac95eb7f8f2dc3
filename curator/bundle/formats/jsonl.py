"""fixtures.jsonl: one line per fixture, the bundle's source of truth."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from curator.bundle.reader import FIXTURES
from curator.bundle.serialise import Serialised


def render(items: Sequence[Serialised]) -> bytes:
    return "".join(item.line + "\n" for item in items).encode("utf-8")


def write(directory: Path, data: bytes) -> list[str]:
    (directory / FIXTURES).write_bytes(data)
    return [FIXTURES]
