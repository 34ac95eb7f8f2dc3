"""What every reader hands to the importer: parsed content plus what it noticed."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from curator.errors import CuratorError
from curator.model import Content


@dataclass
class Parsed:
    """One fixture-to-be: content as read from the source, before anonymisation."""

    content: Content
    importer: str
    # Distinguishes the fixtures one source yields (a thread's root id with --split-threads).
    part: str = ""
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class RawSource:
    """A source file read whole: its bytes, base name and sha256 (the idempotence key)."""

    path: Path
    data: bytes

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


def read_source(path: Path) -> RawSource:
    """The raw bytes of a source; a missing, unreadable or empty file is bad input."""
    if not path.exists():
        raise CuratorError(f"{path}: no such file")
    if path.is_dir():
        raise CuratorError(f"{path}: is a directory")
    try:
        data = path.read_bytes()
    except OSError as error:
        raise CuratorError(f"{path}: cannot read: {error.strerror}") from None
    if not data.strip():
        raise CuratorError(f"{path}: empty file")
    return RawSource(path, data)
