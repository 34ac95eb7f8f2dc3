"""The offline name and word lists under curator/data/names/, loaded once on first use.

scripts/build_name_data.py writes them (see curator/data/names/README.md for sources and
licences). Nothing here runs at import time: `curator --help` never reads the lists.
"""

from __future__ import annotations

import gzip
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

LANGS = ("en", "fr", "de", "es")


@lru_cache(maxsize=200_000)  # words repeat across texts; normalising each is most of reading one
def fold_case(word: str) -> str:
    """The lists' key for a word: NFC, casefolded, accents kept ("JÜRGEN" -> "jürgen"): the
    lists tell "José" from "jose" (vault keys drop accents: terms.fold_case_and_accents)."""
    return unicodedata.normalize("NFC", word).casefold()


@dataclass(frozen=True)
class NameData:
    first: dict[str, int]  # given name -> how many sources (Faker locales, the US census) list it
    last: dict[str, int]  # family name -> the same
    places: frozenset[str]  # one-word countries, states, provinces and regions ("georgia")
    cities: frozenset[str]  # one-word cities of GeoNames ("chelsea", "irvine")
    # the first word of a place name of several words -> the words of each, longest first
    # ("los" -> ("los", "angeles"), ...; "north" -> ("north", "carolina"), ...)
    place_phrases: dict[str, tuple[tuple[str, ...], ...]]
    zipf: dict[str, dict[str, float]]  # LANG -> word -> how common it is as a word (Zipf scale)
    stop: dict[str, frozenset[str]]  # LANG -> its function words ("the", "und", "de")

    def ordinary(self, word: str, lang: str, threshold: float = 3.5) -> bool:
        """An everyday word of `lang` (at 3.5: used about 3 times per million words or more)."""
        return self.zipf[lang].get(word, 0.0) >= threshold

    def most_ordinary(self, word: str) -> float:
        """Its Zipf frequency in the language that uses it most."""
        return max(self.zipf[lang].get(word, 0.0) for lang in LANGS)


def _groups(name: str) -> list[tuple[list[str], list[str]]]:
    """(key fields, words) for each line of a name-data file."""
    data = resources.files("curator") / "data" / "names" / name
    with gzip.open(data.open("rb"), "rt", encoding="utf-8") as handle:
        lines = [line.rstrip("\n").split("\t") for line in handle if not line.startswith("#")]
    return [(fields[:-1], fields[-1].split(" ")) for fields in lines]


def _places() -> list[tuple[str, str]]:
    """(kind, name) of every place of places.txt.gz."""
    data = resources.files("curator") / "data" / "names" / "places.txt.gz"
    with gzip.open(data.open("rb"), "rt", encoding="utf-8") as handle:
        lines = [line.rstrip("\n").split("\t") for line in handle if not line.startswith("#")]
    return [(kind, name) for kind, name in lines]


@cache
def name_data() -> NameData:
    """Loaded on first use (~0.2 s), then shared by every detector in the process."""
    people: dict[str, dict[str, int]] = {"first": {}, "last": {}, "place": {}}
    for (role, sources), words in _groups("people.txt.gz"):
        people[role].update(dict.fromkeys(words, int(sources)))
    zipf: dict[str, dict[str, float]] = {lang: {} for lang in LANGS}
    stop: dict[str, set[str]] = {lang: set() for lang in LANGS}
    for (table, lang, value), words in _groups("words.txt.gz"):
        if table == "zipf":
            zipf[lang].update(dict.fromkeys(words, int(value) / 10))
        else:
            stop[lang].update(words)
    single: dict[str, set[str]] = {"city": set(), "country": set(), "region": set()}
    phrases: dict[str, list[tuple[str, ...]]] = {}
    for kind, name in _places():
        parts = tuple(name.split(" "))
        if len(parts) == 1:
            single[kind].add(name)
        else:
            phrases.setdefault(parts[0], []).append(parts)
    return NameData(
        people["first"],
        people["last"],
        frozenset(people["place"]) | single["country"] | single["region"],
        frozenset(single["city"]),
        {first: tuple(sorted(p, key=len, reverse=True)) for first, p in phrases.items()},
        zipf,
        {lang: frozenset(w) for lang, w in stop.items()},
    )


@cache
def place_kinds() -> dict[str, str]:
    """Every place of the gazetteer, as `fold_case` keys its words joined by a space ("los
    angeles"), -> "city", "region" or "country"; "place" for a name of several kinds ("new
    york" is a state and a city, "georgia" a country and a state)."""
    kinds: dict[str, str] = {}
    for kind, name in _places():
        kinds[name] = kind if kinds.get(name, kind) == kind else "place"
    return kinds
