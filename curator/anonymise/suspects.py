"""What the anonymiser kept but doubts: `curator audit --suspects`, for a person to decide.

No automated anonymiser reaches everything, so what was kept as written but looks like
personal data is listed, masked, for someone to confirm (`vault add`: a name, rewrite it
everywhere) or dismiss (`vault forget`: not personal). Four doubts:

- a capitalised word beside a pseudonym's word that is a listed name or no everyday word
  ("NICHOLAS F. SEVILLA": the first name was rewritten, the surname kept as a place);
- a name-shaped word: written like a name ("Kouno", not "KMA" or "TaylorMade"), no place,
  no word of any language's word list, beside another word that could be a name
  ("Tenchi Kouno"; a lone unknown word in a table is a company or a product more often);
- a kept digit run of a length personal numbers have: 7, 9-11 digits in groups of two or
  more (phones, SSNs: "450 0840"; a table's columns "1 178 0 14" are no run), 13-19 with a
  valid Luhn check digit (cards);
- a listed first or last name, or a word no word list knows, inside a source file name
  ("smith_lease.pdf", "maintenance-quellmire.jsonl").

Each suspect carries the kind its reason implies, what `vault add --kind` takes when a
person confirms it: a digit run with a valid card check digit is a credit card, one in an
SSN's groups (3-2-4) an SSN, any other a phone; a word is a person's name.

Never a suspect: what personal.PersonalData calls personal (that is a leak, for plain
`audit`), pseudonyms of this vault, structure (json_strings reads only text), the user's
keep terms and forgotten words or numbers, reserved example values. Only fixtures this vault
anonymised are read: another vault's pseudonyms would all look like unknown names.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from curator.anonymise import pseudonyms as gen
from curator.anonymise.finders.name_data import LANGS, fold_case, name_data
from curator.anonymise.vault import NAME_PARTICLES, TITLES

if TYPE_CHECKING:
    from curator.anonymise.finders.detector import Detector
    from curator.anonymise.keep import Keep
    from curator.anonymise.vault import Vault
    from curator.store import Store

BESIDE = "capitalised word beside a pseudonym"
NAME_SHAPED = "name-shaped word no word list knows"
DIGITS = "digit run of a personal number's length"
FILE_NAME = "a name or unknown word in a file name"

# what a person may confirm a suspect as (`vault add --kind`): a word as a name's kind, a
# digit run as a number's
WORD_KINDS = ("person", "first_name", "last_name", "organisation", "address", "username")
NUMBER_KINDS = ("phone", "credit_card", "ssn")

EVERYDAY = 3.5  # Zipf: about 3 uses per million words; below it a word is no everyday word
PHONE_SSN_LENGTHS = frozenset({7, 9, 10, 11})
_SSN_SHAPE = re.compile(r"\d{3}[ \-]\d{2}[ \-]\d{4}")
CARD_LENGTHS = range(13, 20)  # only with a valid check digit: else a product or parcel code
# a listed name this common as a word is that word beside a name ("JUDGE", "STATE", "City")
COMMON_NAME_WORD = 4.8
CONTEXT = 16  # characters shown each side of a suspect, themselves masked where personal

_WORD = re.compile(r"[^\W\d_]+")  # an apostrophe parts words: "L’ordre", "Child’s"
# digits in groups joined by one separator ("555 0134", "(212) 555-0134", "078-05-1120");
# a comma joins thousands ("1,178"), so a figure never reads as one run
# a decimal point or a slash makes a figure or a date of it
_DIGIT_RUN = re.compile(r"(?<![\w,./$])\+?\(?\d+\)?(?:[ \-]\(?\d+\)?)*(?![\w,/%$]|\.\d)")
_FILE_WORD = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True)
class Suspect:
    """One kept value a person should look at; `value` is never printed nor serialised."""

    fixture: str
    location: str  # inside the fixture: file, then the JSON path (pages[2], posts[0], fields)
    start: int  # character offsets in that text
    end: int
    reason: str
    masked: str  # the value as shown: its first character and its length
    context: str  # a few characters around it, words masked as the value is
    count: int = 1  # how often the same value is a suspect in this fixture, for this reason
    value: str = field(default="", repr=False, compare=False)
    kind: str = "person"  # what it is when confirmed (`vault add --kind`): suggested_kind

    @property
    def key(self) -> str:
        """A stable id of this suspect for a review task (no part of the value in it)."""
        seed = f"{self.fixture}\0{self.location}\0{self.start}\0{self.reason}"
        return hashlib.sha256(seed.encode("utf-8")).hexdigest()[:12]

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kinds a person may confirm it as, the suggested one first."""
        group = NUMBER_KINDS if self.reason == DIGITS else WORD_KINDS
        return (self.kind, *(k for k in group if k != self.kind))

    def as_dict(self) -> dict[str, object]:
        return {
            "fixture": self.fixture,
            "location": self.location,
            "start": self.start,
            "end": self.end,
            "reason": self.reason,
            "masked": self.masked,
            "context": self.context,
            "count": self.count,
            "key": self.key,
            "kind": self.kind,
        }

    def __str__(self) -> str:
        times = f" ({self.count} times)" if self.count > 1 else ""
        return (
            f"{self.fixture} {self.location} [{self.start}:{self.end}] {self.reason}: "
            f"{self.masked}{times} in {self.context!r} (if personal: a {self.kind})"
        )


