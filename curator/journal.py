"""All of a commit's files land, or none do: a staged transaction with a redo journal.

A commit writes every new file into one staging folder (.curator/staging/txn.*), fsyncs
them, then writes the journal: the list of renames that put them in place. Writing the
journal (itself an atomic rename) is the commit point. The renames follow; then the journal
and the folder go. A command killed before the journal exists left a staging folder without
one: the next command that takes the store lock removes it (nothing happened). Killed after:
that command does the renames the journal lists that are still to do (a rename whose staged
file is gone was done), so the commit happens whole. Either way all or none.

An import of a million posts stages some 200,000 fixture folders: their renames are listed
in a file of the staging folder as they are staged, the journal is written from it and read
back a line at a time, and the folders the renames touched are synced once each at the end.
Nothing a commit holds in memory grows with the number of folders it lands.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import threading
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path, PurePosixPath
from typing import IO

from curator import atomic

JOURNAL = "journal.jsonl"  # a rename a line, {"from": staged name or null, "to": store path}
OLD_JOURNAL = "journal.json"  # one list of them, as curator wrote it before: completed too
FOLDERS = "folders.jsonl"  # the renames of the folders staged so far, journal lines to be
PREFIX = "txn."
FILE_MODE = 0o600  # what atomic.write_bytes gives a replaced file: mkstemp's mode
NEW_MODE = 0o666  # a new fixture folder's files: the umask decides, as for any new file
STOPPING = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}


class Staged:
    """One commit being staged: files and folders to rename into the store at `root`.

    A staged file is named `_N` (its number), a staged folder after its final name (a
    fixture id, which holds neither "_" nor "."): `holds_folder` asks the disk."""

    def __init__(self, root: Path, staging_root: Path) -> None:
        self.root = root
        self._staging_root = staging_root
        self._folder: Path | None = None  # made by the first write: an empty commit makes none
        # files' renames, (name in the folder, path from the root); no name: remove the file
        self._renames: list[tuple[str | None, str]] = []
        self._files = 0  # files staged so far
        self._firsts = 0  # renames staged `first`: they lead the journal
        self._folders: IO[bytes] | None = None  # FOLDERS, open for appending
        self._syncer = _Syncer()

    @property
    def folder(self) -> Path:
        if self._folder is None:
            self._folder = atomic.staging_dir(self._staging_root, PREFIX)
        return self._folder

    def file(
        self, final: Path, data: bytes, mode: int | None = None, *, first: bool = False
    ) -> None:
        """Replace (or create) the file `final` with `data`; with `first`, before every
        rename staged so far that was not staged `first` too (folders lead the others)."""
        name = f"_{self._files}"
        self._files += 1
        self._syncer.write(self.folder / name, data, FILE_MODE if mode is None else mode)
        self._stage(name, final, first)

    def mark(self) -> tuple[int, int]:
        """What is staged now: `drop_since` takes back what is staged after."""
        return len(self._renames), self._folders.tell() if self._folders is not None else 0

    def drop_since(self, mark: tuple[int, int]) -> None:
        """Take back what was staged after `mark` (none of it staged `first`)."""
        renames, folders_at = mark
        for name, _ in self._renames[renames:]:
            if name is not None:
                (self.folder / name).unlink(missing_ok=True)
        del self._renames[renames:]
        if self._folders is not None:
            self._folders.flush()
            self._folders.seek(folders_at)
            for name, _ in _steps(self._folders):
                shutil.rmtree(self.folder / str(name))
            self._folders.truncate(folders_at)
            self._folders.seek(folders_at)

    def holds_folder(self, name: str) -> bool:
        """Whether a folder named `name` is staged."""
        return self._folder is not None and (self._folder / name).is_dir()

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
        name = final.name
        (self.folder / name).mkdir()
        for file_name, data in files.items():
            self._syncer.write(self.folder / name / file_name, data, NEW_MODE)
        if self._folders is None:
            self._folders = open(self.folder / FOLDERS, "w+b")  # noqa: SIM115 - open until commit
        self._folders.write(_line(name, self._relative(final)))

    def commit(self) -> None:
        """The commit point, then the renames; nothing to do when nothing was staged."""
        try:
            folders = None
            if self._folders is not None:
                self._folders.close()  # its last lines written now: a full disk fails here
                folders = self.folder / FOLDERS
            if not self._renames and (folders is None or not folders.stat().st_size):
                self.abandon()
                return
            for _, path in _steps(_lines(folders)):
                if os.path.lexists(self.root / path):
                    raise FileExistsError(self.root / path)
            self._syncer.wait()  # every staged file on disk before the journal says so
        except BaseException:
            self.abandon()
            raise
        # Ctrl-C, SIGTERM and SIGHUP wait until the renames are done: only a SIGKILL (or a
        # crash) leaves a journal for the next command to complete.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
        try:
            try:
                atomic.fsync_dir(self.folder)
                atomic.write_chunks(self.folder / JOURNAL, self._journal(folders))
            except BaseException:
                self.abandon()  # before the commit point: nothing happened
                raise
            complete(self.folder, self.root)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)

    def _journal(self, folders: Path | None) -> Iterator[bytes]:
        """The journal's lines: renames staged `first`, the folders', then the others."""
        for name, path in self._renames[: self._firsts]:
            yield _line(name, path)
        yield from _lines(folders)
        for name, path in self._renames[self._firsts :]:
            yield _line(name, path)

    def abandon(self) -> None:
        with contextlib.suppress(OSError):
            self._syncer.wait()
        if self._folders is not None:
            with contextlib.suppress(OSError):  # a full disk: its last lines are not wanted
                self._folders.close()
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)

    def _relative(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()


def complete(folder: Path, root: Path) -> None:
    """Do the renames `folder`'s journal lists that are still to do, then remove it."""
    journal = folder / JOURNAL
    if journal.is_file():
        steps = _steps(_lines(journal))
    else:
        journal = folder / OLD_JOURNAL
        steps = ((s["from"], s["to"]) for s in json.loads(journal.read_text(encoding="utf-8")))
    touched = set()
    for name, path in steps:
        final = root / _inside(path)
        touched.add(final.parent)
        if name is None:
            final.unlink(missing_ok=True)
            continue
        staged = folder / name
        if not os.path.lexists(staged):
            continue  # renamed before the command died
        final.parent.mkdir(parents=True, exist_ok=True)
        os.replace(staged, final)
    # each folder a rename changed, synced once: until the journal goes, a rename a crash
    # undid is done again
    for parent in sorted(touched):
        if parent.is_dir():
            atomic.fsync_dir(parent)
    journal.unlink()
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
            if entry.name.startswith(PREFIX) and (
                (entry / JOURNAL).is_file() or (entry / OLD_JOURNAL).is_file()
            ):
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


