"""One private temporary folder per command, removed on every way out.

Tesseract's page images (pytesseract's tess_*), pdf renderings and every helper that uses
`tempfile` write into it: a folder of mode 0700 under $TMPDIR named curator-private-*, which the
command holds an flock on while it lives. `tempfile.tempdir` and $TMPDIR point into it, so
OCR workers (forked) and the programs they start write there too. It is removed when the
command ends, by success, error, Ctrl-C, SIGTERM or SIGHUP (see curator.cli.main); after a
SIGKILL the kernel drops the flock, and `remove_dead` (run by the next command that takes a
store lock) removes the folder. The flock, not a process id, tells a live folder from a dead
one: a pid can be reused, a lock dies with its process.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# Distinct: other curator-* folders (a test's, a library user's) are never taken for ours.
PREFIX = "curator-private-"
MAKING = "curator-private-making-"  # a folder not locked yet (see _locked_folder)
MAKE_ATTEMPTS = 5


@contextmanager
def private_folder() -> Iterator[Path]:
    """A private temporary folder for the rest of this command; every temporary file goes there."""
    folder, fd = _locked_folder(Path(tempfile.gettempdir()))
    before = (tempfile.tempdir, os.environ.get("TMPDIR"))
    tempfile.tempdir = str(folder)
    os.environ["TMPDIR"] = str(folder)
    try:
        yield folder
    finally:
        tempfile.tempdir = before[0]
        if before[1] is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = before[1]
        shutil.rmtree(folder, ignore_errors=True)
        os.close(fd)


def _locked_folder(parent: Path) -> tuple[Path, int]:
    """A new folder of mode 0700 under `parent`, with this process's flock on it.

    Made under a MAKING name, locked, then renamed to its PREFIX name: another command's
    `remove_dead` may look at the folder between mkdtemp and the flock, find it unheld and
    remove it (seen when the test suite's commands ran side by side). Under its PREFIX name
    it is always held; removed before the rename, it is made again."""
    for _ in range(MAKE_ATTEMPTS):
        making = Path(tempfile.mkdtemp(prefix=MAKING, dir=parent))
        try:
            fd = os.open(making, os.O_RDONLY | os.O_DIRECTORY)
        except FileNotFoundError:
            continue
        fcntl.flock(fd, fcntl.LOCK_EX)
        folder = making.with_name(PREFIX + making.name[len(MAKING) :])
        try:
            os.rename(making, folder)
        except FileNotFoundError:
            os.close(fd)
            continue
        return folder, fd
    raise OSError(f"{parent}: every private folder made was removed before it could be locked")


def remove_dead(parent: Path | None = None) -> list[Path]:
    """Remove the private folders of commands that died (their flock is gone) under `parent`
    ($TMPDIR's folder, outside any private folder, by default); the ones it could not remove."""
    parent = parent or _outer_tempdir()
    try:
        candidates = [p for p in parent.iterdir() if p.name.startswith((PREFIX, MAKING))]
    except OSError:
        return []
    left = []
    for folder in candidates:
        if is_held(folder):
            continue
        shutil.rmtree(folder, ignore_errors=True)
        if os.path.lexists(folder):
            left.append(folder)
    return left


def is_held(path: Path) -> bool:
    """True when a live process holds an flock on `path` (a folder or a file): still in use."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False  # gone, a link, or unreadable: not one of ours in use
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing drops the lock taken
    return False


def _outer_tempdir() -> Path:
    """The temporary folder this command's private one was made in (or would be)."""
    here = Path(tempfile.gettempdir())
    return here.parent if here.name.startswith(PREFIX) else here
