"""The normalised view of a text: what a person reads there, with a map back to its characters.

Personal data can hide behind characters a reader does not see or does not tell apart:
"Harr\\u200bison" (a zero-width space), "J\\u0435sse" (a Cyrillic e), "\\uff14\\uff11\\uff11\\uff11"
(full-width digits), "Fernan\\u0301dez" (a decomposed accent), "**Hea**ley" (markdown),
"Hea-\\nley" (a word hyphenated at a line break), "jesse dot hallam at example dot com". The
finders read the view, in which each of these reads as the plain word; every span they find
is mapped back to the original characters it came from, so the rewrite replaces the whole
original span, hidden characters included (personal.PersonalData.spans).

The view, in this order:

1. default-ignorable characters removed: format characters (Unicode category Cf: zero-width
   spaces and joiners, word joiners, soft hyphens, bidirectional controls, tags), variation
   selectors, the combining grapheme joiner and the Hangul fillers;
2. NFKC, cluster by cluster (a letter and its combining marks): full-width and other
   compatibility forms read as their plain letters and digits, decomposed accents compose;
3. confusable letters mapped to their Latin skeleton (Unicode TR39's confusables, as the
   confusable-homoglyphs package ships them), in a word that mixes them with Latin letters
   ("J\\u0435sse") or made only of them, not in capitals, in a text with no other letter of
   their script (a Russian or Greek text keeps its words, and so does a Greek place in
   capitals in an English sentence);
4. markup that splits a word removed from it: ``*``, ``**``, ``***`` or ``~~`` between two
   letters ("**Hea**ley" reads "Healey"), and an ``_emphasis_`` pair that opens or closes
   inside a word ("_Hea_ley"; not snake_case);
5. line-break hyphenation undone: "Hea-\\nley" reads "Healey", "Jean-\\nPierre" reads
   "Jean-Pierre";
6. e-mail addresses written out ("first dot last at example dot com", "name [at]
   example.com") read as the address they spell.

A text with nothing to fold (most texts) costs a few regex scans and has no view.
"""

from __future__ import annotations

import json
import re
import unicodedata
from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from curator.anonymise.finders.patterns import offline_tld_extract

LETTER = r"[^\W\d_]"
# 1. default-ignorable characters: Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties,
# assigned ones) and every format character (category Cf; tests check this list against the
# running Python's unicodedata)
IGNORABLE = re.compile(
    "[\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160"
    "\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164"
    "\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]+"
)
# 2. compatibility forms that mean something their plain letters do not
MEANINGFUL_FORMS = ("<super>", "<sub>", "<fraction>")
# 3. a letter of a script past Latin and IPA: only then can a text hold a confusable one
BEYOND_LATIN = re.compile(r"[^\W\d_\x00-\u036f]")
# 4. markup: emphasis and strike-through marks; an underscore pair around letters
MARK = re.compile(r"\*{1,3}|~~")
UNDERSCORED = re.compile(rf"_({LETTER}+)_")
# 5. a hyphen at the end of a line, inside a word
LINE_HYPHEN = re.compile(rf"(?<={LETTER})-[ \t]*\r?\n[ \t]*(?={LETTER})")
# 6. an e-mail address spelled out: "at" and "dot" in words or brackets
_BRACKETED_AT = r"\s*[\[({<]\s*at\s*[\])}>]\s*"
_BRACKETED_DOT = r"\s*[\[({<]\s*dot\s*[\])}>]\s*"
_AT = rf"(?:{_BRACKETED_AT}|\s+at\s+)"
_DOT = rf"(?:{_BRACKETED_DOT}|\s+dot\s+|\.)"
_LOCAL = r"[A-Za-z0-9](?:[A-Za-z0-9_%+-]*[A-Za-z0-9])?"
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
SPELLED_EMAIL = re.compile(
    rf"(?<![\w.@-])(?P<local>{_LOCAL}(?:{_DOT}{_LOCAL})*)(?P<at>{_AT})"
    rf"(?P<domain>{_LABEL}(?:{_DOT}{_LABEL})*{_DOT}[A-Za-z]{{2,24}})(?![\w@-])",
    re.I,
)
SEPARATOR = re.compile(rf"{_BRACKETED_AT}|{_BRACKETED_DOT}|\s+at\s+|\s+dot\s+", re.I)
# what a text needs for step 6 to change it, looked for as plain substrings (fast)
EMAIL_HINTS = ("dot", "Dot", "DOT", "at]", "at)", "at}", "at>", "AT]", "AT)", "AT}", "AT>")
# the rewriter, its polish passes and the detector's batches ask again for a text soon after;
# a view holds two 4-byte offsets per character (a page of 5,000: 40 kB), and most texts have
# none; a settle round goes through every text of an import in order, so the cache holds many
CACHED_TEXTS = 8192


