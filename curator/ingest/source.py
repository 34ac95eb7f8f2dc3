"""What every reader hands to the importer: parsed content plus what it noticed."""

from __future__ import annotations

import hashlib
import os
import stat
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


@dataclass(frozen=True)
class StreamedSource:
    """A source read from its file as it is used, never whole (a bulk export bigger than
    memory): its path, sha256 (hashed in one pass over the file) and first bytes."""

    path: Path
    sha256: str
    head: bytes

    @property
    def name(self) -> str:
        return self.path.name


HEAD_BYTES = 4096


def stream_source(path: Path) -> StreamedSource:
    """A source to read as it goes; a missing or unreadable file, or one that is no regular
    file (a device, a FIFO), is bad input, as for `read_source`."""
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; no effect on regular files.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise CuratorError(f"{path}: no such file") from None
    except OSError as error:
        raise CuratorError(f"{path}: cannot read: {error.strerror}") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise CuratorError(f"{path}: not a regular file (a device, FIFO or socket)")
        try:
            head = handle.read(HEAD_BYTES)
            handle.seek(0)
            digest = hashlib.file_digest(handle, "sha256")
        except OSError as error:
            raise CuratorError(f"{path}: cannot read: {error.strerror}") from None
    return StreamedSource(path, digest.hexdigest(), head)


def read_source(
    path: Path, max_bytes: int = DEFAULT.file_bytes, setting: str = "max_file_mb"
) -> RawSource:
    """The raw bytes of a source; a missing, unreadable, oversized (checked before reading)
    or empty file, or one that is no regular file (a device, a FIFO), is bad input."""
    data = read_limited(path, max_bytes, setting)
    if not data.strip():
        raise CuratorError(f"{path}: empty file")
    return RawSource(path, data)
