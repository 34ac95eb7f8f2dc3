"""Crash-safe writes: a reader sees the old bytes or the new ones, never a mix.

Write to a temporary file in the same folder, fsync, rename over the target, fsync the
folder. A directory is built under a temporary name and renamed into place whole.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path


def write_bytes(path: Path, data: bytes, *, mode: int | None = None) -> None:
    write_chunks(path, [data], mode=mode)


def write_chunks(path: Path, chunks: Iterable[bytes], *, mode: int | None = None) -> None:
    """`write_bytes` of the chunks joined, written as they come (a file of any size)."""
    made = make_folders(path.parent)
    try:
        fd, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except BaseException:
        remove_folders(made)
        raise
    # Held until the file is renamed or removed: a .tmp file nobody holds was left by a
    # killed command, and the next one that takes the store lock removes it.
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        with os.fdopen(fd, "wb") as handle:
            for chunk in chunks:
                handle.write(chunk)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temp_name, mode)
        os.replace(temp_name, path)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        remove_folders(made)  # a failed write (a full disk) leaves no folder behind either
        raise
    fsync_dir(path.parent)


def make_folders(folder: Path) -> list[Path]:
    """Make `folder` and its missing parents; the ones made, innermost first."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for made in reversed(missing):
        made.mkdir(exist_ok=True)
    return missing


def remove_folders(folders: list[Path]) -> None:
    """Remove folders `make_folders` made, innermost first, where still empty."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            return


def write_text(path: Path, text: str, *, mode: int | None = None) -> None:
    write_bytes(path, text.encode("utf-8"), mode=mode)


def publish_dir(staged: Path, final: Path) -> None:
    """Move a fully written directory into place; fails if `final` exists."""
    final.parent.mkdir(parents=True, exist_ok=True)
    for directory, _, files in os.walk(staged):
        for name in files:
            with open(Path(directory) / name, "rb") as handle:
                os.fsync(handle.fileno())
    if final.exists():
        raise FileExistsError(final)
    os.rename(staged, final)
    fsync_dir(final.parent)


def staging_dir(parent: Path, prefix: str) -> Path:
    parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=prefix, dir=parent))


def remove_tree(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
