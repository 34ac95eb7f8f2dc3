"""Character error rate: Levenshtein distance between the clean and the noised text, per character.

The distance is computed with Hyyrö's bit-parallel algorithm (one big-integer step per
character), line by line where the line structure is kept, so measuring every variant
costs about a millisecond.
"""

from __future__ import annotations

from collections.abc import Iterable

from curator.spans import Edit

CONTEXT = 3  # unchanged characters that separate two clusters of edits


def levenshtein(a: str, b: str) -> int:
    """Edit distance (insertions, deletions, substitutions) between a and b."""
    # A common prefix or suffix costs nothing; dropping it shortens the loop below.
    head = 0
    limit = min(len(a), len(b))
    while head < limit and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < limit - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    a, b = a[head : len(a) - tail], b[head : len(b) - tail]
    if len(a) < len(b):
        a, b = b, a
    if not b:
        return len(a)
    # b is the "pattern": one bit per character of b.
    m = len(b)
    full = (1 << m) - 1
    top = 1 << (m - 1)
    peq: dict[str, int] = {}
    for i, char in enumerate(b):
        peq[char] = peq.get(char, 0) | (1 << i)
    pv, mv, score = full, 0, m
    for char in a:
        eq = peq.get(char, 0)
        xv = eq | mv
        xh = ((((eq & pv) + pv) & full) ^ pv) | eq
        ph = (mv | ~(xh | pv)) & full
        mh = pv & xh
        if ph & top:
            score += 1
        elif mh & top:
            score -= 1
        ph = ((ph << 1) | 1) & full
        mh = (mh << 1) & full
        pv = (mh | ~(xv | ph)) & full
        mv = ph & xv
    return score


def text_distance(clean: str, noised: str) -> int:
    """Edit distance of two texts; line by line when both have the same lines.

    Summing per-line distances is an alignment too, so it is never below the true
    distance, and it equals it unless aligning across a line break were cheaper, which
    edits that keep the line structure do not make. Short lines keep it fast.
    """
    if clean == noised:
        return 0
    clean_lines, noised_lines = clean.split("\n"), noised.split("\n")
    if len(clean_lines) != len(noised_lines):
        return levenshtein(clean, noised)
    return sum(levenshtein(a, b) for a, b in zip(clean_lines, noised_lines, strict=True) if a != b)


def distance(pairs: Iterable[tuple[str, str]]) -> tuple[int, int]:
    """Summed edit distance and summed clean length over (clean, noised) text pairs."""
    total = length = 0
    for clean, noised in pairs:
        total += text_distance(clean, noised)
        length += len(clean)
    return total, length


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
    total, cluster = 0, []
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
