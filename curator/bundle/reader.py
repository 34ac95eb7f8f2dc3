"""Reading a built bundle's files, from its directory or from its .tar.gz archive alike.

A bundle may come from anywhere, so nothing in it is trusted: only regular files and
folders are read (a symbolic or hard link, a device, an absolute or `..` path refuses the
whole bundle), and an archive is decompressed as a stream under the size and ratio limits
of `[limits]` (a gzip bomb fails after a few megabytes, not after the memory is gone).
Every file is hashed as it is read; only the JSON files (manifest, fixture lines, thread
files) are kept in memory, the rest (Arrow, Parquet) only hashed.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import stat
import tarfile
import zlib
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from curator.errors import CuratorError
from curator.limits import DEFAULT, hint, read_limited, too_big
from curator.model import MIB, LimitSettings
from curator.store import ARCHIVE_SUFFIX

MANIFEST = "manifest.json"
FIXTURES = "fixtures.jsonl"
CHANGELOG = "CHANGELOG.md"
KEPT_SUFFIXES = (".json", ".jsonl")  # what readers parse; other files are only hashed
CHUNK = 1024 * 1024
# The compression ratio is judged once this much has come out: small files of one byte
# repeated compress far better than any bundle, and cost nothing.
RATIO_FLOOR = 16 * MIB
# Tar headers between two files (long names, pax records) are a few hundred bytes.
HEADER_ALLOWANCE = MIB

__all__ = ["ARCHIVE_SUFFIX", "CHANGELOG", "FIXTURES", "MANIFEST", "BundleFiles", "open_bundle"]


class BundleFiles:
    """The files of one bundle by relative POSIX path (manifest.json included)."""

    def __init__(self, label: str, limits: LimitSettings) -> None:
        self.label = label
        self.limits = limits.for_curator_files()  # its JSON was written by curator

    def names(self) -> list[str]:
        raise NotImplementedError

    def read(self, name: str) -> bytes:
        raise NotImplementedError

    def sha256(self, name: str) -> str:
        raise NotImplementedError

    def has(self, name: str) -> bool:
        return name in set(self.names())


class DirectoryFiles(BundleFiles):
    def __init__(self, root: Path, limits: LimitSettings) -> None:
        super().__init__(str(root), limits)
        self.root = root
        self._names = self._walk()

    def _walk(self) -> list[str]:
        found = []
        for folder, dirs, files in os.walk(self.root):
            for name in dirs + files:
                path = Path(folder) / name
                info = os.lstat(path)
                mode = info.st_mode
                relative = path.relative_to(self.root).as_posix()
                if stat.S_ISLNK(mode):
                    raise CuratorError(
                        f"{self.label}: {relative} is a symbolic link; a bundle holds only "
                        "regular files and folders"
                    )
                if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
                    raise CuratorError(
                        f"{self.label}: {relative} is not a regular file (a device, FIFO "
                        "or socket); a bundle holds only regular files and folders"
                    )
                if stat.S_ISREG(mode):
                    if info.st_nlink > 1:
                        # Another name for the same bytes, anywhere on the disk: an edit
                        # there changes the bundle, and a swap for a same-bytes link passes
                        # every hash. Each file must be the bundle's own.
                        raise CuratorError(
                            f"{self.label}: {relative} has {info.st_nlink} hard links; a "
                            "bundle's files must be its own (copy them, do not link them)"
                        )
                    found.append(relative)
        return sorted(found)

    def names(self) -> list[str]:
        return list(self._names)

    def has(self, name: str) -> bool:
        return name in self._names

    def read(self, name: str) -> bytes:
        return read_limited(
            self._path(name),
            self.limits.max_bundle_file_mb * MIB,
            "max_bundle_file_mb",
            name=f"{self.label}/{name}",
        )

    def sha256(self, name: str) -> str:
        digest = hashlib.sha256()
        with open(self._path(name), "rb") as handle:
            while chunk := handle.read(CHUNK):
                digest.update(chunk)
        return digest.hexdigest()

    def _path(self, name: str) -> Path:
        if name not in self._names:  # only what the walk found: no path is built from input
            raise CuratorError(f"{self.label}: no file {name}")
        return self.root / name


class ArchiveFiles(BundleFiles):
    """A bundle archive: one top-level folder (the version) holding the bundle's files."""

    def __init__(self, path: Path, limits: LimitSettings) -> None:
        super().__init__(str(path), limits)
        self._hashes: dict[str, str] = {}
        self._kept: dict[str, bytes] = {}
        try:
            with open(path, "rb") as raw:
                self._read_all(raw)
        except CuratorError:
            raise
        except (tarfile.TarError, OSError, EOFError, zlib.error) as error:
            raise CuratorError(f"{path}: not a readable bundle archive ({error})") from None

    def _read_all(self, raw: BinaryIO) -> None:
        stream = _BoundedStream(raw, self.label, self.limits)
        top: str | None = None
        total = 0
        stream.allow(HEADER_ALLOWANCE)  # opening reads the first header
        with tarfile.open(fileobj=io.BufferedReader(stream, CHUNK), mode="r|") as archive:
            for member in archive:
                parts = self._checked(member)
                if top is None:
                    top = parts[0]
                elif parts[0] != top:
                    raise CuratorError(
                        f"{self.label}: member {_shown(member.name)} is outside the "
                        f"bundle's folder {top}/"
                    )
                if member.isfile():
                    total += member.size
                    self._check_sizes(member, total)
                    stream.allow(member.size + HEADER_ALLOWANCE)
                    self._take("/".join(parts[1:]), member, archive)
                stream.allow(HEADER_ALLOWANCE)

    def _checked(self, member: tarfile.TarInfo) -> tuple[str, ...]:
        """The member's path parts; anything but a plain relative file or folder is refused."""
        name = member.name
        if not (member.isfile() or member.isdir()):
            kind = (
                "a symbolic link"
                if member.issym()
                else "a hard link"
                if member.islnk()
                else "a device or FIFO"
            )
            raise CuratorError(
                f"{self.label}: member {_shown(name)} is {kind}; a bundle holds only "
                "regular files and folders"
            )
        parts = PurePosixPath(name).parts
        if (
            not parts
            or name.startswith("/")
            or any(part in ("..", ".") for part in name.split("/"))
        ):
            raise CuratorError(
                f"{self.label}: member {_shown(name)} has an absolute or '..' path; "
                "refusing the archive"
            )
        if member.isfile() and len(parts) < 2:
            raise CuratorError(
                f"{self.label}: member {_shown(name)} is outside the bundle's folder"
            )
        return parts

    def _check_sizes(self, member: tarfile.TarInfo, total: int) -> None:
        largest = self.limits.max_bundle_file_mb * MIB
        if member.size > largest:
            raise CuratorError(
                f"{self.label}: {_shown(member.name)}: "
                f"{too_big(member.size, largest, 'max_bundle_file_mb')}"
            )
        if total > self.limits.max_bundle_mb * MIB:
            limit = self.limits.max_bundle_mb * MIB
            raise CuratorError(
                f"{self.label}: its files total {too_big(total, limit, 'max_bundle_mb')}"
            )

    def _take(self, name: str, member: tarfile.TarInfo, archive: tarfile.TarFile) -> None:
        if name in self._hashes:
            raise CuratorError(f"{self.label}: {_shown(member.name)} is in the archive twice")
        handle = archive.extractfile(member)
        digest = hashlib.sha256()
        kept = name.endswith(KEPT_SUFFIXES)
        parts = []
        while handle is not None and (chunk := handle.read(CHUNK)):
            digest.update(chunk)
            if kept:
                parts.append(chunk)
        self._hashes[name] = digest.hexdigest()
        if kept:
            self._kept[name] = b"".join(parts)

    def names(self) -> list[str]:
        return sorted(self._hashes)

    def read(self, name: str) -> bytes:
        if name not in self._kept:
            raise CuratorError(f"{self.label}: {name} is not a file curator reads from an archive")
        return self._kept[name]

    def sha256(self, name: str) -> str:
        return self._hashes[name]

    def has(self, name: str) -> bool:
        return name in self._hashes


