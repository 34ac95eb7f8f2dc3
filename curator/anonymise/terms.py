"""Finding known originals in text, case-insensitively and across word and line breaks.

Texts and originals are both cut into letter/digit tokens, compared without case and
accents. An original matches a run of text tokens whose concatenation equals its own,
starting and ending on word boundaries, with short non-letter gaps in between: "Claudio
Costa" is found as "claudio.costa", "CLAUDIO COSTA", "Claudio\\nCosta", "Clau-\\ndio Costa"
and "Claudio's"; "Renée" as "@renee.dufresne". Matching walks a prefix set, so it costs a
few dict lookups per token however many originals the vault holds.

Names that are everyday words ("Will", "May", "Hope", "Bill") match only where they are
names: Capitalised, and not a modal, verb or month in its ordinary use ("Will do.", "May I",
"Hope you", "from May").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from curator.anonymise.kinds import NAME_PART_KINDS
from curator.anonymise.pseudonyms import common_words

TOKEN = re.compile(r"[^\W_]+")
MAX_GAP = 4  # characters of punctuation allowed between the tokens of one match
MAX_SPACE = 40  # ...or of plain whitespace (a line break and the next line's indent)
MIN_KEY = 3  # shorter originals are not searched in free text, but for name parts: "Vo", "Li"
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


MONTHS = frozenset(
    {
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    }
)
MONTH_LEAD = frozenset(
    "in from since until till by of early late mid next last this before after during end".split()
)
# Words that follow a sentence-initial "Will", "May", "Hope", "Mark" used as a verb, not a name
VERB_FOLLOWERS = frozenset(
    """i you we he she it they me us him her them the a an this that these those my your our his
    their its some any all every do be have go get see come take make try let keep send check ask
    help look call need bring give tell put run use leave find feel not also still""".split()
)
CACHED_TEXT = 20_000  # characters: longer texts (whole pages) are tokenised anew, not held
SENTENCE_START = re.compile(r"(?:^|[.!?]\s+|\n\s*|[\"'(\u201c]\s*)$")


@lru_cache(maxsize=65536)
def fold_case_and_accents(token: str) -> str:
    """A token compared without case or accents: "Renée" and "RENEE" are "renee" (the name
    lists keep accents: finders.name_data.fold_case)."""
    if token.isascii():
        return token.lower()
    decomposed = unicodedata.normalize("NFKD", token.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def everyday_use(text: str, start: int, end: int) -> bool:
    """True when the Capitalised word text[start:end] is used as a word, not a name:
    a month after "in"/"from" or next to a number, or a sentence opened with a modal or
    verb ("Will do.", "May I close this?", "Hope you are well")."""
    word = fold_case_and_accents(text[start:end])
    before, after = text[max(0, start - 40) : start], text[end : end + 40]
    following = re.match(r"[ \t]+([^\W\d_]+)", after)
    preceding = re.search(r"([^\W\d_]+)[ \t]+$", before)
    if word in MONTHS and (
        (preceding and fold_case_and_accents(preceding.group(1)) in MONTH_LEAD)
        or re.match(r"[ \t]*\d", after)
        or re.search(r"\d[ \t]*,?[ \t]*$", before)
    ):
        return True
    opens = SENTENCE_START.search(text[max(0, start - 3) : start]) is not None if start else True
    return (
        opens
        and following is not None
        and fold_case_and_accents(following.group(1)) in VERB_FOLLOWERS
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
    return "".join(fold_case_and_accents(t) for t in TOKEN.findall(text))


def search_key(original: str, kind: str) -> str | None:
    """The letters `original` is found by in text, whatever separates its words ("k.ali" is
    found as "Kali" and "Ka Li"), or None when it is too short to be looked for."""
    key = squash(original)
    if len(key) < MIN_KEY and not (len(key) == 2 and kind in NAME_PART_KINDS and key.isalpha()):
        return None
    return key


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
        key = search_key(original, kind)
        if key is None:
            return
        same = self._keys.setdefault(key, [])
        if any(t.original.casefold() == original.casefold() and t.kind == kind for t in same):
            return
        same.append(Term(original, kind))
        count = len(TOKEN.findall(original))
        self._token_counts[key] = max(
            count, self._token_counts.get(key, count)
        )  # the most words any spelling has
        if kind == "id":
            # an id is written as it was made, so its own word breaks are the only places a
            # match can stand between: a prefix per letter cost some 3 KB an id, and a bulk
            # export teaches the vault one id per post
            joined = ""
            for token in TOKEN.findall(original):
                joined += fold_case_and_accents(token)
                self._prefixes.add(joined)
            return
        for i in range(1, len(key) + 1):
            self._prefixes.add(key[:i])

    def find(self, text: str) -> list[TermMatch]:
        """Non-overlapping matches, longest first from left to right."""
        if not self._keys:
            return []
        toks = text_tokens(text)
        prefixes = self._prefixes
        found: list[TermMatch] = []
        done = 0  # tokens before this are inside a match
        for i in [k for k, tok in enumerate(toks) if tok[2] in prefixes]:  # where a term can start
            if i < done:
                continue
            best = None
            joined = ""
            for j in range(i, len(toks)):
                if j > i and not _short_gap(text[toks[j - 1][1] : toks[j][0]]):
                    break
                joined += toks[j][2]
                if joined not in prefixes:
                    break
                if joined in self._keys and self._acceptable(text, toks, i, j, joined):
                    best = (j, self._keys[joined])
            if best is None:
                continue
            j, terms = best
            start, end = toks[i][0], toks[j][1]
            term = _closest(text[start:end], terms)
            # "Globex Inc." ends in a dot the tokens leave out: take it along when the text has it
            tail = term.original[len(term.original.rstrip(".)'")) :]
            if tail and text.startswith(tail, end):
                end += len(tail)
            found.append(TermMatch(start, end, term))
            done = j + 1
        return found

    def _acceptable(
        self, text: str, toks: Sequence[tuple[int, int, str]], i: int, j: int, key: str
    ) -> bool:
        # More text tokens than the original has: only where a word was broken (hyphen, newline).
        extra = (j - i + 1) - self._token_counts[key]
        if extra > 0:
            soft = sum(1 for k in range(i, j) if SOFT_GAP.match(text[toks[k][1] : toks[k + 1][0]]))
            if soft < extra:
                return False
        start = toks[i][0]
        if len(key) < MIN_KEY:
            # a two-letter name only written as one ("badge under Vo"), not opening a sentence
            word = text[start : toks[j][1]]
            return (
                word[0].isupper()
                and word[1:].islower()
                and not SENTENCE_START.search(text[max(0, start - 3) : start])
            )
        mention = start > 0 and text[start - 1] == "@"  # "@coffee" is a username, whatever its case
        if (key in COMMON_WORDS or key in common_words()) and not mention:
            return text[start].isupper() and not (i == j and everyday_use(text, start, toks[j][1]))
        return True


def text_tokens(text: str) -> tuple[tuple[int, int, str], ...]:
    """(start, end, folded) of every letter/digit run of `text`, in order."""
    return _tokens_cached(text) if len(text) <= CACHED_TEXT else _tokenize(text)


def _tokenize(text: str) -> tuple[tuple[int, int, str], ...]:
    if not text.isascii():
        return tuple(
            (m.start(), m.end(), fold_case_and_accents(m.group())) for m in TOKEN.finditer(text)
        )
    # lowering an ASCII text folds every token and keeps every offset; each token is found
    # from where the last one ended, as only non-token characters lie between them
    lowered = text.lower()
    find = lowered.find
    found = []
    end = 0
    for token in TOKEN.findall(lowered):
        start = find(token, end)
        end = start + len(token)
        found.append((start, end, token))
    return tuple(found)


# every decision holds several indexes (the input's terms, the vault's originals, its pseudonyms)
# and searches each text with all of them, once per rewriting pass: tokenise it once
_tokens_cached = lru_cache(maxsize=4096)(_tokenize)


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
