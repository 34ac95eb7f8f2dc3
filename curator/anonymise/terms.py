"""Finding known originals in text, case-insensitively and across word and line breaks.

Texts and originals are both cut into letter/digit tokens. An original matches a run of
text tokens whose concatenation equals its own, starting and ending on word boundaries, with
short non-letter gaps in between: "Claudio Costa" is found as "claudio.costa", "CLAUDIO
COSTA", "Claudio\\nCosta" and "Clau-\\ndio Costa". Matching walks a prefix set, so it costs
a few dict lookups per token however many originals the vault holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from curator.anonymise.pseudonyms import common_words

TOKEN = re.compile(r"[^\W_]+")
MAX_GAP = 4          # characters of punctuation allowed between the tokens of one match
MAX_SPACE = 40       # ...or of plain whitespace (a line break and the next line's indent)
MIN_KEY = 3          # shorter originals ("Al", "Jo") are not searched in free text
SOFT_GAP = re.compile(r"^(?:[-\u00ad]?\s*\n\s*|-|)$")

# Names that are also everyday English words (these, and Faker's lorem list): matched only
# when Capitalised, so "I will check" keeps its verb while "Will said" loses the name.
COMMON_WORDS = frozenset(
    """will may mark bill grant hope joy art rose june april august dawn faith frank gene
    guy jack jean king long young white black brown green gray grey hall lee page price
    rich ray sky summer autumn winter storm rusty sandy penny ruby pearl amber crystal
    chase hunter carter mason taylor cook baker miller smith walker wood stone field
    river lane dean earl don ron sam max bob rob pat van roy gay holly ivy iris lily
    daisy violet heather olive ginger sunny star angel bishop noble major early hill
    north south west east new will can sue""".split()
)


@dataclass(frozen=True)
class Term:
    original: str
    kind: str


@dataclass(frozen=True)
class TermMatch:
    start: int
    end: int
    term: Term


def _short_gap(gap: str) -> bool:
    return len(gap) <= MAX_GAP or (len(gap) <= MAX_SPACE and gap.isspace())


def squash(text: str) -> str:
    return "".join(t.casefold() for t in TOKEN.findall(text))


class TermIndex:
    """A set of known originals, each with the kind that decides its pseudonym."""

    def __init__(self, terms: Iterable[tuple[str, str]] = ()) -> None:
        self._keys: dict[str, list[Term]] = {}
        self._token_counts: dict[str, int] = {}
        self._prefixes: set[str] = set()
        for original, kind in terms:
            self.add(original, kind)

    def __len__(self) -> int:
        return len(self._keys)

    def terms(self) -> list[Term]:
        return [term for terms in self._keys.values() for term in terms]

    def add(self, original: str, kind: str) -> None:
        key = squash(original)
        if len(key) < MIN_KEY:
            return
        same = self._keys.setdefault(key, [])
        if any(t.original.casefold() == original.casefold() and t.kind == kind for t in same):
            return
        same.append(Term(original, kind))
        count = len(TOKEN.findall(original))
        self._token_counts[key] = min(count, self._token_counts.get(key, count))
        for i in range(1, len(key) + 1):
            self._prefixes.add(key[:i])

    def find(self, text: str) -> list[TermMatch]:
        """Non-overlapping matches, longest first from left to right."""
        if not self._keys:
            return []
        toks = [(m.start(), m.end(), m.group().casefold()) for m in TOKEN.finditer(text)]
        found: list[TermMatch] = []
        i = 0
        while i < len(toks):
            best = None
            joined = ""
            for j in range(i, len(toks)):
                if j > i and not _short_gap(text[toks[j - 1][1] : toks[j][0]]):
                    break
                joined += toks[j][2]
                if joined not in self._prefixes:
                    break
                if joined in self._keys and self._acceptable(text, toks, i, j, joined):
                    best = (j, self._keys[joined])
            if best is None:
                i += 1
                continue
            j, terms = best
            start, end = toks[i][0], toks[j][1]
            term = _closest(text[start:end], terms)
            # "Globex Inc." ends in a dot the tokens leave out: take it along when the text has it
            tail = term.original[len(term.original.rstrip(".)'")):]
            if tail and text.startswith(tail, end):
                end += len(tail)
            found.append(TermMatch(start, end, term))
            i = j + 1
        return found

    def _acceptable(self, text: str, toks: list, i: int, j: int, key: str) -> bool:
        # More text tokens than the original has: only where a word was broken (hyphen, newline).
        extra = (j - i + 1) - self._token_counts[key]
        if extra > 0:
            soft = sum(1 for k in range(i, j) if SOFT_GAP.match(text[toks[k][1] : toks[k + 1][0]]))
            if soft < extra:
                return False
        start = toks[i][0]
        mention = start > 0 and text[start - 1] == "@"  # "@coffee" is a username, whatever its case
        if (key in COMMON_WORDS or key in common_words()) and not text[start].isupper() and not mention:
            return False
        return True


def _closest(matched: str, terms: list[Term]) -> Term:
    """Of several originals with the same letters ("Claudio Costa", "claudio.costa"), the one
    spelled like the text, else the one with the same separators, else the first known."""
    folded = matched.casefold()
    for term in terms:
        if term.original.casefold() == folded:
            return term
    shape = TOKEN.sub("", matched)
    for term in terms:
        if TOKEN.sub("", term.original) == shape:
            return term
    return terms[0]
