"""What every reader hands to the importer: parsed content plus what it noticed."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from curator.errors import CuratorError
from curator.limits import DEFAULT, read_limited
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


def read_source(
    path: Path, max_bytes: int = DEFAULT.file_bytes, setting: str = "max_file_mb"
) -> RawSource:
    """The raw bytes of a source; a missing, unreadable, oversized (checked before reading)
    or empty file, or one that is no regular file (a device, a FIFO), is bad input."""
    data = read_limited(path, max_bytes, setting)
    if not data.strip():
        raise CuratorError(f"{path}: empty file")
    return RawSource(path, data)
