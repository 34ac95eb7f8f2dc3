"""Place names of several words ("Los Angeles", "North Carolina", "SAN DIEGO", "Long Beach"),
found by the gazetteer of name_data (GeoNames' countries, US states and counties, continents
and cities of 15,000 people or more).

A place is not personal data: the person finder reads its words as no name, and a vault
original that is one word of it ("Diego", learned from a person elsewhere) is not that person
here. Words of one place name are written alike: all Capitalised or all in capitals, with
lower-case particles between them ("Alcalá de Henares"), one space apart.

Where a store must generalise places (`[anonymise] generalise_places`), `places_in` finds
every place a text names, of one word too: a country or a region ("France", "TEXAS"), and a
town where its context says it is one ("in Springfield", "Irvine, CA", "Paris, France"): a
town's name alone is as often a word or a person ("Reading", "Mobile", "Chelsea").
`generalised` is what replaces it: its kind.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple, Protocol

from curator.anonymise.finders.name_cues import CALENDAR
from curator.anonymise.finders.name_data import fold_case, name_data, place_kinds

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


# words before a town's name that say it is the town ("in Springfield", "flew to Irvine")
TOWN_BEFORE = frozenset("in from to near at around outside via visit visiting visited".split())
_STATE_CODE = re.compile(r", [A-Z]{2}\b")  # "Irvine, CA"
TOKENS = {kind: f"[{kind}]" for kind in ("city", "region", "country", "place")}
_GENERALISED_THEN_COMMA = re.compile(
    "(?:" + "|".join(re.escape(token) for token in TOKENS.values()) + r"),[ \t]*\Z"
)


def places_in(text: str) -> list[tuple[int, int]]:
    """(start, end) of every place `text` names, Capitalised or in capitals: the place names
    of several words, and one-word countries, regions and (by their context) towns."""
    words = [
        _Word(m.start(), m.end(), m.group(), fold_case(m.group())) for m in WORD.finditer(text)
    ]
    phrases = place_name_words(text, words)
    found = [(words[i].start, words[j - 1].end) for i, j in phrases]
    inside = {k for i, j in phrases for k in range(i, j)}
    starts = {i for i, _ in phrases}
    kinds = place_kinds()
    for k, word in enumerate(words):
        kind = kinds.get(word.key)
        if k in inside or kind is None or len(word.text) < 2 or word.key in CALENDAR:
            continue
        if not word.text[0].isupper() or kind == "city" and not _town_here(text, words, k, starts):
            continue
        found.append((word.start, word.end))
    return sorted(found)


def _town_here(text: str, words: Sequence[_Word], k: int, phrase_starts: set[int]) -> bool:
    """words[k], a town's name, names the town: after "in", "from", "to"..., before a state's
    code or ", <region or country>" (`phrase_starts`: where a place name of several words
    opens)."""
    word = words[k]
    if k and words[k - 1].key in TOWN_BEFORE and text[words[k - 1].end : word.start] == " ":
        return True
    if _STATE_CODE.match(text, word.end):
        return True
    if k + 1 >= len(words) or text[word.end : words[k + 1].start] != ", ":
        return False
    return (
        k + 1 in phrase_starts
        or place_kinds().get(words[k + 1].key) != "city"
        and (words[k + 1].key in place_kinds())
    )


def generalised(place: str) -> str:
    """What replaces a place where places are generalised: its kind ("[city]", "[region]",
    "[country]"; "[place]" for a name of several kinds), the same for every place of it."""
    key = " ".join(fold_case(word) for word in WORD.findall(place))
    return TOKENS[place_kinds().get(key, "place")]


def after_generalised(text: str, start: int) -> bool:
    """text[start:] follows a generalised place and a comma ("[city], Cal."): the state of a
    place, as the person finder reads a word after a place's name ("Los Angeles, Cal.")."""
    return _GENERALISED_THEN_COMMA.search(text, 0, start) is not None
