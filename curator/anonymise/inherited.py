"""What a variant inherited: a mutation's output is judged against what its parent held.

A variant's text is its parent's, mutated: OCR noise reads "Monthly Rent" as "Montbly Ren t",
which a name finder takes for a person; a misread pseudonym is no pseudonym the vault knows.
The parent's text was judged already (the audit reports its leaks on the parent), so in a
variant a span of personal data is a leak only when some word of it does not come from the
parent. The variant's words are aligned with the parent's (difflib, word by word): a word
aligned with an equal parent word, or within a few character edits of the parent words it
replaced (glyph confusions, split and merged words, a cut), is inherited, unless that parent
word was itself personal data. A name planted after mutation aligns with nothing, or with
words it is nothing like, and stays a leak.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from curator.anonymise.personal import DetectedSpan, PersonalData

TOKEN = re.compile(r"\w+")
WINDOW = 3  # parent words either side of where a replaced word would fall
# Tesseract's glyph confusions (mutate/ocr_noise.py), folded on both sides before comparing:
# "Tum" for "Turn" is one glyph misread, not two edits
PAIRS = (("rn", "m"), ("cl", "d"), ("vv", "w"), ("li", "h"))
GLYPHS = str.maketrans("01358", "olseb")
PERSONAL = "\0"  # stands for each character of a personal parent word: nothing matches it


class Parent:
    """A variant's parent's texts, judged once (lazily: only a variant with a hit asks)."""

    def __init__(self, texts: Sequence[str]) -> None:
        self._texts = [text for text in texts if text and text.strip()]
        self._matcher: SequenceMatcher[str] | None = None
        self._clean: list[str] = []  # each parent word, folded; PERSONAL-filled if personal

    def new_spans(
        self, text: str, spans: Sequence[DetectedSpan], personal: PersonalData
    ) -> list[DetectedSpan]:
        """The spans of `text` (a variant's) holding a word that does not come from the parent."""
        matcher = self._judged(personal)
        tokens = [m.span() for m in TOKEN.finditer(text)]
        matcher.set_seq1([_fold(text[s:e]) for s, e in tokens])
        inherited = [False] * len(tokens)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            for i in range(i1, i2):
                if tag == "equal":
                    inherited[i] = PERSONAL not in self._clean[j1 + i - i1]
                elif tag == "replace":
                    # where word i would fall among the replaced parent words
                    at = j1 + (i - i1) * (j2 - j1) // (i2 - i1)
                    source = "".join(self._clean[max(j1, at - WINDOW) : min(j2, at + WINDOW + 1)])
                    word = _fold(text[tokens[i][0] : tokens[i][1]])
                    inherited[i] = _near(word, source, _limit(word))
        return [
            span
            for span in spans
            if not (
                covered := [k for k, (s, e) in enumerate(tokens) if s < span.end and span.start < e]
            )
            or not all(inherited[k] for k in covered)
        ]

    def _judged(self, personal: PersonalData) -> SequenceMatcher[str]:
        if self._matcher is None:
            words: list[str] = []
            for text, spans in zip(self._texts, personal.spans_many(self._texts), strict=True):
                for match in TOKEN.finditer(text):
                    word = _fold(match.group())
                    words.append(word)
                    mine = any(s.start < match.end() and match.start() < s.end for s in spans)
                    self._clean.append(PERSONAL * len(word) if mine else word)
            self._matcher = SequenceMatcher(None, autojunk=False)
            self._matcher.set_seq2(words)
        return self._matcher


def _fold(word: str) -> str:
    word = word.casefold().translate(GLYPHS)
    for pair, glyph in PAIRS:
        word = word.replace(pair, glyph)
    return word


def _limit(word: str) -> int:
    # about one misread glyph in five, at least one: an OCR CER of 0.3 is the mutation's most
    return max(1, len(word) // 5)


def _near(word: str, source: str, limit: int) -> bool:
    """Whether `word` is within `limit` edits of some run of `source` (a cut or split word is
    a run of one parent word; a merged one spans two)."""
    if not word or not source:
        return False
    previous = [0] * (len(source) + 1)  # a run may start anywhere in the source
    for i, char in enumerate(word, start=1):
        current = [i]
        for j, other in enumerate(source, start=1):
            current.append(
                min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char != other))
            )
        previous = current
    return min(previous) <= limit
