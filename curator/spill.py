"""A list of JSON records that a command gathers as it goes, held on disk past its first few.

An import of a big workspace export reports one summary per fixture: two hundred thousand of
them for a million posts, some 1 KB of memory each as dicts. `Spill` keeps the first
`IN_MEMORY` as they came and writes the rest as JSON lines to an unnamed temporary file
(`tempfile`, so inside the command's private folder: curator.scratch), read back in order
when iterated. Records go through JSON either way, so a record reads back the same wherever
it was held.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterable, Iterator
from typing import IO, Any

IN_MEMORY = 1000
SpillMark = tuple[int, int]  # records held, then bytes spilled: see `Spill.mark`


class Spill:
    """Records appended one at a time and read back in order (iterate, `len`)."""

    def __init__(self, records: Iterable[dict[str, Any]] = (), in_memory: int = IN_MEMORY) -> None:
        self._held: list[dict[str, Any]] = []
        self._in_memory = in_memory
        self._file: IO[bytes] | None = None
        self._count = 0
        self.extend(records)

    def append(self, record: dict[str, Any]) -> None:
        line = json.dumps(record, ensure_ascii=False)
        if len(self._held) < self._in_memory:
            self._held.append(json.loads(line))
        else:
            if self._file is None:
                self._file = tempfile.TemporaryFile()
            self._file.seek(0, 2)
            self._file.write(line.encode("utf-8") + b"\n")
        self._count += 1

    def extend(self, records: Iterable[dict[str, Any]]) -> None:
        for record in records:
            self.append(record)

    def mark(self) -> SpillMark:
        """Where the records end now: `drop_since` takes back those appended after."""
        return len(self._held), self._file.seek(0, 2) if self._file is not None else 0

    def drop_since(self, mark: SpillMark) -> None:
        held, spilled = mark
        dropped = len(self._held) - held
        del self._held[held:]
        if self._file is not None:
            self._file.seek(spilled)
            dropped += sum(1 for _ in self._file)
            self._file.truncate(spilled)
        self._count -= dropped

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[dict[str, Any]]:
        yield from list(self._held)
        offset = 0  # its own place in the file: an append meanwhile writes at the end
        while self._file is not None:
            self._file.seek(offset)
            line = self._file.readline()
            if not line:
                return
            offset = self._file.tell()
            yield json.loads(line)

    def __repr__(self) -> str:
        return f"Spill({self._count} records)"
