"""Input limits: the ones in effect, and reading a file without trusting its size.

The limits are `[limits]` in curator.toml (`curator.model.LimitSettings`); code that runs
without a store (reading a bundle archive from Python, scoring a predictions file) uses
the defaults. A limit lives in the store's config rather than in flags so that every
command on a store, and every person working on it, refuses the same inputs.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from curator.errors import CuratorError
from curator.model import MIB, LimitSettings

DEFAULT = LimitSettings()

# What the defaults buy, measured by benchmarks/memory.py and tests/hostile (docs/design/limits.md):
# refusing any input, a hostile one included, costs one process less than this
REFUSAL_MEMORY_MB = 512
# and no process reading a document (an OCR worker with its Tesseract) goes over this.
DOCUMENT_MEMORY_MB = 1024


def hint(setting: str) -> str:
    """How to raise a limit, for the end of an error line."""
    return f"raise [limits] {setting} in curator.toml to accept it"


def too_big(size: int, max_bytes: int, setting: str) -> str:
    """The end of an error line: how big, the limit, and which setting raises it."""
    return f"{_mb(size)}, over the limit of {_mb(max_bytes)} ({hint(setting)})"


def read_limited(path: Path, max_bytes: int, setting: str, *, name: str | None = None) -> bytes:
    """A regular file's bytes, refused (one line) before reading when it is something else
    (a device, a FIFO, a folder) or larger than `max_bytes`: a 1 GB sparse file costs nothing."""
    label = name or str(path)
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; no effect on regular files.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise CuratorError(f"{label}: no such file") from None
    except IsADirectoryError:
        raise CuratorError(f"{label}: is a directory") from None
    except OSError as error:
        raise CuratorError(f"{label}: cannot read: {error.strerror}") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise CuratorError(f"{label}: is a directory")
        if not stat.S_ISREG(info.st_mode):
            raise CuratorError(f"{label}: not a regular file (a device, FIFO or socket)")
        if info.st_size > max_bytes:
            raise CuratorError(f"{label}: {too_big(info.st_size, max_bytes, setting)}")
        try:
            data = handle.read(max_bytes + 1)
        except OSError as error:
            raise CuratorError(f"{label}: cannot read: {error.strerror}") from None
    if len(data) > max_bytes:  # it grew while we read it
        raise CuratorError(f"{label}: {too_big(len(data), max_bytes, setting)}")
    return data


def size_text(count: int) -> str:
    """A byte count as people read it: 812 bytes, 64 KiB, 50.0 MiB."""
    if count >= MIB:
        return f"{count / MIB:.1f} MiB"
    return f"{count / 1024:.0f} KiB" if count >= 1024 else f"{count} bytes"


def _mb(size: int) -> str:
    return f"{size / MIB:.0f} MB" if size >= MIB else f"{size} bytes"
