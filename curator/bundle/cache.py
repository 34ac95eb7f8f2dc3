"""Per-fixture serialisations cached under .curator/cache/, keyed by the store files' hashes.

A rebuild only parses, validates and dumps the fixtures whose bytes changed (expensive).
Hashing needs the bytes, so, as git's index does, each fixture also remembers the
(size, mtime_ns, inode) of its files when they were hashed: a file whose stat is unchanged
is not read again. Every store write replaces a file by rename (new inode, new mtime), so a
changed file is always seen.

Two files: a small index (stats, hashes, manifest entries: enough to decide that nothing
changed) and the bulky texts (lines, thread files), read only when a bundle is written.
The cache is local and disposable: an unreadable or outdated one is ignored.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from curator import __version__, atomic
from curator.bundle.serialise import Serialised, serialise, sha256
from curator.store import FixtureFiles, FixtureRecord, Store

# Wraps the fixtures being serialised, e.g. in a progress bar; must yield them all.
Progress = Callable[[list], Iterable]

INDEX_NAME = "cache/bundle-index.json"
TEXTS_NAME = "cache/bundle-texts.json"
BUILDS_NAME = "cache/bundle-builds.json"
# Bump when the line format or the entry shape changes, so old entries are not reused.
CACHE_FORMAT = 5
_STAMP = [CACHE_FORMAT, __version__]


class SerialisationCache:
    def __init__(self, index_path: Path, texts_path: Path, builds_path: Path) -> None:
        self.index_path, self.texts_path, self.builds_path = index_path, texts_path, builds_path
        self._index_loaded = False
        self._old_meta: dict[str, Any] = {}
        self._old_stats: dict[str, Any] = {}
        self._old_texts: dict[str, Any] | None = None
        self._meta: dict[str, Any] = {}
        self._stats: dict[str, Any] = {}
        self._texts: dict[str, dict[str, Any]] = {}
        self._texts_added = False
        builds = _read_json(builds_path)
        fresh = isinstance(builds, dict) and builds.get("format") == _STAMP
        self._old_builds: dict[str, Any] = dict(builds.get("builds", {})) if fresh else {}
        self._builds = dict(self._old_builds)

    def _load_index(self) -> None:
        """Read lazily: a build that the stat signature proves unchanged never needs it."""
        if self._index_loaded:
            return
        self._index_loaded = True
        index = _read_json(self.index_path)
        if isinstance(index, dict) and index.get("format") == _STAMP:
            self._old_meta = dict(index.get("entries", {}))
            self._old_stats = dict(index.get("stats", {}))
        else:
            self._old_texts = {}

    def known_digest(self, selection: str, signature: str) -> str | None:
        """The content digest of the last build of `selection` when every file's stat was
        exactly as now: then nothing can have changed and nothing needs reading."""
        found = self._old_builds.get(selection)
        if isinstance(found, dict) and found.get("signature") == signature:
            return found.get("digest")
        return None

    def remember_build(self, selection: str, signature: str, digest: str) -> None:
        self._builds[selection] = {"signature": signature, "digest": digest}

    def hashes(self, fixture_id: str, stats: list[list[int]]) -> dict[str, str] | None:
        """The remembered hashes of a fixture's files, when their stat has not changed."""
        self._load_index()
        known = self._old_stats.get(fixture_id)
        if isinstance(known, list) and len(known) == 2 and known[0] == stats:
            return known[1]
        return None

    def remember(self, fixture_id: str, stats: list[list[int]], hashes: dict[str, str]) -> None:
        self._stats[fixture_id] = [stats, hashes]

    def meta(self, key: str) -> dict[str, Any] | None:
        self._load_index()
        found = self._old_meta.get(key)
        if found is not None:
            self._meta[key] = found
        return found

    def texts(self, key: str) -> dict[str, Any] | None:
        if key in self._texts:
            return self._texts[key]
        if self._old_texts is None:
            loaded = _read_json(self.texts_path)
            fresh = isinstance(loaded, dict) and loaded.get("format") == _STAMP
            self._old_texts = dict(loaded.get("texts", {})) if fresh else {}
        return self._old_texts.get(key)

    def put(self, key: str, value: Serialised) -> None:
        self._meta[key] = value.meta()
        self._texts[key] = value.texts
        self._texts_added = True

    def save(self) -> None:
        """Keep only what this build used, so the cache never outgrows the store.

        A cache that cannot be written (full disk) is only a slower next build, never a
        failed one: the bundle is already in place when this runs.
        """
        try:
            self._save()
        except OSError:
            pass

    def _save(self) -> None:
        if self._builds != self._old_builds:
            _write_json(self.builds_path, {"format": _STAMP, "builds": self._builds})
        if not self._index_loaded:
            return
        keys_changed = self._meta.keys() != self._old_meta.keys()
        if keys_changed or self._texts_added:
            texts = {}
            for key in sorted(self._meta):
                found = self.texts(key)
                if found is not None:
                    texts[key] = found
            _write_json(self.texts_path, {"format": _STAMP, "texts": texts})
        if keys_changed or self._stats != self._old_stats:
            _write_json(
                self.index_path, {"format": _STAMP, "stats": self._stats, "entries": self._meta}
            )


