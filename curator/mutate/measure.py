"""Character error rate: Levenshtein distance over the changed regions, per character.

Mutations know where they changed a text (their edits), so the distance is computed only
on clusters of nearby edits with a little context, not on whole pages: exact for
separated edits, and fast enough to measure every variant.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from curator.spans import Edit

CONTEXT = 3  # unchanged characters kept around a cluster; edits closer than this merge


def levenshtein(a: str, b: str) -> int:
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, start=1):
        current = [i]
        for j, char_b in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b)))
        previous = current
    return previous[-1]


def edit_distance(text: str, edits: Iterable[Edit]) -> int:
    """Levenshtein distance between `text` and `text` with `edits` applied."""
    ordered: Sequence[Edit] = sorted(edits, key=lambda e: (e.start, e.end))
    total = 0
    cluster: list[Edit] = []
    for edit in ordered:
        if cluster and edit.start - cluster[-1].end > CONTEXT:
            total += _cluster_distance(text, cluster)
            cluster = []
        cluster.append(edit)
    if cluster:
        total += _cluster_distance(text, cluster)
    return total


def _cluster_distance(text: str, cluster: Sequence[Edit]) -> int:
    start, end = cluster[0].start, cluster[-1].end
    before = text[start:end]
    pieces, cursor = [], start
    for edit in cluster:
        pieces.append(text[cursor : edit.start])
        pieces.append(edit.replacement)
        cursor = edit.end
    pieces.append(text[cursor:end])
    return levenshtein(before, "".join(pieces))


def cer(distance: int, length: int) -> float:
    return distance / length if length else 0.0
