"""Per-fixture serialisations cached under .curator/cache/, keyed by the store files' hashes.

A rebuild only parses, validates and dumps the fixtures whose bytes changed (expensive).
Hashing needs the bytes, so, as git's index does, each fixture also remembers the
(size, mtime_ns, inode) of its files when they were hashed: a file whose stat is unchanged
is not read again. Every store write replaces a file by rename (new inode, new mtime), so
a changed file is always seen. The cache is local and disposable: an unreadable or
outdated one is ignored.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from curator import __version__, atomic
from curator.bundle.serialise import SOURCE_FILES, Serialised, serialise, sha256
from curator.store import FIXTURE_DIRS, Store

CACHE_NAME = "cache/bundle-fixtures.json"
# Bump when the line format or the entry shape changes, so old entries are not reused.
CACHE_FORMAT = 2


class SerialisationCache:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._old_entries, self._old_stats = self._read(path)
        self._entries: dict[str, dict[str, Any]] = {}
        self._stats: dict[str, list[Any]] = {}

    @staticmethod
    def _read(path: Path) -> tuple[dict, dict]:
        try:
            data = json.loads(path.read_bytes())
            if data.get("format") != [CACHE_FORMAT, __version__]:
                return {}, {}
            return dict(data["entries"]), dict(data["stats"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return {}, {}

    def hashes(self, fixture_id: str, stats: list[list[int]]) -> dict[str, str] | None:
        """The remembered hashes of a fixture's files, when their stat has not changed."""
        known = self._old_stats.get(fixture_id)
        if known is not None and known[0] == stats:
            return known[1]
        return None

    def remember(self, fixture_id: str, stats: list[list[int]], hashes: dict[str, str]) -> None:
        self._stats[fixture_id] = [stats, hashes]

    def get(self, key: str) -> Serialised | None:
        data = self._old_entries.get(key)
        if data is None:
            return None
        try:
            found = Serialised.from_cache(data)
        except TypeError:
            return None
        self._entries[key] = data
        return found

    def put(self, key: str, value: Serialised) -> None:
        self._entries[key] = value.as_cache()

    @property
    def changed(self) -> bool:
        return self._entries.keys() != self._old_entries.keys() or self._stats != self._old_stats

    def save(self) -> None:
        """Keep only what this build used, so the cache never outgrows the store."""
        if not self.changed:
            return
        payload = {"format": [CACHE_FORMAT, __version__], "stats": self._stats, "entries": self._entries}
        atomic.write_bytes(self.path, json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def fixture_dirs(store: Store) -> Iterator[tuple[str, str]]:
    """(id, directory) of every fixture, in id order; os.scandir, as this runs on every build."""
    found = []
    for folder in FIXTURE_DIRS:
        try:
            with os.scandir(store.root / folder) as entries:
                found.extend((e.name, e.path) for e in entries if e.is_dir() and not e.name.startswith("."))
        except FileNotFoundError:
            continue
    return iter(sorted(found))


def serialise_store(store: Store, cache: SerialisationCache | None = None) -> list[Serialised]:
    """Every fixture in the store, serialised, in id order (cached ones not re-parsed)."""
    results = []
    for fixture_id, directory in fixture_dirs(store):
        paths = [os.path.join(directory, name) for name in SOURCE_FILES]
        stats = [_stat(path) for path in paths]
        hashes = cache.hashes(fixture_id, stats) if cache else None
        if hashes is None:
            hashes = {name: sha256(_read(path)) for name, path in zip(SOURCE_FILES, paths, strict=True)}
        key = hashlib.sha256(json.dumps([fixture_id, hashes], sort_keys=True).encode()).hexdigest()
        found = cache.get(key) if cache else None
        if found is None:
            found = serialise(store.load(fixture_id), hashes)
            if cache:
                cache.put(key, found)
        if cache:
            cache.remember(fixture_id, stats, hashes)
        results.append(found)
    return results


def open_cache(store: Store) -> SerialisationCache:
    return SerialisationCache(store.local_path(CACHE_NAME))


def _stat(path: str) -> list[int]:
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return [-1, 0, 0]
    return [info.st_size, info.st_mtime_ns, info.st_ino]


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        return b""