def mask(value: str) -> str:
    """First character, the rest as dots, separators kept: 'S······ (7)'."""
    letters = sum(c.isalnum() for c in value)
    shown = value[0] + "".join("·" if c.isalnum() else c for c in value[1:])
    return f"{shown} ({letters})"


def find_suspects(
    store: Store, detector: Detector | None = None, ids: Iterable[str] | None = None
) -> list[Suspect]:
    """Every suspect in the fixtures this store's vault anonymised (of `ids`, when given), in
    a fixed order (fixture, location, offset); one per value, reason and fixture, with how
    often it occurs."""
    from curator.anonymise.audit import _fixture_texts, anonymised_here, fixture_groups
    from curator.anonymise.finders.detector import detector_for
    from curator.anonymise.personal import PersonalData
    from curator.anonymise.vault import Vault

    vault = Vault.load(store)
    if vault is None:
        return []
    wanted = store.ids() if ids is None else list(dict.fromkeys(ids))
    fixtures = [store.load_fixture(fixture_id) for fixture_id in wanted]
    mine, _ = anonymised_here(fixtures, vault)
    detector = detector if detector is not None else detector_for()
    drawn = frozenset(
        fold_case(w) for entry in vault.entries() for w in _WORD.findall(entry.pseudonym)
    )
    found: list[Suspect] = []
    groups = fixture_groups(store, fixtures, set(mine), vault)
    for judging, ids in groups.items():
        if not judging.names:
            continue
        keep = judging.keep
        personal = PersonalData(vault, detector, keep=keep, known_until=judging.until)
        pairs = [(w, t) for w, t in _fixture_texts(store, ids, vault) if t and t.strip()]
        spans = personal.spans_many([t for _, t in pairs])
        for (where, text), leaks in zip(pairs, spans, strict=True):
            taken = [(s.start, s.end) for s in leaks]
            taken += [(start, end) for start, end, _ in keep.kept_spans(text)]
            fixture_id, location = _split(where)
            found += [
                Suspect(
                    fixture_id,
                    location,
                    start,
                    end,
                    reason,
                    mask(value),
                    _context(text, start, end),
                    value=value,
                    kind=suggested_kind(reason, value),
                )
                for start, end, reason, value in suspects_in(text, vault, keep, location, drawn)
                if not any(s < end and start < e for s, e in taken)
            ]
    return _collapsed(found)


def suspects_in(
    text: str, vault: Vault, keep: Keep, location: str = "", drawn: frozenset[str] = frozenset()
) -> Iterator[tuple[int, int, str, str]]:
    """(start, end, reason, value) of each doubt in one text, before leaks are set aside.
    `drawn`: every word of the vault's pseudonyms (a town or street it made up included)."""
    if location.endswith("source_name"):
        yield from _file_name(text, vault, keep, drawn)
        return
    data = name_data()
    words = [(m.start(), m.end(), m.group()) for m in _WORD.finditer(text)]
    for i, (start, end, word) in enumerate(words):
        if not _capitalised(word) or _settled(word, vault, drawn):
            continue
        folded = fold_case(word)
        if _beside(text, words, i, lambda w: vault.is_pseudonym_token(w)) and (
            data.most_ordinary(folded) < EVERYDAY
            or (folded in data.first or folded in data.last)
            and data.most_ordinary(folded) < COMMON_NAME_WORD
        ):
            yield start, end, BESIDE, word
        elif (
            _name_shaped(word)
            and data.most_ordinary(folded) == 0.0
            and not _place(folded)
            and _beside(text, words, i, lambda w: _could_be_a_name(w, vault, drawn))
        ):
            yield start, end, NAME_SHAPED, word
    for match in _DIGIT_RUN.finditer(text):
        run = match.group()
        if _personal_length(run) and not _settled_number(run, vault):
            yield match.start(), match.end(), DIGITS, run


def suggested_kind(reason: str, value: str) -> str:
    """The kind (curator.anonymise.kinds) a suspect is when a person confirms it."""
    if reason != DIGITS:
        return "person"
    digits = re.sub(r"\D", "", value)
    if len(digits) in CARD_LENGTHS:  # a run this long is a suspect only with a valid check digit
        return "credit_card"
    return "ssn" if _SSN_SHAPE.fullmatch(value) else "phone"


def _personal_length(run: str) -> bool:
    digits = re.sub(r"\D", "", run)
    groups = re.findall(r"\d+", run)
    if len(digits) in CARD_LENGTHS:
        return all(len(g) >= 4 for g in groups) and gen.luhn_digit(digits[:-1]) == digits[-1]
    # a leading country or trunk code ("+1", "1 ") may be one digit; no other group is
    return (
        len(digits) in PHONE_SSN_LENGTHS
        and len(groups) <= 4
        and all(len(g) >= 2 for g in groups[1:])
    )


