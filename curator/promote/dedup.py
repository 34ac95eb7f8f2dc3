"""Near-duplicate detection: MinHash signatures of word shingles, LSH banding, on disk.

Every fixture's text (document pages, or a thread's messages) is cut into word 3-grams and
summarised by a 128-value MinHash signature; the fraction of equal values estimates the
Jaccard similarity of two shingle sets. The signature is cut into bands; two fixtures that
share any whole band are candidates. Band keys live in an indexed SQLite table under
.curator/, so a lookup is a handful of B-tree probes plus a check of the few candidates:
it does not slow linearly with the store. The index is updated incrementally: whatever
promote writes is added at once, and fixtures made by other commands are picked up when
the goldens/ or adversarial/ folder changes (their modification time is remembered).

Why our own signature and index rather than datasketch: datasketch's MinHashLSH keeps its
buckets in memory (or Redis/Cassandra), so persisting it means pickling the whole index and
loading it back on every command, which is linear in the store; the SQLite band table is
persistent, incremental and sub-linear. Its MinHash alone was tried (issue 16) and gave the
same duplicates at the same speed, but `import datasketch` pulls in scipy and adds about a
second to every `curator promote`, so the ~30 lines of signature stay, on numpy alone.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from curator.errors import CuratorError
from curator.model import Content

if TYPE_CHECKING:
    import numpy as np

    from curator.store import Store

INDEX_FILE = "dedup.sqlite"
NUM_PERM = 128
SHINGLE_WORDS = 3
SEED = 1
# Candidates whose estimated similarity is this far below the threshold still get an
# exact Jaccard check (the estimate's standard error is about 0.03 at 128 permutations).
ESTIMATE_MARGIN = 0.1
MAX_EXACT_CHECKS = 5
_MERSENNE = (1 << 61) - 1
_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class Match:
    fixture_id: str
    similarity: float


# ------------------------------------------------------------------ shingles and signatures


def shingles(text: str) -> set[str]:
    """Word 3-grams of the lower-cased text; a text shorter than that is one shingle."""
    words = _WORD.findall(text.lower())
    if len(words) < SHINGLE_WORDS:
        return {" ".join(words)} if words else set()
    return {" ".join(words[i : i + SHINGLE_WORDS]) for i in range(len(words) - SHINGLE_WORDS + 1)}


def jaccard(a: set[str], b: set[str]) -> float:
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def _permutations() -> tuple[np.ndarray, np.ndarray]:
    import numpy as np

    rng = np.random.default_rng(SEED)
    a = rng.integers(1, _MERSENNE, size=NUM_PERM, dtype=np.uint64)
    b = rng.integers(0, _MERSENNE, size=NUM_PERM, dtype=np.uint64)
    return a, b


_PERMS: tuple[np.ndarray, np.ndarray] | None = None


def signature(items: Iterable[str]) -> np.ndarray | None:
    """MinHash signature (NUM_PERM uint32 values) of a set of shingles; None when empty."""
    import numpy as np

    global _PERMS
    if _PERMS is None:
        _PERMS = _permutations()
    a, b = _PERMS
    hashes = np.fromiter(
        (
            int.from_bytes(hashlib.blake2b(s.encode(), digest_size=4).digest(), "little")
            for s in items
        ),
        dtype=np.uint64,
    )
    if hashes.size == 0:
        return None
    result = np.full(NUM_PERM, 0xFFFFFFFF, dtype=np.uint64)
    for start in range(0, hashes.size, 4096):  # bounded memory on long documents
        chunk = hashes[start : start + 4096, None]
        permuted = ((chunk * a + b) % np.uint64(_MERSENNE)) & np.uint64(0xFFFFFFFF)
        np.minimum(result, permuted.min(axis=0), out=result)
    return result.astype(np.uint32)


def rows_per_band(threshold: float, recall: float = 0.999) -> int:
    """The widest bands that still make a pair at `threshold` a candidate with `recall`.

    Wider bands mean fewer chance candidates (faster lookups); the probability that a pair
    of similarity s shares at least one of b bands of r rows is 1 - (1 - s^r)^b.
    """
    best = 1
    for rows in (1, 2, 4, 8, 16, 32):
        bands = NUM_PERM // rows
        if 1 - (1 - threshold**rows) ** bands >= recall:
            best = rows
    return best


# ------------------------------------------------------------------ the persistent index

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS fixtures (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, trace_id TEXT, signature BLOB);
CREATE INDEX IF NOT EXISTS fixtures_trace ON fixtures (trace_id);
CREATE TABLE IF NOT EXISTS bands (key INTEGER NOT NULL, fixture TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS bands_key ON bands (key);
CREATE INDEX IF NOT EXISTS bands_fixture ON bands (fixture);
"""


