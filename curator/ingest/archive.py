"""Workspace exports that are many files: a .zip (as `mmctl export create`, the compliance
export or Slack writes it) or a folder (one of them unzipped), read as one source.

A Slack folder is packed into a zip in memory, its JSON files in name order with fixed
times, so its sha256 (the idempotence key) is the same for the same files wherever they
lie. A Mattermost bulk or compliance export's folder may be far bigger (import.jsonl, the
attachments): it is read where it lies (`FolderArchive`), and its sha256 is that of its
files' names, sizes and bytes in name order (`folder_source`). A member is read only when
asked for, within the store's limits, and never written to disk: a member's path cannot
escape anywhere (a folder's links are passed over). A zip on disk is read from its file,
never whole: a bulk export's import.jsonl is read a line at a time (`member_lines`).
"""

from __future__ import annotations

import hashlib
import io
import os
import stat
import zipfile
import zlib
from abc import ABC, abstractmethod
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from curator.errors import CuratorError
from curator.ingest.source import RawSource, StreamedSource
from curator.json_input import read_lines
from curator.limits import DEFAULT, hint, read_limited, too_big
from curator.model import LimitSettings

# A Slack export unzipped holds JSON only; anything else in the folder is no part of it.
FOLDER_SUFFIX = ".json"
FIXED_TIME = (1980, 1, 1, 0, 0, 0)


class Archive(ABC):
    """The members of an export of many files by their path (folders as `a/b/c.json`): a
    zip's (`ZipArchive`) or an unzipped folder's (`FolderArchive`)."""

    name: str
    limits: LimitSettings
    _sizes: dict[str, int]  # each member's size

    def names(self) -> list[str]:
        return sorted(self._sizes)

    def find(self, base: str) -> str | None:
        """The member called `base` nearest the top (an export zipped with its folder has
        every path under one more folder)."""
        found = [n for n in self._sizes if PurePosixPath(n).name == base]
        return min(found, key=lambda n: (n.count("/"), n)) if found else None

    def has(self, name: str) -> bool:
        return name in self._sizes

    def size(self, name: str) -> int:
        return self._sizes[name]

    @abstractmethod
    def read(self, name: str, *, json: bool = True) -> bytes:
        """A member's bytes, within max_json_mb (a JSON member) or max_file_mb."""

    @abstractmethod
    def member_lines(self, name: str) -> Iterator[tuple[int, bytes]]:
        """(line number, bytes) of a JSONL member, read as they come: the member may be any
        size, each line is held to [limits] max_json_mb."""

    def _limit(self, json: bool) -> tuple[int, str]:
        if json:
            return self.limits.json_bytes, "max_json_mb"
        return self.limits.file_bytes, "max_file_mb"


