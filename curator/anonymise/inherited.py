"""What a variant inherited: a mutation's output is judged against what its parent held.

A variant's text is its parent's, mutated: OCR noise reads "Monthly Rent" as "Montbly Ren t",
which a name finder takes for a person; a misread pseudonym is no pseudonym the vault knows.
The parent's text was judged already (the audit reports its leaks on the parent), so in a
variant a span of personal data is a leak only when some word of it does not come from the
parent. The variant's words are aligned with those of the parent's text they were made from
(difflib, word by word): a word aligned with an equal parent word, or within a few character
edits of the parent words it replaced (glyph confusions, split and merged words, a cut), is
inherited, unless that parent word was itself personal data. A name planted after mutation
aligns with nothing, or with words it is nothing like, and stays a leak.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from difflib import SequenceMatcher
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from curator.anonymise.personal import DetectedSpan, PersonalData

TOKEN = re.compile(r"\w+")
WINDOW = 3  # parent words either side of where a replaced word would fall
# Tesseract's glyph confusions (mutate/ocr_noise.py), folded on both sides before comparing:
# "Tum" for "Turn" is one glyph misread, not two edits, and "Ieae" for "lease" one edit
PAIRS = (("ri", "n"), ("rn", "m"), ("cl", "d"), ("vv", "w"), ("li", "h"), ("fi", "f"))
GLYPHS = str.maketrans("01358i", "olsebl")
PERSONAL = "\0"  # stands for each character of a personal parent word: nothing matches it


class Parent:
    """A variant's parent's texts, read and judged once, lazily: only a variant with a hit asks.
    `texts` gives them (a parent's files are read only then); variants of one parent share it,
    and its words are judged by the first variant's judge."""

    def __init__(self, texts: Callable[[], Iterable[str]]) -> None:
        self._read = texts
        # per parent text: its words folded, the same with personal ones PERSONAL-filled, and
        # its character pairs (to find the text a variant's text was made from: noise spares
        # most pairs of a word it changes)
        self._judged: list[tuple[list[str], list[str], Counter[str]]] | None = None

    def new_spans(
        self, text: str, spans: Sequence[DetectedSpan], personal: PersonalData
    ) -> list[DetectedSpan]:
        """The spans of `text` (a variant's) holding a word that does not come from the parent."""
        tokens = [m.span() for m in TOKEN.finditer(text)]
        words = [_fold(text[s:e]) for s, e in tokens]
        inherited = self._inherited(words, personal)
        return [
            span
            for span in spans
            if not (
                covered := [k for k, (s, e) in enumerate(tokens) if s < span.end and span.start < e]
            )
            or not all(inherited[k] for k in covered)
        ]

    def _inherited(self, words: list[str], personal: PersonalData) -> list[bool]:
        """Whether each word comes from the parent text these words were made from (the one
        sharing most words with them: a post from its post, a page from its page)."""
        inherited = [False] * len(words)
        judged = self._judge(personal)
        if not judged or not words:
            return inherited
        pairs = _pairs(words)
        parent, clean, _ = max(
            judged,
            key=lambda t: sum((pairs & t[2]).values()) / (pairs.total() + t[2].total() or 1),
        )
        matcher = SequenceMatcher(None, words, parent, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            for i in range(i1, i2):
                if tag == "equal":
                    inherited[i] = PERSONAL not in clean[j1 + i - i1]
                elif tag == "replace":
                    # where word i would fall among the replaced parent words
                    at = j1 + (i - i1) * (j2 - j1) // (i2 - i1)
                    source = "".join(clean[max(j1, at - WINDOW) : min(j2, at + WINDOW + 1)])
                    inherited[i] = _near(words[i], source, _limit(words[i]))
        return inherited

    def _judge(self, personal: PersonalData) -> list[tuple[list[str], list[str], Counter[str]]]:
        if self._judged is None:
            self._judged = []
            texts = [text for text in self._read() if text and text.strip()]
            for text, spans in zip(texts, personal.spans_many(texts), strict=True):
                words: list[str] = []
                clean: list[str] = []
                for match in TOKEN.finditer(text):
                    word = _fold(match.group())
                    words.append(word)
                    mine = any(s.start < match.end() and match.start() < s.end for s in spans)
                    clean.append(PERSONAL * len(word) if mine else word)
                self._judged.append((words, clean, _pairs(words)))
        return self._judged


def _pairs(words: list[str]) -> Counter[str]:
    joined = "".join(words)
    return Counter(joined[i : i + 2] for i in range(len(joined) - 1))


def _fold(word: str) -> str:
    word = word.casefold()
    for pair, glyph in PAIRS:  # before GLYPHS, which reads the "i" of "ri" as an "l"
        word = word.replace(pair, glyph)
    return word.translate(GLYPHS)


def _limit(word: str) -> int:
    # about one misread glyph in four, at least one: the noise never places two errors within a
    # character of each other, and a CER of 0.3 is the most it is asked for
    return max(1, len(word) // 4)


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