def _line(name: str | None, path: str) -> bytes:
    return json.dumps({"from": name, "to": path}).encode() + b"\n"


def _lines(path: Path | None) -> Iterator[bytes]:
    if path is None:
        return
    with path.open("rb") as handle:
        yield from handle


def _steps(lines: Iterable[bytes]) -> Iterator[tuple[str | None, str]]:
    for line in lines:
        step = json.loads(line)
        yield step["from"], step["to"]


class _Syncer:
    """Staged files' fsyncs, on a thread of their own while the command goes on: an import
    stages three files a thread, and their fsyncs (a millisecond or two each) overlap its
    anonymising instead of adding to it. At most IN_FLIGHT files wait, each holding its
    descriptor; `wait` returns once every one is on disk, or raises the first error."""

    IN_FLIGHT = 64

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="curator-fsync")
        self._slots = threading.BoundedSemaphore(self.IN_FLIGHT)
        self._error: OSError | None = None

    def write(self, path: Path, data: bytes, mode: int) -> None:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        except BaseException:
            os.close(fd)
            raise
        self._slots.acquire()
        self._pool.submit(self._sync, fd)

    def _sync(self, fd: int) -> None:
        try:
            os.fsync(fd)
        except OSError as error:
            self._error = self._error or error
        finally:
            os.close(fd)
            self._slots.release()

    def wait(self) -> None:
        self._pool.shutdown(wait=True)
        if self._error is not None:
            raise self._error