def _name_shaped(word: str) -> bool:
    """Written as a name is: a capital, then three or more lower-case letters."""
    return len(word) >= 4 and word[0].isupper() and word[1:].islower()


def _could_be_a_name(word: str, vault: Vault, drawn: frozenset[str]) -> bool:
    """A neighbour that makes a person of an unknown word: a title, or a capitalised word
    that is a listed name or no everyday word (and no pseudonym's)."""
    folded = fold_case(word)
    if folded.rstrip(".") in TITLES:
        return True
    data = name_data()
    return (
        _name_shaped(word)
        and not _settled(word, vault, drawn)
        and not _place(folded)
        and (folded in data.first or folded in data.last or data.most_ordinary(folded) == 0.0)
    )


def _file_name(
    text: str, vault: Vault, keep: Keep, drawn: frozenset[str]
) -> Iterator[tuple[int, int, str, str]]:
    data = name_data()
    stem = text.rsplit(".", 1)[0] if "." in text else text  # an extension ("jsonl") names nobody
    for match in _FILE_WORD.finditer(stem):
        word = match.group()
        folded = fold_case(word)
        if len(word) < 3 or _settled(word, vault, drawn) or keep.kept_spans(word):
            continue
        listed = folded in data.first or folded in data.last
        if (listed and data.most_ordinary(folded) < EVERYDAY) or (
            len(word) >= 4 and data.most_ordinary(folded) == 0.0 and not _place(folded)
        ):
            yield match.start(), match.end(), FILE_NAME, word


def _capitalised(word: str) -> bool:
    return len(word) >= 2 and word[0].isupper()


def _settled(word: str, vault: Vault, drawn: frozenset[str]) -> bool:
    """A word nobody need look at: a pseudonym's, a title, a function word, a forgotten one."""
    folded = fold_case(word)
    return (
        folded in drawn
        or vault.is_pseudonym_token(word)
        or vault.is_pseudonym(word)
        or vault.is_forgotten(word)
        or folded.rstrip(".") in TITLES
        or folded in NAME_PARTICLES
        or any(folded in name_data().stop[lang] for lang in LANGS)
    )


def _settled_number(run: str, vault: Vault) -> bool:
    return (
        vault.is_pseudonym(run)
        or vault.is_forgotten(run)
        or any(gen.is_reserved(kind, run) for kind in ("phone", "ssn", "credit_card"))
    )


def _place(folded: str) -> bool:
    data = name_data()
    return folded in data.places or folded in data.cities or folded in data.place_phrases


def _beside(
    text: str, words: list[tuple[int, int, str]], i: int, such: Callable[[str], bool]
) -> bool:
    """The word before or after (past initials, across spaces and commas) is `such`."""
    for step in (-1, 1):
        j = i + step
        while 0 <= j < len(words):
            gap = text[min(words[j][1], words[j - step][1]) : max(words[j][0], words[j - step][0])]
            if gap.strip(" ,.\u00a0") or "\n\n" in gap:
                break
            word = words[j][2]
            if len(word) == 1 and word.isupper():  # an initial: look past it
                j += step
                continue
            if such(word):
                return True
            break
    return False


def _split(where: str) -> tuple[str, str]:
    """'fixtures/<id>/content.json.pages[0].text' -> ('<id>', 'content.json.pages[0].text')."""
    folder, _, rest = where.rpartition("/")
    return folder.rpartition("/")[2], rest


def _collapsed(found: Iterable[Suspect]) -> list[Suspect]:
    """One suspect per (fixture, reason, value), at its first place, with how often it occurs."""
    first: dict[tuple[str, str, str], Suspect] = {}
    counts: dict[tuple[str, str, str], int] = {}
    for suspect in sorted(found, key=lambda s: (s.fixture, s.location, s.start, s.reason)):
        key = (suspect.fixture, suspect.reason, fold_case(suspect.value))
        counts[key] = counts.get(key, 0) + 1
        first.setdefault(key, suspect)
    return [replace(s, count=counts[key]) for key, s in first.items()]


def _context(text: str, start: int, end: int) -> str:
    """The characters around a suspect, itself masked, every other word that is no everyday
    word or is a listed name masked the same way, every digit shown as #."""
    before = text[max(0, start - CONTEXT) : start]
    after = text[end : end + CONTEXT]
    shown = f"{_masked_words(before)}[{mask(text[start:end])}]{_masked_words(after)}"
    return " ".join(shown.split())


def _masked_words(text: str) -> str:
    data = name_data()

    def one(match: re.Match[str]) -> str:
        word = match.group()
        folded = fold_case(word)
        if any(folded in data.stop[lang] for lang in LANGS) or (
            data.most_ordinary(folded) >= EVERYDAY
            and folded not in data.first
            and folded not in data.last
        ):
            return word
        return word[0] + "·" * (len(word) - 1)

    return re.sub(r"\d", "#", _WORD.sub(one, text))