class ZipArchive(Archive):
    """A zip source's members."""

    def __init__(self, source: RawSource | StreamedSource, limits: LimitSettings = DEFAULT) -> None:
        self.name = source.name
        self.limits = limits
        opened = io.BytesIO(source.data) if isinstance(source, RawSource) else source.path
        try:
            self._zip = zipfile.ZipFile(opened)
            infos = self._zip.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError):
            raise CuratorError(
                f"{source.name}: not a readable zip archive (truncated or corrupt)"
            ) from None
        # macOS adds __MACOSX/ copies of every file's attributes: no part of the export.
        self._infos = {
            info.filename: info
            for info in infos
            if not info.is_dir() and not info.filename.startswith("__MACOSX/")
        }
        self._sizes = {name: info.file_size for name, info in self._infos.items()}

    def read(self, name: str, *, json: bool = True) -> bytes:
        """A member's bytes; one over the limit, compressed like a bomb, or corrupt is refused."""
        info = self._infos[name]
        limit, setting = self._limit(json)
        where = f"{self.name}: {name}"
        if info.file_size > limit:
            raise CuratorError(f"{where}: {too_big(info.file_size, limit, setting)}")
        self._check_ratio(info, where)
        try:
            with self._zip.open(info) as member:
                data = member.read(limit + 1)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError):
            raise CuratorError(f"{where}: corrupt member of the zip archive") from None
        except RuntimeError:  # an encrypted member
            raise CuratorError(f"{where}: encrypted; export it again without a password") from None
        if len(data) > limit:
            raise CuratorError(f"{where}: {too_big(len(data), limit, setting)}")
        return data

    def member_lines(self, name: str) -> Iterator[tuple[int, bytes]]:
        """Decompressed as they are read."""
        info = self._infos[name]
        where = f"{self.name}: {name}"
        self._check_ratio(info, where)
        try:
            with self._zip.open(info) as member:
                yield from read_lines(member, where, self.limits.json_bytes)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError):
            raise CuratorError(f"{where}: corrupt member of the zip archive") from None
        except RuntimeError:  # an encrypted member
            raise CuratorError(f"{where}: encrypted; export it again without a password") from None

    def _check_ratio(self, info: zipfile.ZipInfo, where: str) -> None:
        ratio = self.limits.max_compression_ratio
        if info.file_size > 1024 * 1024 and info.file_size > ratio * max(1, info.compress_size):
            raise CuratorError(
                f"{where}: decompresses to over {ratio} times its size (a zip bomb?); "
                f"{hint('max_compression_ratio')}"
            )


def read_folder(path: Path, limits: LimitSettings = DEFAULT) -> RawSource:
    """A folder export as one zip source: its JSON files, packed in name order."""
    buffer = io.BytesIO()
    total = 0
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as packed:
        for file in sorted(p for p in path.rglob("*") if p.is_file()):
            if file.suffix.lower() != FOLDER_SUFFIX:
                continue
            relative = file.relative_to(path).as_posix()
            data = read_limited(file, limits.json_bytes, "max_json_mb", name=f"{path}/{relative}")
            total += len(data)
            if total > limits.file_bytes:
                raise CuratorError(f"{path}: {too_big(total, limits.file_bytes, 'max_file_mb')}")
            packed.writestr(zipfile.ZipInfo(relative, FIXED_TIME), data)
    return RawSource(path, buffer.getvalue())


class FolderArchive(Archive):
    """An export unzipped: the regular files under a folder, read where they lie."""

    def __init__(self, path: Path, limits: LimitSettings = DEFAULT) -> None:
        self.name = path.name
        self.limits = limits
        self._root = path
        self._sizes = _regular_files(path)

    def read(self, name: str, *, json: bool = True) -> bytes:
        limit, setting = self._limit(json)
        return read_limited(self._root / name, limit, setting, name=f"{self.name}: {name}")

    def member_lines(self, name: str) -> Iterator[tuple[int, bytes]]:
        where = f"{self.name}: {name}"
        try:
            with (self._root / name).open("rb") as member:
                yield from read_lines(member, where, self.limits.json_bytes)
        except OSError as error:
            raise CuratorError(f"{where}: cannot read: {error.strerror}") from None


def folder_source(path: Path) -> StreamedSource:
    """An unzipped export as one source: its sha256 is that of every regular file's path,
    size and bytes, in name order (the same files give the same key wherever they lie)."""
    digest = hashlib.sha256()
    for name, size in sorted(_regular_files(path).items()):
        digest.update(f"{name}\0{size}\0".encode())
        try:
            with (path / name).open("rb") as handle:
                digest.update(hashlib.file_digest(handle, "sha256").digest())
        except OSError as error:
            raise CuratorError(f"{path / name}: cannot read: {error.strerror}") from None
    return StreamedSource(path, digest.hexdigest(), b"")


def _regular_files(path: Path) -> dict[str, int]:
    """Every regular file under `path` (links not followed), by its path from it: its size."""
    found = {}
    for folder, _, files in os.walk(path):
        for file in files:
            full = Path(folder) / file
            info = os.lstat(full)
            if stat.S_ISREG(info.st_mode):
                found[full.relative_to(path).as_posix()] = info.st_size
    return found
