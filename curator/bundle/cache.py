"""Per-fixture serialisations cached under .curator/cache/, keyed by the store files' hashes.

A rebuild reads and hashes each fixture's three files (cheap) and only parses, validates
and dumps the fixtures whose bytes changed (expensive). The cache is local and disposable:
an unreadable or outdated cache is simply ignored.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from curator import __version__, atomic
from curator.bundle.serialise import SOURCE_FILES, Serialised, serialise, sha256
from curator.store import Store

CACHE_NAME = "cache/bundle-fixtures.json"
# Bump when the line format or the entry shape changes, so old entries are not reused.
CACHE_FORMAT = 1


class SerialisationCache:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._old = self._read(path)
        self._used: dict[str, dict] = {}

    @staticmethod
    def _read(path: Path) -> dict[str, dict]:
        try:
            data = json.loads(path.read_bytes())
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("format") != [CACHE_FORMAT, __version__]:
            return {}
        entries = data.get("entries")
        return entries if isinstance(entries, dict) else {}

    def get(self, key: str) -> Serialised | None:
        data = self._old.get(key)
        if data is None:
            return None
        try:
            found = Serialised.from_cache(data)
        except TypeError:
            return None
        self._used[key] = data
        return found

    def put(self, key: str, value: Serialised) -> None:
        self._used[key] = value.as_cache()

    @property
    def changed(self) -> bool:
        return self._used.keys() != self._old.keys()

    def save(self) -> None:
        """Keep only what this build used, so the cache never outgrows the store."""
        if not self.changed:
            return
        payload = {"format": [CACHE_FORMAT, __version__], "entries": self._used}
        atomic.write_bytes(self.path, json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def serialise_store(store: Store, cache: SerialisationCache | None = None) -> list[Serialised]:
    """Every fixture in the store, serialised, in id order (cached ones not re-parsed)."""
    results = []
    for fixture_id in store.ids():
        directory = store.directory(fixture_id)
        sources = {name: _read(directory / name) for name in SOURCE_FILES}
        hashes = {name: sha256(data) for name, data in sources.items()}
        key = hashlib.sha256(json.dumps([fixture_id, hashes], sort_keys=True).encode()).hexdigest()
        found = cache.get(key) if cache else None
        if found is None:
            found = serialise(store.load(fixture_id), hashes)
            if cache:
                cache.put(key, found)
        results.append(found)
    return results


def open_cache(store: Store) -> SerialisationCache:
    return SerialisationCache(store.local_path(CACHE_NAME))


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return b""