class _BoundedStream(io.RawIOBase):
    """A .tar.gz decompressed as it is read, refused as soon as it is a bomb: more bytes
    than the reader allowed for (a file's declared size, or a header), or a compression
    ratio no bundle has."""

    def __init__(self, raw: BinaryIO, label: str, limits: LimitSettings) -> None:
        self._raw = raw
        self._gzip = gzip.GzipFile(fileobj=raw, mode="rb")
        self._label = label
        self._ratio = limits.max_compression_ratio
        self._out = 0
        self._budget = 0

    def allow(self, size: int) -> None:
        """The next `size` bytes (plus what is already buffered) may come out; no more."""
        self._budget = self._out + size + 2 * CHUNK

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        count = self._gzip.readinto(buffer)
        self._out += count
        if self._out > self._budget:
            raise CuratorError(
                f"{self._label}: holds more data than its tar headers declare "
                "(a header or a file is oversized); refusing the archive"
            )
        consumed = max(self._raw.tell(), 1)
        if self._out > RATIO_FLOOR and self._out > consumed * self._ratio:
            raise CuratorError(
                f"{self._label}: decompresses to over {self._ratio} times its size, "
                f"which no bundle does (a gzip bomb?); {hint('max_compression_ratio')}"
            )
        return count


def _shown(name: str) -> str:
    return ascii(name)[1:-1][:120]


def open_bundle(path: Path, limits: LimitSettings = DEFAULT) -> BundleFiles:
    """A bundle directory or archive; anything else is a usage error."""
    if path.is_dir():
        return DirectoryFiles(path, limits)
    if path.is_file() and path.name.endswith(ARCHIVE_SUFFIX):
        return ArchiveFiles(path, limits)
    if path.is_file():
        raise CuratorError(f"{path}: not a bundle directory or {ARCHIVE_SUFFIX} archive")
    raise CuratorError(f"no bundle at {path}")
