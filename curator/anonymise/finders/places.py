"""Place names of several words ("Los Angeles", "North Carolina", "SAN DIEGO", "Long Beach"),
found by the gazetteer of name_data (GeoNames' countries, US states and counties, continents
and cities of 15,000 people or more).

A place is not personal data: the person finder reads its words as no name, and a vault
original that is one word of it ("Diego", learned from a person elsewhere) is not that person
here. Words of one place name are written alike: all Capitalised or all in capitals, with
lower-case particles between them ("Alcalá de Henares"), one space apart.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple, Protocol

from curator.anonymise.finders.name_data import fold_case, name_data

WORD = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*")


class Word(Protocol):
    """A word of a text as the person finder reads it too (its tokens are such words)."""

    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def key(self) -> str: ...  # casefolded (name_data.fold_case)


class _Word(NamedTuple):
    start: int
    end: int
    text: str
    key: str


def place_names(text: str) -> list[tuple[int, int]]:
    """(start, end) of each place name of two or more words in `text`."""
    words = [
        _Word(m.start(), m.end(), m.group(), fold_case(m.group())) for m in WORD.finditer(text)
    ]
    return [(words[i].start, words[j - 1].end) for i, j in place_name_words(text, words)]


def place_name_words(text: str, words: Sequence[Word]) -> list[tuple[int, int]]:
    """[i, j) ranges of `words` (the words of `text`, in order) that spell a place name."""
    phrases = name_data().place_phrases
    found = []
    i = 0
    while i < len(words):
        length = _phrase_at(text, words, i, phrases.get(words[i].key, ()))
        if length:
            found.append((i, i + length))
            i += length
        else:
            i += 1
    return found


def _phrase_at(
    text: str, words: Sequence[Word], i: int, candidates: tuple[tuple[str, ...], ...]
) -> int:
    """How many words from words[i] on spell the longest of `candidates` (0: none)."""
    head = words[i].text
    if not candidates or not head[0].isupper():
        return 0
    upper = head.isupper() and len(head) > 1
    for phrase in candidates:  # longest first
        here = words[i : i + len(phrase)]
        if len(here) == len(phrase) and all(
            w.key == p
            and (k == 0 or text[here[k - 1].end : w.start] == " ")
            and _written_alike(w.text, upper)
            for k, (w, p) in enumerate(zip(here, phrase, strict=True))
        ):
            return len(phrase)
    return 0


def _written_alike(word: str, upper: bool) -> bool:
    """Capitalised like the first word, or a short lower-case particle ("de", "la", "upon")."""
    if word.islower():
        return len(word) <= 4
    return word.isupper() if upper else word[0].isupper() and not word.isupper()