@dataclass(frozen=True)
class View:
    """`text` as the finders read it; character i of it came from original[starts[i]:ends[i]]."""

    text: str
    starts: array[int]
    ends: array[int]
    original_length: int

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original characters of the view's [start, end), hidden ones between included."""
        if end <= start:
            at = self.starts[start] if start < len(self.starts) else self.original_length
            return at, at
        return self.starts[start], self.ends[end - 1]


def view_text(text: str) -> str:
    """What the finders read of `text`: its view's text, or the text itself."""
    view = view_of(text)
    return text if view is None else view.text


@lru_cache(maxsize=CACHED_TEXTS)
def view_of(text: str) -> View | None:
    """The normalised view of `text` (see the module's docstring), or None when it reads as
    it is written."""
    if not _may_fold_ascii(text) and (
        text.isascii()
        or (
            IGNORABLE.search(text) is None
            and unicodedata.is_normalized("NFKC", text)
            and BEYOND_LATIN.search(text) is None
        )
    ):
        return None  # most texts: a few scans at C speed, no copy
    folding = _Folding(text)
    if not text.isascii():
        folding.edit((m.start(), m.end(), "") for m in IGNORABLE.finditer(folding.text))
        if not unicodedata.is_normalized("NFKC", folding.text):
            folding.edit(_nfkc_edits(folding.text))
        folding.edit(_confusable_edits(folding.text))
    folding.edit(_markup_edits(folding.text))
    folding.edit(_hyphen_edits(folding.text))
    folding.edit(_email_edits(folding.text))
    return folding.view()


def _may_fold_ascii(text: str) -> bool:
    """Whether steps 4-6 could change a text: substring tests, at C speed."""
    return (
        "*" in text
        or "~" in text
        or "_" in text
        or ("\n" in text and "-" in text)
        or any(hint in text for hint in EMAIL_HINTS)
    )


class _Folding:
    """A text being folded, step by step, each character with the original range it reads."""

    def __init__(self, text: str) -> None:
        self.original = text
        self.text = text
        self._starts: list[int] | None = None  # None while nothing changed: the identity
        self._ends: list[int] | None = None

    def edit(self, edits: Iterable[tuple[int, int, str]]) -> None:
        """Apply (start, end, replacement) edits of the current text, in order, disjoint: each
        replacement character reads the whole original range its edit replaced."""
        edits = list(edits)
        if not edits:
            return
        starts = self._starts if self._starts is not None else list(range(len(self.text)))
        ends = self._ends if self._ends is not None else list(range(1, len(self.text) + 1))
        pieces: list[str] = []
        new_starts: list[int] = []
        new_ends: list[int] = []
        cursor = 0
        for start, end, replacement in edits:
            pieces.append(self.text[cursor:start])
            new_starts += starts[cursor:start]
            new_ends += ends[cursor:start]
            if replacement:
                pieces.append(replacement)
                low = starts[start] if start < end else _point(starts, ends, start)
                high = ends[end - 1] if start < end else low
                new_starts += [low] * len(replacement)
                new_ends += [high] * len(replacement)
            cursor = end
        pieces.append(self.text[cursor:])
        new_starts += starts[cursor:]
        new_ends += ends[cursor:]
        self.text = "".join(pieces)
        self._starts, self._ends = new_starts, new_ends

    def view(self) -> View | None:
        if self._starts is None or self._ends is None or self.text == self.original:
            return None
        return View(self.text, array("i", self._starts), array("i", self._ends), len(self.original))


def _point(starts: list[int], ends: list[int], at: int) -> int:
    return starts[at] if at < len(starts) else (ends[-1] if ends else 0)


def _nfkc_edits(text: str) -> list[tuple[int, int, str]]:
    """A cluster (a character and the combining marks after it) whose NFKC differs; one that
    holds a superscript, subscript or fraction is only composed (NFC): "5º A" and "m²" mean
    what they say, and "5o A" is no Spanish floor."""
    edits = []
    i = 0
    while i < len(text):
        j = i + 1
        while j < len(text) and unicodedata.combining(text[j]):
            j += 1
        cluster = text[i:j]
        if not cluster.isascii():
            meaningful = any(_meaningful_form(c) for c in cluster)
            folded = unicodedata.normalize("NFC" if meaningful else "NFKC", cluster)
            if folded != cluster:
                edits.append((i, j, folded))
        i = j
    return edits


@lru_cache(maxsize=4096)
def _meaningful_form(char: str) -> bool:
    return unicodedata.decomposition(char).startswith(MEANINGFUL_FORMS)


