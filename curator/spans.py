"""Text edits that carry offsets with them.

Anonymisation and every mutation rewrite text that labelled evidence points into. They all
describe their change as a list of `Edit`s and call `apply_edits`, which returns the new
text and an `OffsetMap` from old offsets to new ones, so ground truth never drifts.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Edit:
    """Replace text[start:end] with `replacement` (an insertion when start == end)."""

    start: int
    end: int
    replacement: str = ""


class OverlappingEdits(ValueError):
    pass


@dataclass(frozen=True)
class OffsetMap:
    """Maps offsets in the old text to offsets in the new one.

    A span that contains an edit grows or shrinks with it; a span that lies wholly inside
    a replaced region maps onto the replacement; a span wholly inside a deletion is lost.
    """

    # Parallel lists, sorted by old_start: each edit's old range and its new range.
    old_starts: tuple[int, ...]
    old_ends: tuple[int, ...]
    new_starts: tuple[int, ...]
    new_ends: tuple[int, ...]
    old_length: int
    new_length: int

    def offset(self, old: int, *, at_end: bool = False) -> int:
        """New position of old offset `old`.

        A start offset at or inside a replaced region moves to the replacement's start; an
        end offset inside one moves to the replacement's end, so a span that covers an edit
        covers its replacement. Text inserted exactly at a span's boundary stays outside it.
        """
        if not 0 <= old <= self.old_length:
            raise ValueError(f"offset {old} outside text of length {self.old_length}")
        if at_end:
            # Only edits that start strictly before an end offset can move it.
            i = bisect.bisect_left(self.old_starts, old) - 1
        else:
            i = bisect.bisect_right(self.old_starts, old) - 1
        if i < 0:
            return old
        if old < self.old_ends[i]:
            return self.new_ends[i] if at_end else self.new_starts[i]
        return old - self.old_ends[i] + self.new_ends[i]

    def then(self, second: OffsetMap) -> OffsetMap:
        """This map followed by `second` (which maps this map's new text onward), as one map.

        The characters of the old text that neither map touched stay where both put them;
        every stretch between them is one changed region (adjacent edits become one).
        """
        if second.old_length != self.new_length:
            raise ValueError(
                f"the second map reads a text of length {second.old_length}, not {self.new_length}"
            )
        onward = dict(second._copied())
        kept = [(old, onward[mid]) for old, mid in self._copied() if mid in onward]
        regions = []
        previous = (-1, -1)
        for old, new in [*kept, (self.old_length, second.new_length)]:
            if old > previous[0] + 1 or new > previous[1] + 1:
                regions.append((previous[0] + 1, old, previous[1] + 1, new))
            previous = (old, new)
        return OffsetMap(
            tuple(r[0] for r in regions),
            tuple(r[1] for r in regions),
            tuple(r[2] for r in regions),
            tuple(r[3] for r in regions),
            self.old_length,
            second.new_length,
        )

    def _copied(self) -> Iterator[tuple[int, int]]:
        """(old, new) offset of every character no edit touched."""
        old_at, new_at = 0, 0
        for old_start, old_end, new_end in zip(
            self.old_starts, self.old_ends, self.new_ends, strict=True
        ):
            yield from ((old_at + k, new_at + k) for k in range(old_start - old_at))
            old_at, new_at = old_end, new_end
        yield from ((old_at + k, new_at + k) for k in range(self.old_length - old_at))

    def span(self, start: int, end: int) -> tuple[int, int] | None:
        """New (start, end) of an old span, or None when its text was deleted entirely."""
        new_start = self.offset(start)
        new_end = self.offset(end, at_end=True) if end > start else new_start
        if end > start and new_end <= new_start:
            return None
        return new_start, max(new_start, new_end)


def apply_edits(text: str, edits: Iterable[Edit]) -> tuple[str, OffsetMap]:
    """Apply non-overlapping edits and return the new text with its offset map."""
    ordered: Sequence[Edit] = sorted(edits, key=lambda e: (e.start, e.end))
    pieces: list[str] = []
    old_starts: list[int] = []
    old_ends: list[int] = []
    new_starts: list[int] = []
    new_ends: list[int] = []
    cursor = 0
    new_length = 0
    for edit in ordered:
        if not 0 <= edit.start <= edit.end <= len(text):
            raise ValueError(f"edit {edit} outside text of length {len(text)}")
        if edit.start < cursor or (
            old_ends and edit.start == edit.end == old_starts[-1] == old_ends[-1]
        ):
            raise OverlappingEdits(f"edit {edit} overlaps an earlier edit")
        pieces.append(text[cursor : edit.start])
        new_length += edit.start - cursor
        old_starts.append(edit.start)
        old_ends.append(edit.end)
        new_starts.append(new_length)
        pieces.append(edit.replacement)
        new_length += len(edit.replacement)
        new_ends.append(new_length)
        cursor = edit.end
    pieces.append(text[cursor:])
    new_length += len(text) - cursor
    offset_map = OffsetMap(
        tuple(old_starts),
        tuple(old_ends),
        tuple(new_starts),
        tuple(new_ends),
        len(text),
        new_length,
    )
    return "".join(pieces), offset_map


def find_all(text: str, needle: str, *, ignore_case: bool = False) -> list[tuple[int, int]]:
    """Every non-overlapping occurrence of needle as (start, end)."""
    if not needle:
        return []
    haystack, target = (text.casefold(), needle.casefold()) if ignore_case else (text, needle)
    if ignore_case and len(haystack) != len(text):
        # casefold changed lengths (e.g. "ß"); fall back to lower(), which keeps them here.
        haystack, target = text.lower(), needle.lower()
    found: list[tuple[int, int]] = []
    start = haystack.find(target)
    while start != -1:
        found.append((start, start + len(target)))
        start = haystack.find(target, start + len(target))
    return found
