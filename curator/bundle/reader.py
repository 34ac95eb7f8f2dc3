"""Reading a built bundle's files, from its directory or from its .tar.gz archive alike."""

from __future__ import annotations

import tarfile
from pathlib import Path, PurePosixPath

from curator.errors import CuratorError

MANIFEST = "manifest.json"
FIXTURES = "fixtures.jsonl"
CHANGELOG = "CHANGELOG.md"
ARCHIVE_SUFFIX = ".tar.gz"


class BundleFiles:
    """The files of one bundle by relative POSIX path (manifest.json included)."""

    def __init__(self, label: str) -> None:
        self.label = label

    def names(self) -> list[str]:
        raise NotImplementedError

    def read(self, name: str) -> bytes:
        raise NotImplementedError

    def has(self, name: str) -> bool:
        return name in set(self.names())


class DirectoryFiles(BundleFiles):
    def __init__(self, root: Path) -> None:
        super().__init__(str(root))
        self.root = root

    def names(self) -> list[str]:
        return sorted(p.relative_to(self.root).as_posix() for p in self.root.rglob("*") if p.is_file())

    def read(self, name: str) -> bytes:
        return (self.root / name).read_bytes()

    def has(self, name: str) -> bool:
        return (self.root / name).is_file()


class ArchiveFiles(BundleFiles):
    """A bundle archive: one top-level folder (the version) holding the bundle's files."""

    def __init__(self, path: Path) -> None:
        super().__init__(str(path))
        self._files: dict[str, bytes] = {}
        try:
            with tarfile.open(path, "r:gz") as archive:
                for member in archive.getmembers():
                    if not member.isfile():
                        continue
                    parts = PurePosixPath(member.name).parts
                    name = "/".join(parts[1:]) if len(parts) > 1 else parts[0]
                    handle = archive.extractfile(member)
                    self._files[name] = handle.read() if handle else b""
        except (tarfile.TarError, OSError, EOFError) as error:
            raise CuratorError(f"{path}: not a readable bundle archive ({error})") from None

    def names(self) -> list[str]:
        return sorted(self._files)

    def read(self, name: str) -> bytes:
        return self._files[name]

    def has(self, name: str) -> bool:
        return name in self._files


def open_bundle(path: Path) -> BundleFiles:
    """A bundle directory or archive; anything else is a usage error."""
    if path.is_dir():
        return DirectoryFiles(path)
    if path.is_file() and path.name.endswith(ARCHIVE_SUFFIX):
        return ArchiveFiles(path)
    if path.is_file():
        raise CuratorError(f"{path}: not a bundle directory or {ARCHIVE_SUFFIX} archive")
    raise CuratorError(f"no bundle at {path}")
