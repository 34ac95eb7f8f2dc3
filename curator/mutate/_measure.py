"""Character error rate: Levenshtein distance between the clean and the noised text, per character.

The distance is rapidfuzz's (exact, in C); noise edits are measured from the edits
themselves, cluster by cluster, so measuring a variant never aligns its whole text.
"""

from __future__ import annotations

from collections.abc import Iterable

from curator.spans import Edit

CONTEXT = 3  # unchanged characters that separate two clusters of edits


def levenshtein(a: str, b: str) -> int:
    """Edit distance (insertions, deletions, substitutions) between a and b."""
    # Imported here, not at the top: the mutate command loads this module, and rapidfuzz
    # would add a fifth to its start-up for a --help that never measures anything.
    from rapidfuzz.distance import Levenshtein

    return Levenshtein.distance(a, b)


def cer(distance: int, length: int) -> float:
    return distance / length if length else 0.0


def edits_distance(text: str, edits: Iterable[Edit]) -> int:
    """Edit distance between `text` and `text` with `edits` applied, from the edits alone.

    Edits closer than CONTEXT characters are measured together; separate clusters are
    summed. That is an alignment, so never below the true distance, and equal to it unless
    aligning across CONTEXT unchanged characters were cheaper, which scattered OCR errors
    do not make (the tests check against the whole-text distance).
    """
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    total = 0
    cluster: list[Edit] = []
    for edit in ordered:
        if cluster and edit.start - cluster[-1].end >= CONTEXT:
            total += _cluster_distance(text, cluster)
            cluster = []
        cluster.append(edit)
    if cluster:
        total += _cluster_distance(text, cluster)
    return total


def _cluster_distance(text: str, cluster: list[Edit]) -> int:
    if len(cluster) == 1:
        edit = cluster[0]
        return levenshtein(text[edit.start : edit.end], edit.replacement)
    start, end = cluster[0].start, cluster[-1].end
    pieces, cursor = [], start
    for edit in cluster:
        pieces.append(text[cursor : edit.start])
        pieces.append(edit.replacement)
        cursor = edit.end
    return levenshtein(text[start:end], "".join(pieces))
