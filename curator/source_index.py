"""Which fixture was imported from which raw source: what makes `curator import` idempotent.

Import asks, for every source, whether a fixture already came from it (same sha256).
Reading every fixture.json to answer made imports slower as the store grew, so the store
keeps this index in .curator/sources.json (local only, never committed): for every fixture
it covers, the sha256 of the source it was imported from, or None for a fixture made from
another one (variants, whose provenance repeats their parent's).

The index is trusted only while the fixtures it covers are exactly the fixture folders on
disk (see `Store.find_by_source`). Every write of curator keeps it in step, and whatever
changes the set of fixtures behind curator's back (git pull, a deleted folder) makes the
two disagree, so it is rebuilt from the fixtures. Comparing ids costs one directory
listing; no fixture file is opened.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from pathlib import Path

from curator import atomic
from curator.model import Fixture

SOURCES_FILE = "sources.json"
INDEX_FORMAT = 1


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
            data = json.loads(path.read_bytes())
            if data.get("format") != INDEX_FORMAT:
                return None
            sources = data["fixtures"]
            if not isinstance(sources, dict):
                return None
            return cls({str(k): v if isinstance(v, str) else None for k, v in sources.items()})
        except (OSError, ValueError, KeyError, AttributeError):
            return None

    def write(self, path: Path) -> None:
        data = {"format": INDEX_FORMAT, "fixtures": dict(sorted(self.sources.items()))}
        atomic.write_bytes(path, json.dumps(data, separators=(",", ":")).encode("utf-8"))