def _confusable_edits(text: str) -> list[tuple[int, int, str]]:
    if BEYOND_LATIN.search(text) is None:
        return []  # a letter past Latin's blocks: without one, no table to load
    table = confusable_letters()
    if _confusable().search(text) is None:
        return []
    scripts = {table[c][1] for c in text if c in table}
    # a script the text also writes with letters that have no Latin look-alike is its own
    written = {s for s in scripts if any(_script(c) == s and c not in table for c in text)}
    edits = []
    for word in re.finditer(rf"{LETTER}+", text):
        letters = word.group()
        mapped = [c in table for c in letters]
        if not any(mapped):
            continue
        mixed = any(c.isascii() for c in letters)
        # made only of look-alikes, in a text that writes their script nowhere else; not in
        # capitals, which is how a Greek or Cyrillic place stands in a Latin text ("grew up
        # in ΜΑΚΟΥΝΤΑ"), where a disguised name is Capitalised like any other
        disguised = (
            all(mapped)
            and not {table[c][1] for c in letters} & written
            and not (len(letters) > 1 and letters.isupper())
        )
        if mixed or disguised:
            edits += [
                (word.start() + k, word.start() + k + 1, table[c][0])
                for k, c in enumerate(letters)
                if c in table
            ]
    return edits


@cache
def confusable_letters() -> dict[str, tuple[str, str]]:
    """Non-Latin letter -> (the ASCII letter it looks like, its script), from TR39's
    confusables as the confusable-homoglyphs package ships them (offline, in its wheel)."""
    data = json.loads(
        resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    )
    table = {}
    for char, glyphs in data.items():
        if len(char) != 1 or char.isascii() or not char.isalpha():
            continue
        script = _script(char)
        if script == "LATIN":  # "ı", "ɑ": letters of Latin-script languages, not disguises
            continue
        looks = [g["c"] for g in glyphs if len(g["c"]) == 1 and g["c"].isascii()]
        looks = [c for c in looks if c.isalpha()]
        if not looks:
            continue
        same_case = [c for c in looks if c.isupper() == char.isupper()]
        chosen = (same_case or looks)[0]
        if char.isupper() and chosen == "l":
            chosen = "I"  # TR39's skeleton of "I" is "l"; a capital stays a capital
        table[char] = (chosen, script)
    return table


@cache
def _confusable() -> re.Pattern[str]:
    return re.compile(f"[{re.escape(''.join(confusable_letters()))}]")


def _script(char: str) -> str:
    return unicodedata.name(char, "UNKNOWN").split(" ")[0]


def _markup_edits(text: str) -> list[tuple[int, int, str]]:
    edits = []
    if "*" in text or "~" in text:
        for m in MARK.finditer(text):
            start, end = m.span()
            if 0 < start and end < len(text) and text[start - 1].isalpha() and text[end].isalpha():
                # inside a word: the word's marks go, those opening and closing it too
                while start > 0 and (text[start - 1].isalpha() or text[start - 1] in "*~"):
                    start -= 1
                while end < len(text) and (text[end].isalpha() or text[end] in "*~"):
                    end += 1
                edits += [(k.start(), k.end(), "") for k in MARK.finditer(text, start, end)]
    if "_" in text:
        for m in UNDERSCORED.finditer(text):
            before = text[m.start() - 1] if m.start() else " "
            after = text[m.end()] if m.end() < len(text) else " "
            # "Hea_ley_" or "_Hea_ley": one underscore of the pair inside the word; snake_case
            # ("user_id_x") has letters on both sides, and a lone "_word_" is emphasis only
            if before.isalpha() != after.isalpha() and not (before.isdigit() or after.isdigit()):
                if before != "_" and after != "_":
                    edits += [(m.start(), m.start() + 1, ""), (m.end() - 1, m.end(), "")]
    return _disjoint(edits)


def _hyphen_edits(text: str) -> list[tuple[int, int, str]]:
    if "\n" not in text or "-" not in text:
        return []
    edits = []
    for m in LINE_HYPHEN.finditer(text):
        # a lower-case letter continues the word; a capital follows a hyphen that is one
        kept = "" if text[m.end()].islower() else "-"
        edits.append((m.start(), m.end(), kept))
    return edits


def _email_edits(text: str) -> list[tuple[int, int, str]]:
    if not any(hint in text for hint in EMAIL_HINTS):
        return []
    edits = []
    for m in SPELLED_EMAIL.finditer(text):
        separators = list(SEPARATOR.finditer(m.group()))
        bracketed = any(not s.group().strip().isalpha() for s in separators)
        spelled_dot = any(s.group().strip().lower() == "dot" for s in separators)
        if not bracketed and not spelled_dot:
            continue  # "look at example.com": a plain "at" alone spells no address
        address = SEPARATOR.sub(_separator, m.group())
        if offline_tld_extract()(address.rpartition("@")[2]).suffix == "":
            continue
        edits += [(m.start() + s.start(), m.start() + s.end(), _separator(s)) for s in separators]
    return edits


def _separator(match: re.Match[str]) -> str:
    return "@" if "at" in match.group().lower() else "."


def _disjoint(edits: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    for edit in sorted(edits):
        if not out or edit[0] >= out[-1][1]:
            out.append(edit)
    return out
