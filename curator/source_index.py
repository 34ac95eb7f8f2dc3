"""Which fixture was imported from which raw source: what makes `curator import` idempotent.

Import asks, for every source, whether a fixture already came from it (same sha256).
Reading every fixture.json to answer made imports slower as the store grew, so the store
keeps this index in .curator/sources.txt (local only, never committed): for every fixture
it covers, the sha256 of the source it was imported from, or None for a fixture made from
another one (variants, whose provenance repeats their parent's).

Why it can be trusted: every saved index is right about each fixture it covers. A store
transaction adds the fixtures it creates to the index after they are on disk (under the
store lock), and one that changes an existing fixture's source deletes the index before
the change lands. So a crash, or a `git pull` or deleted folder behind curator's back, can
only leave an index that covers too few or too many fixtures, and the index is used only
while the ids it covers are exactly the fixture folders on disk: one directory listing, no
fixture file opened; otherwise it is rebuilt from the fixtures (see `Store.source_index`).
What the listing cannot see, a fixture.json edited by hand to name another source, is
caught by reading the fixture the index names before believing it.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable, Iterator, Mapping
from pathlib import Path

from curator import atomic
from curator.model import Fixture

SOURCES_FILE = "sources.txt"
HEADER = "curator source index 1"  # then one "<fixture id> <sha256, or -: none>" per line
NO_SOURCE = "-"


def source_of(fixture: Fixture) -> str | None:
    """The raw source a fixture was imported from; None when it was made from a parent."""
    return fixture.provenance.source_sha256 if fixture.lineage is None else None


class SourceIndex:
    def __init__(self, sources: Mapping[str, str | None]) -> None:
        self.sources = dict(sources)  # fixture id -> source sha256, or None
        self._first: dict[str, str] | None = None

    def covers(self, fixture_ids: Collection[str]) -> bool:
        """True when the index describes exactly these fixtures, no more, no fewer."""
        return self.sources.keys() == set(fixture_ids)

    def first(self, sha256: str) -> str | None:
        """The fixture (lowest id, as a walk of the store in id order finds it) made from it."""
        if self._first is None:
            self._first = {}
            for fixture_id in sorted(self.sources):
                source = self.sources[fixture_id]
                if source is not None:
                    self._first.setdefault(source, fixture_id)
        return self._first.get(sha256)

    def updated(self, changes: Mapping[str, str | None]) -> SourceIndex:
        return SourceIndex({**self.sources, **changes})

    @classmethod
    def read(cls, path: Path) -> SourceIndex | None:
        """The saved index; None when there is none or it cannot be used (then it is rebuilt)."""
        try:
            header, *lines = path.read_bytes().decode("utf-8").split("\n")
        except (OSError, UnicodeDecodeError):
            return None
        if header != HEADER or lines[-1:] != [""]:
            return None
        sources: dict[str, str | None] = {}
        for line in lines[:-1]:
            fixture_id, _, source = line.partition(" ")
            if not source or " " in source:
                return None
            sources[fixture_id] = None if source == NO_SOURCE else source
        return cls(sources)

    def write(self, path: Path, more: Iterable[tuple[str, str | None]] = ()) -> None:
        """Save it, with `more` fixtures' sources (new ones) after its own."""
        # Plain lines, not JSON: at 10,000 fixtures it is read and written by every import,
        # and this is three times cheaper to do either.
        entries = itertools.chain(self.sources.items(), more)
        atomic.write_chunks(path, itertools.chain([f"{HEADER}\n".encode()], _chunks(entries)))


def _chunks(entries: Iterable[tuple[str, str | None]], size: int = 4096) -> Iterator[bytes]:
    """Index lines, `size` at a time."""
    while batch := list(itertools.islice(entries, size)):
        yield "".join(f"{name} {source or NO_SOURCE}\n" for name, source in batch).encode()
