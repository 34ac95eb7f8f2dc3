"""Where people's pseudonyms come from: a space of names that never runs out.

A given or family name is drawn from ever larger spaces, each probed for a few names:

1. the Faker names of the store's locale (a German store's people get German names);
2. the Faker names of every locale, folded to ASCII (about 9,000 given names of each sex
   and 16,500 family names);
3. double-barrelled compounds of two names of the second space ("Reed-Holloway": tens of
   millions of them);
4. invented names of syllables ("Lorevani"), one syllable longer every `INVENTED_RUN`
   attempts: a pseudonym can always be found, so the vault never runs out.

Within a space the names are probed in an order the keyed rng permutes (a start and a stride
coprime to the space's size), so an attempt costs the same however full the vault is; the
first candidate is `rng.choice` of the locale's names, the draw before there were spaces. A
name may be a pseudonym only if it reads as a name and as nothing else (`fit`): "Will",
"Georgia" or "Inc" would be read, judged or kept as something else.
"""

from __future__ import annotations

import importlib
import itertools
import math
import pkgutil
import random
import unicodedata
from collections.abc import Iterator, Sequence
from functools import cache, partial

# names tried in a space before the next, larger one: few in the locale's, which a store
# of a few hundred people fills, so that a full one costs little
LOCAL_PROBES = 8
PROBES = 32
COMPOUNDS = 256  # compounds tried before invented names
INVENTED_RUN = 64  # invented names of one length tried before longer ones
SEXES = ("female", "male", "any", "last")
# Consonant-vowel syllables, and the endings that make a run of them read as a name
_SYLLABLES = tuple(c + v for c in "bdfgklmnprstvz" for v in "aeiou")
_ENDINGS = ("n", "s", "r", "l", "th", "a", "o")
# Legal forms: no one's name, though a name list or a language model may take one for it
LEGAL_FORMS = frozenset(
    {"inc", "llc", "llp", "ltd", "plc", "corp", "gmbh", "mbh", "kgaa", "sarl", "srl", "spa"}
    | {"limited", "limitada", "ltda", "group", "groep", "gruppen", "sons", "cie"}
)
_NOT_NAMES = LEGAL_FORMS | {"esq", "miss", "sir", "prof"}  # and titles


def candidates(locale: str, sex: str, rng: random.Random) -> Iterator[str]:
    """Pseudonyms for one original of `sex` (one of SEXES), best first and never ending;
    `rng` is keyed by the original. The first is `rng.choice` of the locale's names."""
    spaces = (
        (partial(local_names, locale, sex), LOCAL_PROBES),
        (partial(every_names, sex), PROBES),
    )
    for space, probes in spaces:
        names = space()  # the larger space is loaded only when a draw reaches it
        start = rng.randrange(len(names))
        stride = _stride(len(names), rng)
        for attempt in range(min(probes, len(names))):
            yield names[(start + attempt * stride) % len(names)]
    names = every_names(sex)
    for _ in range(COMPOUNDS):
        yield f"{rng.choice(names)}-{rng.choice(names)}"
    for syllables in itertools.count(3):
        for _ in range(INVENTED_RUN):
            yield invented(rng, syllables)


def invented(rng: random.Random, syllables: int) -> str:
    """A name no list holds: `syllables` syllables and an ending ("Lorevani", "Tasumen")."""
    while True:
        word = "".join(rng.choice(_SYLLABLES) for _ in range(syllables)) + rng.choice(_ENDINGS)
        if fit(word.capitalize()):
            return word.capitalize()


@cache
def local_names(locale: str, sex: str) -> tuple[str, ...]:
    """The names of the store's locale (en_US where Faker has none of `sex` for it)."""
    names = _faker_names([f"faker.providers.person.{locale}"], sex)
    return names or _faker_names(["faker.providers.person.en_US"], sex)


@cache
def every_names(sex: str) -> tuple[str, ...]:
    """The names of every Faker locale (about 0.5 s to read, once)."""
    import faker.providers.person as people

    modules = [f"{people.__name__}.{m.name}" for m in pkgutil.iter_modules(people.__path__)]
    return _faker_names(modules, sex)


def _faker_names(modules: Sequence[str], sex: str) -> tuple[str, ...]:
    if sex == "any":
        return tuple(sorted({*_faker_names(modules, "female"), *_faker_names(modules, "male")}))
    attribute = {"female": "first_names_female", "male": "first_names_male"}.get(sex, "last_names")
    listed: set[str] = set()
    for name in modules:
        try:
            names = getattr(importlib.import_module(name).Provider, attribute, ())
        except ImportError:
            continue
        if isinstance(names, (tuple, list, dict)):  # a dict weighs its names
            listed.update(names)
    return tuple(sorted({folded for folded in map(_ascii, listed) if fit(folded)}))


def fit(name: str) -> bool:
    """A name that reads as one and as nothing else: one Capitalised token of plain letters, no
    place, legal form or title, no function word, and not what the detector doubts is a name
    (a very common word that few sources list as a name: "Will", "Summer", "Page")."""
    from curator.anonymise.finders.name_data import name_data
    from curator.anonymise.finders.names import AMBIGUOUS, WIDESPREAD

    if not (len(name) >= 3 and name.isascii() and name.isalpha()):
        return False
    if not (name[0].isupper() and name[1:].islower()):
        return False
    key = name.casefold()
    data = name_data()
    if key in _NOT_NAMES or key in data.places or key in _function_words():
        return False
    sources = max(data.first.get(key, 0), data.last.get(key, 0))
    return data.most_ordinary(key) < AMBIGUOUS or sources >= WIDESPREAD


@cache
def _function_words() -> frozenset[str]:
    from curator.anonymise.finders.name_data import name_data

    return frozenset().union(*name_data().stop.values())


def _ascii(name: str) -> str:
    """ "Renée" -> "Renee"; a letter with no ASCII base ("Łukasz") stays and is refused."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _stride(size: int, rng: random.Random) -> int:
    """A step through `size` names that visits each once (coprime to it)."""
    if size < 2:
        return 1
    stride = rng.randrange(1, size)
    while math.gcd(stride, size) != 1:  # ends by size - 1 at the latest
        stride += 1
    return stride
