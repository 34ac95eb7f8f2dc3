"""All of a commit's files land, or none do: a staged transaction with a redo journal.

A commit writes every new file into one staging folder (.curator/staging/txn.*), fsyncs
them, then writes the journal: the list of renames that put them in place. Writing the
journal (itself an atomic rename) is the commit point. The renames follow; then the journal
and the folder go. A command killed before the journal exists left a staging folder without
one: the next command that takes the store lock removes it (nothing happened). Killed after:
that command does the renames the journal lists that are still to do (a rename whose staged
file is gone was done), so the commit happens whole. Either way all or none.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
from pathlib import Path, PurePosixPath

from curator import atomic

JOURNAL = "journal.json"
PREFIX = "txn."
FILE_MODE = 0o600  # what atomic.write_bytes gives a replaced file: mkstemp's mode
NEW_MODE = 0o666  # a new fixture folder's files: the umask decides, as for any new file
STOPPING = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}


class Staged:
    """One commit being staged: files and folders to rename into the store at `root`."""

    def __init__(self, root: Path, staging_root: Path) -> None:
        self.root = root
        self._staging_root = staging_root
        self._folder: Path | None = None  # made by the first write: an empty commit makes none
        # (name in the folder, path from the root); no name: remove the file at the path
        self._renames: list[tuple[str | None, str]] = []
        self._names = 0  # staged files and folders so far: each has its number as its name
        self._firsts = 0  # renames staged `first`: they lead the journal

    @property
    def folder(self) -> Path:
        if self._folder is None:
            self._folder = atomic.staging_dir(self._staging_root, PREFIX)
        return self._folder

    def file(
        self, final: Path, data: bytes, mode: int | None = None, *, first: bool = False
    ) -> None:
        """Replace (or create) the file `final` with `data`; with `first`, before every
        rename staged so far that was not staged `first` too."""
        name = f"{self._names}"
        self._names += 1
        _write(self.folder / name, data, FILE_MODE if mode is None else mode)
        self._stage(name, final, first)

    def mark(self) -> int:
        """How many renames are staged: `drop_since` takes back the ones staged after."""
        return len(self._renames)

    def drop_since(self, mark: int) -> None:
        """Take back what was staged after `mark` (none of it staged `first`)."""
        for name, _ in self._renames[mark:]:
            staged = self.folder / name if name is not None else None
            if staged is not None and staged.is_dir():
                shutil.rmtree(staged)
            elif staged is not None:
                staged.unlink(missing_ok=True)
        del self._renames[mark:]

    def remove(self, final: Path, *, first: bool = False) -> None:
        """Remove the file `final` (if it is there) at the commit, in this step's turn (with
        `first`, as for `file`)."""
        self._stage(None, final, first)

    def _stage(self, name: str | None, final: Path, first: bool) -> None:
        if first:
            self._renames.insert(self._firsts, (name, self._relative(final)))
            self._firsts += 1
        else:
            self._renames.append((name, self._relative(final)))

    def folder_of(self, final: Path, files: dict[str, bytes]) -> None:
        """Create the folder `final` holding `files` (fails at commit if it exists)."""
        name = f"{self._names}"
        self._names += 1
        (self.folder / name).mkdir()
        for file_name, data in files.items():
            _write(self.folder / name / file_name, data, NEW_MODE)
        self._renames.append((name, self._relative(final)))

    def commit(self) -> None:
        """The commit point, then the renames; nothing to do when nothing was staged."""
        if not self._renames:
            self.abandon()
            return
        for name, path in self._renames:
            if (
                name is not None
                and (self.folder / name).is_dir()
                and os.path.lexists(self.root / path)
            ):
                self.abandon()
                raise FileExistsError(self.root / path)
        journal = [{"from": name, "to": path} for name, path in self._renames]
        # Ctrl-C, SIGTERM and SIGHUP wait until the renames are done: only a SIGKILL (or a
        # crash) leaves a journal for the next command to complete.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
        try:
            try:
                atomic.fsync_dir(self.folder)
                atomic.write_bytes(self.folder / JOURNAL, json.dumps(journal).encode())
            except BaseException:
                self.abandon()  # before the commit point: nothing happened
                raise
            complete(self.folder, self.root)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)

    def abandon(self) -> None:
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)

    def _relative(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()


def complete(folder: Path, root: Path) -> None:
    """Do the renames `folder`'s journal lists that are still to do, then remove it."""
    journal = json.loads((folder / JOURNAL).read_text(encoding="utf-8"))
    for step in journal:
        final = root / _inside(step["to"])
        if step["from"] is None:
            final.unlink(missing_ok=True)
            continue
        staged = folder / step["from"]
        if not os.path.lexists(staged):
            continue  # renamed before the command died
        final.parent.mkdir(parents=True, exist_ok=True)
        os.replace(staged, final)
        atomic.fsync_dir(final.parent)
    (folder / JOURNAL).unlink()
    shutil.rmtree(folder)


def recover(staging_root: Path, root: Path) -> list[Path]:
    """Finish or drop what dead commands left in `staging_root` (call with the store lock
    held: no live command has staging then). The entries it could not deal with."""
    try:
        entries = sorted(staging_root.iterdir())
    except OSError:
        return []
    left = []
    for entry in entries:
        try:
            if entry.name.startswith(PREFIX) and (entry / JOURNAL).is_file():
                complete(entry, root)
            elif entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
        except (OSError, ValueError, KeyError, TypeError):
            left.append(entry)
    return left


def _inside(path: str) -> PurePosixPath:
    """A journal's target, only ever a path inside the store."""
    relative = PurePosixPath(path)
    if relative.is_absolute() or ".." in relative.parts or not relative.parts:
        raise ValueError(f"journal names a path outside the store: {path!r}")
    return relative


def _write(path: Path, data: bytes, mode: int) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
