"""Where a known name that is also a word or a place is that name.

A vault learns originals from every source of a store. A name of one word that is also a word
or a place ("Page", "Will", "Georgia", a first name a Federal Register page taught as "Doc" or
"Display"; "Rose" written "rose") then turns up in later texts meaning the word: "see Page 3",
"MAX Display", "doc_type". Rewriting it wherever its letters occur spread one guess through the
whole store. Such an original is personal data only where its context says it is that name: a
detector read a person there (cues, capitals, a listed name beside it), or it stands next to a
title or to another word of a name the vault knows; a word of a place name ("Diego" in "SAN
DIEGO") is no one's but where a detector reads a person. A multi-word name, a rare word
("Kowalczyk"), a name that many sources list ("Maria"), a username, an e-mail or an id needs no
context: its letters are the person.

A name this command's own input taught the vault ("Yara" of "Yara Haddad" earlier in the
same thread) needs no context: the rule is about words other sources taught.

The rewriter and every checker read this through `personal.PersonalData`: one rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from curator.anonymise.finders.name_cues import TITLES
from curator.anonymise.finders.name_data import fold_case, name_data
from curator.anonymise.finders.places import place_names
from curator.anonymise.kinds import NAME_PART_KINDS
from curator.anonymise.terms import TOKEN

if TYPE_CHECKING:
    from curator.anonymise.finders.detector import Hit
    from curator.anonymise.vault import Vault

EVERYDAY = 3.5  # Zipf frequency from which a word is everyday in some language (names.ORDINARY)
# The word lists count names too ("john" 5.4): a word this common that few sources list as a
# name is a word first ("page" 5.1, two sources; names.AMBIGUOUS and names.WIDESPREAD)
AMBIGUOUS = 4.3
WIDESPREAD = 6
# the kinds whose single-word originals name a person by themselves
PERSON_KINDS = NAME_PART_KINDS | {"person"}
# a city's name is a word first unless this many sources list it as a given name ("David";
# names.PERSON_BEFORE_CITY), or two as a family name
CITY_BEFORE_NAME = 10
NEIGHBOUR_GAP = 3  # characters between two words of one name: " ", ". ", " - "
NAME_GAP = frozenset(" .-\u00a0")  # what may stand between them (a comma ends a name)


@lru_cache(maxsize=1 << 14)
def is_word_first(key: str) -> bool:
    """A place ("georgia", a city: "springfield", "chelsea"), or a word much more common than
    the sources that list it as a name ("page", "display", "doc"), as `fold_case` keys it."""
    data = name_data()
    names = max(data.first.get(key, 0), data.last.get(key, 0))
    town = (
        key in data.cities
        and data.first.get(key, 0) < CITY_BEFORE_NAME
        and data.last.get(key, 0) < 2  # "Springfield" (one source), not "Jackson" or "Irvine"
    )
    if key in data.places or town:
        return True
    return data.most_ordinary(key) >= AMBIGUOUS and names < WIDESPREAD


@lru_cache(maxsize=1 << 14)
def is_everyday(key: str) -> bool:
    """An everyday word of some language the lists know ("rose", "claudio" in Spanish)."""
    return name_data().most_ordinary(key) >= EVERYDAY


def needs_context(original: str, kind: str, written: str) -> bool:
    """True when `original`, written here as `written`, is one word of a person's name that
    is also a word: one that is a word first, or a name written in lower case that is also an
    everyday word ("rose", "bill"). It is then personal only where `names_someone_here`."""
    if kind not in PERSON_KINDS:
        return False
    words = TOKEN.findall(original)
    if len(words) != 1:
        return False
    key = fold_case(words[0])
    return is_word_first(key) or (written.islower() and is_everyday(key))


def in_place_name(text: str, start: int, end: int, kind: str) -> bool:
    """text[start:end], an original of `kind`, is a word of a place name here: "Diego" in "SAN
    DIEGO", "Carolina" in "North Carolina" name no one there."""
    return kind in PERSON_KINDS and any(s <= start and end <= e for s, e in _places_in(text))


@lru_cache(maxsize=64)  # a text's originals are judged one after the other
def _places_in(text: str) -> list[tuple[int, int]]:
    return place_names(text)


def names_someone_here(
    text: str,
    start: int,
    end: int,
    hits: Sequence[Hit],
    vault: Vault | None,
    until: int | None = None,
) -> bool:
    """True when text[start:end] is used as a name: inside a person hit of the detector, or
    beside a title or another word of a name the vault knows that is no word first."""
    if any(h.kind == "person" and h.start < end and start < h.end for h in hits):
        return True
    for word in (_word_before(text, start), _word_after(text, end)):
        if not word:
            continue
        if fold_case(word) in TITLES:
            return True
        if (
            vault is not None
            and vault.is_original_token(word, until)
            and not is_word_first(fold_case(word))
        ):
            return True
    return False


def _word_before(text: str, start: int) -> str:
    gap_start = start
    while gap_start > 0 and start - gap_start < NEIGHBOUR_GAP and text[gap_start - 1] in NAME_GAP:
        gap_start -= 1
    if gap_start == start:
        return ""
    word_start = gap_start
    while word_start > 0 and text[word_start - 1].isalnum():
        word_start -= 1
    return text[word_start:gap_start]


def _word_after(text: str, end: int) -> str:
    gap_end = end
    while gap_end < len(text) and gap_end - end < NEIGHBOUR_GAP and text[gap_end] in NAME_GAP:
        gap_end += 1
    if gap_end == end:
        return ""
    word_end = gap_end
    while word_end < len(text) and text[word_end].isalnum():
        word_end += 1
    return text[gap_end:word_end]