def signature(listing: list[FixtureFiles]) -> str:
    """One hash of every fixture's id and file stats: equal means no file was touched."""
    digest = hashlib.sha256()
    for files in listing:
        digest.update(f"{files.id}{files.stats}\n".encode())
    return digest.hexdigest()


def serialise_store(
    store: Store,
    cache: SerialisationCache | None = None,
    progress: Progress | None = None,
    listing: list[FixtureFiles] | None = None,
) -> list[Serialised]:
    """Every fixture in the store, serialised, in id order (cached ones not re-parsed)."""
    results = []
    listing = store.scan() if listing is None else listing
    for files in progress(listing) if progress else listing:
        hashes = cache.hashes(files.id, files.stats) if cache else None
        sources = None
        if hashes is None:
            sources = files.read()
            hashes = {name: sha256(data or b"") for name, data in sources.items()}
        key = _key(files.id, hashes)
        meta = cache.meta(key) if cache else None
        if cache is not None and meta is not None:
            found = Serialised(
                meta["entry"],
                meta["label_time"],
                fetch=_fetcher(store, cache, key, files.id, hashes),
            )
        else:
            found = serialise(_record(store, files, sources), hashes)
            if cache:
                cache.put(key, found)
        if cache:
            cache.remember(files.id, files.stats, hashes)
        results.append(found)
    return results


def _record(
    store: Store, files: FixtureFiles, sources: dict[str, bytes | None] | None
) -> FixtureRecord:
    """The fixture parsed from the bytes just hashed, when they were (no second read)."""
    return store.parse_record(Path(files.directory), files.read() if sources is None else sources)


def _key(fixture_id: str, hashes: dict[str, str]) -> str:
    # In the store's file order (fixture, content, labels), as hashed and as cached.
    parts = [fixture_id, *(f"{name}={digest}" for name, digest in hashes.items())]
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()


def _fetcher(
    store: Store, cache: SerialisationCache, key: str, fixture_id: str, hashes: dict[str, str]
):  # noqa: ANN202
    def fetch() -> dict[str, Any]:
        found = cache.texts(key)
        if found is None:  # texts file lost or older than the index: serialise again
            fresh = serialise(store.load(fixture_id), hashes)
            cache.put(key, fresh)
            return fresh.texts
        return found

    return fetch


def open_cache(store: Store) -> SerialisationCache:
    return SerialisationCache(
        store.local_path(INDEX_NAME), store.local_path(TEXTS_NAME), store.local_path(BUILDS_NAME)
    )


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None


def _write_json(path: Path, data: Any) -> None:
    atomic.write_bytes(
        path, json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    )