class DedupIndex:
    """The band index of one store. Changes are kept until `commit()`; `close()` drops them."""

    def __init__(self, store: Store, threshold: float | None = None) -> None:
        self.store = store
        self.threshold = store.config.store.dedup_threshold if threshold is None else threshold
        self.rows = rows_per_band(self.threshold)
        self.path = store.local_path(INDEX_FILE)
        self.path.parent.mkdir(exist_ok=True)
        self._params = json.dumps(
            {"perm": NUM_PERM, "shingle": SHINGLE_WORDS, "seed": SEED, "rows": self.rows}
        )
        try:
            self._db = self._connect()
        except sqlite3.DatabaseError:
            # The index is a cache of what the store holds: a broken one is rebuilt.
            self.path.unlink(missing_ok=True)
            self._db = self._connect()

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path)
        db.executescript(_SCHEMA)
        if self._meta(db, "params") != self._params:  # other band width or hashing: start over
            db.execute("DELETE FROM fixtures")
            db.execute("DELETE FROM bands")
            db.execute("DELETE FROM meta")
            db.execute("INSERT INTO meta VALUES ('params', ?)", (self._params,))
            db.commit()
        return db

    @staticmethod
    def _meta(db: sqlite3.Connection, key: str) -> str | None:
        row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def commit(self) -> None:
        self._db.commit()

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> DedupIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -------------------------------------------------------------- keeping it in step

    def _stamp(self) -> str:
        stamps = [
            path.stat().st_mtime_ns if path.is_dir() else None
            for path in self.store.fixture_folders
        ]
        return json.dumps(stamps)

    def sync(self) -> int:
        """Index fixtures added and drop those removed since the last sync; how many changed.

        Cheap when nothing changed: only the two fixture folders are stat'ed.
        """
        stamp = self._stamp()
        if self._meta(self._db, "stamp") == stamp:
            return 0
        on_disk = set(self.store.ids())
        indexed = {row[0] for row in self._db.execute("SELECT id FROM fixtures")}
        for gone in sorted(indexed - on_disk):
            self.remove(gone)
        for new in sorted(on_disk - indexed):
            try:
                record = self.store.load(new)
            except CuratorError:
                continue  # `curator validate` reports it; a broken fixture covers nothing
            self.add(
                new, record.fixture.kind.value, record.content, record.fixture.provenance.trace_id
            )
        self.mark_synced(stamp)
        return len(indexed ^ on_disk)

    def mark_synced(self, stamp: str | None = None) -> None:
        """Remember the folders as they are now (after our own writes are committed)."""
        self._db.execute(
            "INSERT OR REPLACE INTO meta VALUES ('stamp', ?)", (stamp or self._stamp(),)
        )

    def add(
        self, fixture_id: str, kind: str, content: Content, trace_id: str | None = None
    ) -> None:
        self.remove(fixture_id)
        sig = signature(shingles(content.full_text()))
        self._db.execute(
            "INSERT INTO fixtures VALUES (?, ?, ?, ?)",
            (fixture_id, kind, trace_id, None if sig is None else sig.tobytes()),
        )
        if sig is not None:
            self._db.executemany(
                "INSERT INTO bands VALUES (?, ?)",
                [(key, fixture_id) for key in self._band_keys(kind, sig)],
            )

    def remove(self, fixture_id: str) -> None:
        self._db.execute("DELETE FROM fixtures WHERE id = ?", (fixture_id,))
        self._db.execute("DELETE FROM bands WHERE fixture = ?", (fixture_id,))

    # -------------------------------------------------------------- asking it

    def by_trace(self, trace_id: str) -> str | None:
        row = self._db.execute(
            "SELECT id FROM fixtures WHERE trace_id = ? ORDER BY id LIMIT 1", (trace_id,)
        ).fetchone()
        return row[0] if row else None

    def candidates(self, kind: str, content: Content) -> list[Match]:
        """Fixtures of `kind` sharing a band with `content`, by estimated similarity, best first."""
        import numpy as np

        sig = signature(shingles(content.full_text()))
        if sig is None:
            return []
        keys = self._band_keys(kind, sig)
        marks = ",".join("?" * len(keys))
        rows = self._db.execute(
            f"SELECT id, signature FROM fixtures WHERE id IN "
            f"(SELECT DISTINCT fixture FROM bands WHERE key IN ({marks}))",
            keys,
        ).fetchall()
        found = [
            Match(fixture_id, float(np.mean(np.frombuffer(blob, dtype=np.uint32) == sig)))
            for fixture_id, blob in rows
        ]
        return sorted(found, key=lambda m: (-m.similarity, m.fixture_id))

    def most_similar(
        self, kind: str, content: Content, load: Callable[[str], Content | None]
    ) -> Match | None:
        """The most similar fixture of `kind` at or above the threshold, by exact Jaccard.

        `load(id)` gives a candidate's content (None when it no longer exists); the estimate
        only picks candidates, the reported similarity is the exact one.
        """
        mine = shingles(content.full_text())
        best: Match | None = None
        close = [
            m
            for m in self.candidates(kind, content)
            if m.similarity >= self.threshold - ESTIMATE_MARGIN
        ]
        for candidate in close[:MAX_EXACT_CHECKS]:
            theirs = load(candidate.fixture_id)
            if theirs is None:
                self.remove(candidate.fixture_id)
                continue
            similarity = round(jaccard(mine, shingles(theirs.full_text())), 4)
            if similarity >= self.threshold and (best is None or similarity > best.similarity):
                best = Match(candidate.fixture_id, similarity)
        return best

    def _band_keys(self, kind: str, sig: np.ndarray) -> list[int]:
        keys = []
        for band in range(NUM_PERM // self.rows):
            chunk = sig[band * self.rows : (band + 1) * self.rows].tobytes()
            digest = hashlib.blake2b(f"{kind}:{band}:".encode() + chunk, digest_size=8).digest()
            keys.append(int.from_bytes(digest, "little", signed=True))
        return keys


def covered_by(store: Store, content: Content, threshold: float | None = None) -> Match | None:
    """The fixture that already covers `content` (same kind, similarity >= threshold), if any.

    Opens the store's index, brings it up to date and asks it once: what `promote` does for
    each record, and what benchmarks/dedup.py times.
    """
    with DedupIndex(store, threshold) as index:
        index.sync()
        match = index.most_similar(
            content.kind, content, lambda i: store.load(i).content if store.exists(i) else None
        )
        index.commit()
        return match
