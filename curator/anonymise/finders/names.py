"""People named in free text, without a language model: name lists, case and context.

The lists (name_data.py) say which words are given or family names somewhere in the world
and how common each is as an ordinary word in English, French, German and Spanish. The
rules below decide, word by word, whether a name-shaped word here names a person:

1. Runs of Capitalised or UPPER-CASE words, initials and particles ("Youssef El Amrani",
   "HAROLD T. BRANSFORD", "K. Baumgartner", "Le Goff") are a person when they hold a known
   name and every other word is a name too or no everyday word ("Park Ji-woo" yes, "Rose
   Garden", "Deutsche Bahn", "Kessler Tooling GmbH" no).
2. A lone Capitalised given name is a person mid-sentence ("ask Dwayne instead") unless a
   determiner or a preposition of place makes it a thing ("the Victoria data centre", "im
   August"). At the start of a sentence it must be the subject of one ("Margaret is out",
   "Olivier a dit"), called to ("Anna, can you") or no everyday word: "Will you", "Grant
   access", "Hope so" stay. A family name alone that no language uses as a word is read
   the same way in running text ("unlike the Lindholm novel"); two or three Capitalised
   words no list knows at all are a name from outside the lists ("Akaho Yokoi").
3. Cues make anything name-shaped a person: titles ("Dr.", "Mme", "Herrn", "Sra."), labels
   ("Cardholder:", "Signé :", "Present:" lists), greetings ("hi maria", "merci noémie"),
   sign-offs ("Kind regards,\\n\\nHarriet Osei"), "said"/"asked", a role after a comma in
   capitals ("..., ESQ.", "..., WARDEN"), reversed list entries ("HOFFMANN, Jürgen").
4. Lower case only with a strong cue: a greeting, a name opening a message ("javier
   llámame"), a given+family pair ("sabine wendt"), or a given name no language uses as a
   word ("ok so chukwuemeka found it").
5. A word once found as part of a person's name is that person wherever else it stands
   Capitalised in the same text ("Ngozi Adeyemi ... Ngozi joined ... Ms. Adeyemi's work").
6. In a tabulation in capitals (a ballot's "CANDIDATE NAME 248"), where three or more
   entries of words and a count were found to be people, another entry of as many words
   opening with a given name that is no everyday word is a person too, whatever its other
   words mean elsewhere ("ROSA BLANCO 39").

A missed name leaks; a false one rewrites a word, and a rewritten everyday word changes the
meaning of a fixture: that is why rule 2 is the strict one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import NamedTuple

from curator.anonymise.finders import name_cues as cue
from curator.anonymise.finders.name_data import LANGS, NameData, fold_case, name_data
from curator.anonymise.finders.places import place_name_words
from curator.anonymise.finders.spec import NAME_HINT, FinderSpec

ORDINARY = 3.5  # Zipf frequency from which a word is an everyday word of a language
RARE_WORD = 3.0  # below this, a word no list names is a name of no list ("Okonkwo"), not a word
AMBIGUOUS = 4.3  # names are common words too ("kevin" 4.6): a name this common is doubtful
WIDESPREAD = 6  # ... unless this many sources (Faker locales, the census) list it as a name
RARE = 2.5  # below this in every language, a given name is no word at all ("chukwuemeka")
# sources naming a word a given name from which, alone, it is a person before a city ("David",
# "Charlotte"; not "Chelsea", "Vernon", "Modesto", which need a cue)
PERSON_BEFORE_CITY = 10
WORD = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*")
_LABEL = re.compile(r"([^\W\d_][\w\- ]*?)\s*:\s*$")
_BY = re.compile(r"\b(by)\s+$", re.I)
_LIST_HEAD = re.compile(r"([^\W\d_][\w\- ]*?)\s*:[^:\n]*[,;]\s*$")
_LINE_ENDS = re.compile(r"[ \t.]*(?:$|,)")
_COUNT = re.compile(
    r" \d+(?![^\s])"
)  # " 248" then a space or the line end: a vote count, no "2D", "12.50"
_ENTRY_START = re.compile(
    r"(?:\n|[ \t]#?\d+ )[ \t]*\Z"
)  # a line start or the count of the entry before
_CAPTION = re.compile(r"\b([A-Z][\w'’-]+) vs?\.? ([A-Z][\w'’-]+)")
_NUMBERED = re.compile(r" \d")
NAME_SHAPES = frozenset({"cap", "upper", "initial"})
SENTENCE_END = frozenset('.!?:;\x00•*>|"“”«»(')
_GOES_ON = re.compile(r"(?:[ \t]+[^\W\d_A-Z]|[.!?]?[ \t]*$)")
_PROSE_AFTER = re.compile(r"(?:'s\b|’s\b)?(?:[ \t]+[^\W\d_A-Z]|[,.!?;:]?[ \t]*$|[,.!?;:][ \t])")
LINE_START = re.compile(r"^[ \t]*(?:[-*•>]|\d+[.)])?[ \t]*$")


@dataclass(slots=True)
class Token:
    text: str
    start: int
    end: int
    key: str  # casefolded, without a possessive 's
    shape: str  # "cap" Maria, "upper" MARIA, "lower" maria, "initial" M., "other"
    first: int = 0  # sources naming it a given name (0: none)
    last: int = 0  # sources naming it a family name
    common: float = 0.0  # how common it is as a word in the text's language (Zipf)
    everyday: float = 0.0  # how common it is as a word in the language using it most
    function: bool = False  # "the", "und", "l'adresse": never a name
    place: bool = False  # a country, state or region ("Georgia"), or a word of a place name
    city: bool = False  # a one-word city ("Chelsea", "Irvine")
    in_place_name: bool = False  # a word of a place name of several ("Los Angeles"): no name
    possessive: bool = False  # "Sabines Vorschlag", "Dwayne's form"
    next_cap: bool = False  # a Capitalised word follows after one space (German: a noun)

    @property
    def named(self) -> bool:
        return bool(self.first or self.last)

    @property
    def ambiguous(self) -> bool:
        """A name that is also a very common word here and no widespread name ("Will", "Park";
        "José", "Rose" and "Frank" are common words, but listed by many name sources)."""
        return self.common >= AMBIGUOUS and max(self.first, self.last) < WIDESPREAD


@dataclass
class Text:
    text: str
    lang: str
    tokens: list[Token]
    found: list[tuple[int, int]] = field(default_factory=list)  # token index ranges [i, j)


def find_names(text: str) -> list[tuple[int, int, float]]:
    """(start, end, score) of every person named in `text`."""
    if not any(c.isalpha() for c in text):
        return []
    doc = _read(text, name_data())
    rules = (
        _cued,
        _reversed,
        _captions,
        _after_codes,
        _runs,
        _lone_given_names,
        _lower_case,
        _joined,
        _speakers,
        _enumerated,
        _listed,
        _echoes,
    )
    for rule in rules:
        for i, j in rule(doc):
            _mark(doc, i, j)
    spans = []
    for i, j in sorted(doc.found):
        spans.append((doc.tokens[i].start, doc.tokens[j - 1].end, 0.85))
    return _merge(spans)


# ------------------------------------------------------------------ reading


def guess_language(words: list[str], data: NameData) -> str:
    """The language whose function words the text uses most (English when none)."""
    counts = {lang: sum(map(data.stop[lang].__contains__, words)) for lang in LANGS}
    best = max(LANGS, key=lambda lang: (counts[lang], lang == "en"))
    return best if counts[best] else "en"


class Piece(NamedTuple):
    """A token as its word alone says it: where it sits in the word, its key and shape."""

    offset: int
    text: str
    key: str
    shape: str
    possessive: bool
    lone_capital: bool  # an initial where a dot follows ("K."), else "other"


@lru_cache(maxsize=200_000)  # words repeat across texts: each is read once
def _pieces(word: str) -> tuple[Piece, ...]:
    """The tokens of one word: a code of up to three capitals that is no name stands apart
    from the word it is hyphenated to ("CT-WERDERGAR", "CT-G. LIU"), a name does not
    ("JO-ANNE", "AL-ASSAD", "Jean-Pierre"); a possessive 's is no part of the name."""
    code, dash, rest = word.partition("-")
    parts: list[tuple[int, str]] = [(0, word)]
    if (
        dash
        and rest
        and len(code) <= 3
        and code.isupper()
        and rest[0].isupper()
        and _is_code(fold_case(code), name_data())
    ):
        parts = [(0, code), (len(code) + 1, rest)]
    pieces = []
    for offset, part in parts:
        possessive = part[-2:-1] in ("'", "’") and part[-1] in "sS" and len(part) > 3
        if possessive:
            part = part[:-2]
        shape = _shape(part)
        pieces.append(
            Piece(
                offset,
                part,
                fold_case(part),
                shape,
                possessive,
                shape == "other" and len(part) == 1 and part.isupper(),
            )
        )
    return tuple(pieces)


def _is_code(key: str, data: NameData) -> bool:
    return key not in data.first and key not in data.last and key not in cue.PARTICLES


def _read(text: str, data: NameData) -> Text:
    tokens = []
    for match in WORD.finditer(text):
        word_start = match.start()
        for offset, word, key, shape, possessive, lone_capital in _pieces(match.group()):
            start = word_start + offset
            end = start + len(word)
            next_char, prev_char = text[end : end + 1], text[start - 1 : start]
            if next_char.isdigit() or prev_char.isdigit() or prev_char == "/" and next_char == "/":
                shape = "other"  # "NPKAUS33", "12/Mar/2024"
            elif lone_capital and next_char == ".":
                shape = "initial"
            tokens.append(Token(word, start, end, key, shape, possessive=possessive))
    lang = guess_language([t.key for t in tokens], data)
    for token, after in zip(tokens, tokens[1:], strict=False):
        token.next_cap = after.shape == "cap" and text[token.end : after.start] == " "
    for token in tokens:
        if token.shape == "initial":
            token.end += 1  # the dot
            continue
        _look_up(token, lang)
    for before, token in zip(tokens, tokens[1:], strict=False):
        if (
            before.key in cue.PLACE_PREFIXES
            and token.shape in ("cap", "upper")
            and before.shape == token.shape
        ):
            token.place = True  # "Santa Cruz", "San José", "SAINT LOUIS"
    for i, j in place_name_words(text, tokens):
        for token in tokens[i:j]:
            token.place = token.in_place_name = True
    for before, token in zip(tokens, tokens[1:], strict=False):
        if (
            token.shape == "other"
            and token.last
            and token.text.isupper()
            and token.text.isalpha()
            and text[before.end : token.start] == " "
            and (
                before.shape == "initial"
                or len(before.text) == 1
                and before.text.isupper()
                or before.shape == "upper"
                and before.first > before.last
                and not before.ambiguous
                and not before.place
            )
        ):
            token.shape = (
                "upper"  # "G. LIU", "BETTY T YEE", "STEVE FOX": a short surname, no acronym
            )
    for token, after in zip(tokens, tokens[1:], strict=False):
        if _undotted_initials(token, after, text, lang, data):
            token.shape, token.first, token.last, token.common, token.everyday, token.function = (
                "initial",
                0,
                0,
                0.0,
                0.0,
                False,
            )
    return Text(text, lang, tokens)


def _undotted_initials(token: Token, after: Token, text: str, lang: str, data: NameData) -> bool:
    """Initials written without a dot before a name-shaped word: "EDMUND G BROWN", "FOR K
    DRUMMOND", "CR Briggs Corporation". A letter that is a word of the language ("A", "I",
    Spanish "Y") only before a name that is no word ("A VELEZ-GREEN", not "A BROWN DOG"); two
    capitals without a vowel only before a family name (not "HR Manager")."""
    if (
        token.shape == "initial"
        or text[token.end : after.start] != " "
        or after.shape not in ("cap", "upper")
        or after.function
    ):
        return False
    if text[token.start - 1 : token.start] not in ("", " ", "\n", "\t", "("):
        return False  # "AT&T Oakland", "B&H Whittier", "DV1-ROTHSCHILD"
    letters = token.text
    if len(letters) == 1 and letters.isupper():
        if token.key in data.stop[lang]:
            return after.named and after.everyday < RARE_WORD and not after.place
        return True
    vowelless = (
        len(letters) == 2
        and letters.isupper()
        and letters.isalpha()
        and not set(token.key) & set("aeiouyäöüéèáíóú")
    )
    return (
        vowelless
        and after.shape == "cap"
        and after.last > after.first
        and after.everyday < AMBIGUOUS
        and not after.place
    )


def _shape(word: str) -> str:
    """The shape a word has alone (see `_read` for initials, which a dot makes)."""
    if word.isupper() and len(word) > 1:
        return "upper"
    if word.islower():
        return "lower"
    if word[0].isupper() and any(c.islower() for c in word[1:]):
        return "cap"
    return "other"


def _look_up(token: Token, lang: str) -> None:
    key = token.key
    facts = _facts(key, lang)
    if lang == "de" and key.endswith("s") and token.shape == "cap" and token.next_cap:
        genitive = _facts(key[:-1], lang)
        if genitive.first > max(facts.first, facts.last):  # "Sabines Vorschlag"
            token.key, token.end, token.text, token.possessive = (
                key[:-1],
                token.end - 1,
                token.text[:-1],
                True,
            )
            facts = genitive
    (
        token.first,
        token.last,
        token.place,
        token.city,
        token.common,
        token.everyday,
        token.function,
    ) = facts
    if token.shape == "upper" and len(key) <= 3 and token.first < 3 and key not in cue.PARTICLES:
        token.shape = "other"  # "IP", "HR", "NAS": acronyms


class Facts(NamedTuple):
    first: int
    last: int
    place: bool
    city: bool
    common: float
    everyday: float
    function: bool


def _a_name_part(part: str, data: NameData) -> bool:
    """A listed name that is not one list's oddity among everyday words (as `_facts` reads it)."""
    listed = max(data.first.get(part, 0), data.last.get(part, 0))
    return listed > 1 or (listed == 1 and max(data.zipf[o].get(part, 0.0) for o in LANGS) < 4.0)


@lru_cache(maxsize=200_000)
def _facts(key: str, lang: str) -> Facts:
    """What the lists say about one casefolded word read in `lang` (cached: words repeat)."""
    data = name_data()
    first, last = data.first.get(key, 0), data.last.get(key, 0)
    if "-" in key:
        parts = key.split("-")
        if all(p in data.first for p in parts):
            first = max(first, *(data.first[p] for p in parts))
        elif not (first or last) and all(_a_name_part(p, data) for p in parts):
            last = 1  # "Smith-Jones", but not "Vice-President": one list's "President"
    common = data.zipf[lang].get(key, 0.0)
    everyday = max(data.zipf[other].get(key, 0.0) for other in LANGS)
    if "-" in key and not (first or last or common):
        parts = key.split(
            "-"
        )  # "JUDGE-SUPERIOR", "well-known": a compound of everyday words is one
        common = min(data.zipf[lang].get(part, 0.0) for part in parts)
        everyday = min(max(data.zipf[other].get(part, 0.0) for other in LANGS) for part in parts)
    if max(first, last) == 1 and everyday >= 4.0:
        first = last = 0  # one list's oddity, everyone's word: "Number", "Service"
    place = key in data.places or key.split("-")[0] in cue.PLACE_PREFIXES
    rest = key[2:]
    elided = (
        len(key) > 2
        and key[1] in "'’"
        and key[0] in "cdjlmnst"
        and (
            rest in data.stop[lang]
            or max(data.zipf[other].get(rest, 0.0) for other in LANGS) >= ORDINARY
        )
    )
    # "I've", "we'll", "they're", "don't": contractions, never names ("O'Brien" is one)
    contraction = (
        key[-3:-2] in ("'", "’")
        and key[-2:] in ("ve", "ll", "re")
        or (key[-2:-1] in ("'", "’") and key[-1] in "mdt")
    )
    stop = (
        key in data.stop[lang]
        and key not in cue.PARTICLES
        and key not in cue.NAMES_AMONG_FUNCTION_WORDS
    )
    return Facts(
        first,
        last,
        place,
        key in data.cities,
        common,
        everyday,
        elided or contraction or stop or key in cue.TITLES,
    )


# ------------------------------------------------------------------ context


def _gap(doc: Text, i: int) -> str:
    """The characters between token i-1 and token i (from the text start for the first)."""
    before = doc.tokens[i - 1].end if i else 0
    return doc.text[before : doc.tokens[i].start]


def _sentence_start(doc: Text, i: int) -> bool:
    if i == 0:
        return True
    gap = _gap(doc, i)
    if "\n" in gap and LINE_START.match(gap.rsplit("\n", 1)[-1]):
        return True
    stripped = gap.strip()
    return (
        bool(stripped)
        and (stripped[-1] in SENTENCE_END or stripped[0] in ".!?")
        and not doc.tokens[i - 1].shape == "initial"
    )


def _prev_word(doc: Text, i: int) -> str:
    """The word just before token i on the same line, casefolded ("" if none or punctuation
    between)."""
    if i == 0:
        return ""
    gap = _gap(doc, i)
    if gap.strip(" .") or "\n" in gap:
        return ""
    return doc.tokens[i - 1].key


def _next_word(doc: Text, j: int) -> str:
    """The word right after a span ending before token j ("" at a line end or punctuation)."""
    if j >= len(doc.tokens):
        return ""
    gap = _gap(doc, j)
    return doc.tokens[j].key if gap.strip() in ("", "'s", "’s") and "\n" not in gap else ""


def _after(doc: Text, j: int) -> str:
    """Text after the span that ends before token j, up to the line end."""
    end = doc.tokens[j - 1].end
    line_end = doc.text.find("\n", end)
    return doc.text[end : line_end if line_end >= 0 else len(doc.text)]


def _cue_before(doc: Text, i: int) -> str:
    """ "title", "label", "list", "greeting", "style" or "" for what stands right before token i."""
    gap = _gap(doc, i)
    if i and doc.tokens[i - 1].key in cue.TITLES and gap.strip(" .") == "" and "\n" not in gap:
        if len(doc.tokens[i - 1].key) == 1 and not (
            doc.tokens[i - 1].shape == "initial" and doc.tokens[i].shape == "cap"
        ):
            # "M. Kerbrat" (Monsieur), but "DANIEL M LEGISLATIVE", "DV8-M. FLIER": an initial
            return ""
        lower_title = doc.tokens[i - 1].shape == "lower"
        dotted = gap.startswith(".") and doc.tokens[i].shape == "cap"  # "ms. Martin" in chat
        return (
            "title" if not lower_title or dotted or doc.tokens[i - 1].key in ("don", "doña") else ""
        )
    if (
        i > 1
        and (doc.tokens[i - 2].key, doc.tokens[i - 1].key) in cue.STYLE_OF
        and gap == " "
        and _gap(doc, i - 1) == " "
    ):
        return "style"
    head = doc.text[doc.text.rfind("\n", 0, doc.tokens[i].start) + 1 : doc.tokens[i].start]
    # the patterns below end the line so far with ":", "by" or a list separator: a look at its
    # last character skips searching every long line from each of its positions
    last = head.rstrip()[-1:]
    label = (_LABEL.search(head) if last == ":" else None) or (
        _BY.search(head) if head[-1:].isspace() else None
    )
    if label:
        words = fold_case(label.group(1)).split()
        if words and (words[-1] in cue.LABELS or " ".join(words[-2:]) in cue.LABELS):
            return "list" if words[-1] in cue.LIST_LABELS else "label"
    list_head = _LIST_HEAD.search(head) if last in (",", ";") else None
    if (
        list_head
        and fold_case(list_head.group(1)).split()[-1:]
        and fold_case(list_head.group(1)).split()[-1] in cue.LIST_LABELS
    ):
        return "list"
    if _named_before(doc, i):
        return "label"
    if i and gap.strip(" ,") == "" and "\n" not in gap:
        prev = doc.tokens[i - 1].key
        if prev in cue.GREETINGS or (i > 1 and (doc.tokens[i - 2].key, prev) in cue.GREETING_PAIRS):
            return "greeting"
    return ""


def _named_before(doc: Text, i: int) -> bool:
    """ "says Andreassen", "named him Kenneth", "maiden name is Cockburn", "last name? Frost"."""
    if i == 0 or "\n" in (gap := _gap(doc, i)):
        return False
    tokens = doc.tokens
    prev = tokens[i - 1].key
    if gap == " " and prev in cue.NAMING_VERBS:
        return True
    if i > 1 and gap == " " and _gap(doc, i - 1) == " ":
        if prev in cue.NAMED_OBJECTS and tokens[i - 2].key in cue.NAMING_VERBS:
            return True
        if prev in ("is", "was") and tokens[i - 2].key in cue.NAME_NOUNS:
            return True
    return prev in cue.NAME_NOUNS and gap.strip() in ("?", ":")


def _signed_line(doc: Text, i: int) -> bool:
    """Token i opens the first non-empty line after a sign-off ("Kind regards,")."""
    if not _sentence_start(doc, i) or "\n" not in _gap(doc, i):
        return False
    before = doc.text[: doc.tokens[i].start].rstrip()
    last_line = before.rsplit("\n", 1)[-1].strip().rstrip(",.!").strip()
    return fold_case(last_line) in cue.SIGN_OFFS


# ------------------------------------------------------------------ rules


def _usable(token: Token, *, places: bool = False) -> bool:
    """Could be (part of) a name: shaped like one and no function or place word (a word of a
    place name only when `places`: after a title, "Mr. Benito Juárez")."""
    return (places or not token.in_place_name) and (
        token.shape in NAME_SHAPES
        and token.key not in cue.NOT_NAMES
        and not token.function
        or token.key in cue.PARTICLES
    )


def _segment(
    doc: Text, i: int, *, lines: bool = False, lower: bool = False, places: bool = False
) -> int:
    """End (exclusive) of the run of name-shaped words from token i: single spaces between
    them, at most five words; across one line break only when `lines` (a signed name).
    A `lower` run is lower-case known names ("sabine wendt")."""
    tokens = doc.tokens
    j = i + 1
    while (
        j < len(tokens)
        and j - i < 5
        and (
            _usable(tokens[j], places=places)
            if not lower
            else tokens[j].shape == "lower" and tokens[j].named and tokens[j].common < ORDINARY
        )
    ):
        gap = _gap(doc, j)
        if gap not in (" ", "\n") and not (gap == "/" and tokens[j].shape == "upper"):
            break
        if gap == "\n" and not (
            (lines and j - i == 1 and _LINE_ENDS.match(_after(doc, j + 1)))
            or _wrapped_name(doc, i, j)
        ):
            break  # "Signed: Giulia\nMoretti", not "M. Öztürk\nProtokoll: ..."
        j += 1
    while j > i + 1 and tokens[j - 1].key in cue.PARTICLES:
        j -= 1
    return j


def _wrapped_name(doc: Text, i: int, j: int) -> bool:
    """A line wrapped between a given name and a family name no list knows ("Signed by
    Harrison\\nKowalczyk for the team"): a Capitalised word that is no everyday word, place or
    label opening the next line goes on the name, when the sentence goes on or ends after it
    (not "Irvine\nBrinderson, L.P.", not "Okafor: tenant")."""
    given, after = doc.tokens[i], doc.tokens[j]
    return (
        j - i == 1
        and given.first > 0
        and given.shape == "cap"
        and after.shape == "cap"
        and after.everyday < ORDINARY
        and not after.place
        and _GOES_ON.match(_after(doc, j + 1)) is not None
    )


def _cued(doc: Text) -> Iterator[tuple[int, int]]:
    """Rule 3: whatever is name-shaped after a title, a label, a greeting or a sign-off."""
    tokens = doc.tokens
    for i, token in enumerate(tokens):
        lower = (
            token.shape == "lower"
            and token.first > 0
            and not token.function
            and token.key not in cue.NOT_NAMES
        )
        if not (_usable(token, places=True) or lower) or token.key in cue.CALENDAR:
            continue
        if token.key in cue.PARTICLES and not (i + 1 < len(tokens) and tokens[i + 1].last):
            continue
        kind = _cue_before(doc, i)
        if token.in_place_name and kind != "title":
            continue  # "Dear Los Angeles team", but "Mr. Benito Juárez"
        signed = not kind and not lower and _signed_line(doc, i)
        if not (kind or signed):
            if (
                not lower
                and _next_word(doc, i + 1) in cue.SPEECH_VERBS
                and (token.named or token.everyday < ORDINARY)
            ):
                yield i, i + 1  # "Lee said"
            continue
        if lower and kind not in ("greeting", "list"):
            continue
        if kind == "style" and not (token.named and token.everyday < ORDINARY and not token.place):
            continue  # "à la Waterman", not "à la Carte", "a la Russe"
        j = _segment(
            doc, i, lines=kind in ("label", "title") or signed, lower=lower, places=kind == "title"
        )
        if kind == "title" and token.shape == "upper":
            j = _capitals_after_title(doc, i, j)
        if kind in ("greeting", "list") and not _plausible_cued(tokens[i:j]):
            continue
        if kind != "title" and all(t.everyday >= ORDINARY and not t.named for t in tokens[i:j]):
            continue  # "Contact: Customer Relations"
        start = i
        while kind in ("label", "list") and start + 1 < j and _role_word(tokens[start]):
            start += 1  # "Employee: Superintendent Wendy Gudalewicz": the role is no name
        yield start, j


def _role_word(token: Token) -> bool:
    return not token.named and token.everyday >= ORDINARY and token.shape == "cap"


def _capitals_after_title(doc: Text, i: int, j: int) -> int:
    """In capitals nothing but the words' lists tells a name from what follows it: after a
    title the name goes on past given names and initials only ("SEN HALVERSEN WASHINGTON DC",
    "DR MARIA T OKAFOR")."""
    k = i + 1
    while (
        k < j
        and not doc.tokens[k].place
        and not (doc.tokens[k].city and doc.tokens[k].first < 2)  # "SEN WILSON SPRINGFIELD"
        and (
            doc.tokens[k - 1].first > doc.tokens[k - 1].last or doc.tokens[k - 1].shape == "initial"
        )
    ):
        k += 1
    return k


def _reversed(doc: Text) -> Iterator[tuple[int, int]]:
    """ "HOFFMANN, Jürgen" and "ALVARADO, Diego" opening a line: family name first; in
    capitals, given names and initials follow ("OKAFOR, CHIDI N", "LUND, K MARGARETA"),
    then whatever the row says next ("... LEGISLATIVE ASSISTANT")."""
    tokens = doc.tokens
    for i, token in enumerate(tokens):
        if token.shape != "upper" or not _sentence_start(doc, i) or token.function:
            continue
        j = _segment(doc, i)
        if (
            j == len(tokens)
            or _gap(doc, j) != ", "
            or not all(t.shape == "upper" for t in tokens[i:j])
        ):
            continue
        if tokens[j].shape == "cap" and tokens[j].first:
            end = _segment(doc, j)
            if end == len(tokens) or "\n" in _gap(doc, end) or _gap(doc, end).startswith(","):
                yield i, end
        elif all(t.named or t.everyday < ORDINARY for t in tokens[i:j]):
            end = _given_names_in_capitals(doc, j)
            if end > j:
                yield i, end


def _given_names_in_capitals(doc: Text, j: int) -> int:
    """End of "CHIDI N", "K MARGARETA", "ROBERT ALLEN" from token j: up to three given names
    and single letters, one of them a given name that is no place or month; j if none."""
    tokens = doc.tokens
    end, given = j, False
    while end < len(tokens) and end - j < 3 and (end == j or _gap(doc, end) == " "):
        token = tokens[end]
        if len(token.key) == 1 and token.text.isupper():
            end += 1  # "A" in "ARMER, DEREK A" is his initial, not the article
        elif (
            token.shape == "upper"
            and token.first
            and not token.place
            and token.key not in cue.CALENDAR
        ):
            given = given or token.first >= 2
            end += 1
        else:
            break
    return end if given else j


def _captions(doc: Text) -> Iterator[tuple[int, int]]:
    """Case captions: "Smith v. Oyelaran", "Doe vs. Roe"."""
    if " v" not in doc.text:
        return
    for match in _CAPTION.finditer(doc.text):
        for group in (1, 2):
            for i, token in enumerate(doc.tokens):
                if token.start == match.start(group) and not token.function:
                    yield i, i + 1


def _plausible_cued(run: list[Token]) -> bool:
    """After a greeting or in a list: a known name, or no everyday word ("hi all", "cc HR file")."""
    head = run[0]
    if head.shape == "lower":
        return head.named and head.common < 5.0 and len(head.key) > 2
    return head.named or head.everyday < ORDINARY


def _runs(doc: Text) -> Iterator[tuple[int, int]]:
    """Rule 1: runs of two or more name-shaped words holding a known name."""
    tokens = doc.tokens
    found = {k for i, j in doc.found for k in range(i, j)}  # by the cues and reversed rows before
    i = 0
    while i < len(tokens):
        if i in found or not _usable(tokens[i]) or tokens[i].shape not in NAME_SHAPES:
            i += 1  # a lower-case particle opens no name ("la nómina de Phoenix")
            continue
        if (
            tokens[i].shape == "initial"
            and i + 1 < len(tokens)
            and _cue_before(doc, i + 1) == "title"
        ):
            i += 1  # "M. Gaëtan Gagné": Monsieur, a title, no initial of his
            continue
        j = _segment(doc, i)
        span = _person_run(doc, i, j) or _initials_and_family_name(doc, i, j)
        if span:
            yield span
            i = span[1]
        else:
            i += 1


def _person_run(doc: Text, i: int, j: int) -> tuple[int, int] | None:
    tokens = doc.tokens
    while j - i > 1 and tokens[i].key in cue.GREETINGS and tokens[i].shape == "cap":
        i += 1  # "Ping Desiree Gilbert", "Thanks Jennifer Walsh": the cue is no part of the name
    run = tokens[i:j]
    if len(run) < 2 or all(t.shape == "initial" for t in run):
        return None
    if (
        _next_word(doc, j) in cue.ORG_AFTER
        or _after(doc, j).lstrip().startswith("&")
        or _ORG_AFTER_COMMA.match(_after(doc, j))
    ):
        return None  # "Kessler Tooling GmbH", "Halvorsen & Pike", "Zimmer Biomet, Inc."
    if run[0].key in cue.PARTICLES and (
        not any(t.first for t in run) or run[0].shape == "cap" and _sentence_start(doc, i)
    ):
        return None  # "La Paz", "Der Wolf", "El Corte Inglés", but "LE GOFF Yannick"
    if _prev_word(doc, i) in cue.NOT_PERSON_BEFORE[doc.lang]:
        return None
    if j < len(tokens) and tokens[j].place and _gap(doc, j) == ", ":
        return None  # "Sandy Springs, Georgia"
    if len(run) > 2 and run[-1].place and run[-2].shape != "initial":
        while len(run) > 1 and (run[-1].place or run[-1].key in cue.PLACE_PREFIXES):
            run, j = (
                run[:-1],
                j - 1,
            )  # "K DRUMMOND WASHINGTON", "Vasquez Santa Ana": the place ends the name, but
            # "CHARLES M. SEVILLA" is his
        if len(run) < 2:
            return None
    if run[-1].city and (
        run[0].place
        or run[0].first < 2
        and (
            run[0].everyday >= RARE_WORD
            or not run[0].named
            and _A_FIGURE_NEXT.match(doc.text, run[-1].end)
        )
    ):
        # "Capital America Irvine", "Wells Fargo": a city ends a place's or a word's run, and
        # a brand's before a figure ("MullinTBG Irvine 3": a table's company, town and count),
        # not "Daiki Kobayashi"'s or "Burak Kaya"'s
        run, j = run[:-1], j - 1
        if len(run) < 2:
            return None
    words = [t for t in run if t.shape != "initial" and t.key not in cue.PARTICLES]
    initials = any(t.shape == "initial" for t in run)
    if len(words) == 1 and sum(t.shape == "initial" for t in run[:2]) == 2:
        return (
            i,
            j,
        )  # "J. Q. Public": two initials make a name of any word (a section is "A. Overview")
    strong = [t for t in words if t.named and not t.ambiguous]
    weak = [t for t in words if t.named and t.ambiguous]
    unknown = [t for t in words if not t.named and t.everyday < RARE_WORD]
    everyday = [t for t in words if not t.named and t.everyday >= RARE_WORD]
    given = run[0].first >= 3 and not run[0].ambiguous and not _city_first(run[0])
    surname_after_initial = (
        len(everyday) == 1 and run[-1] is everyday[0] and run[-2].shape == "initial"
    )
    if (
        not words
        or everyday
        and not (given and (surname_after_initial or len(run) == 2 and run[1].common < 5))
    ):
        # "Customer Relations", "Banco Santander"; but "JOHN Q. PUBLIC", "Jean-Baptiste Carré"
        return None
    if not strong and not weak and _unlisted_name(doc, words):
        return i, j  # "Akaho Yokoi", "Peterke Barabás": no list knows them, nor any word
    if not strong and not (weak and (unknown or initials)):
        return None  # "Rose Garden"
    if all(t.place or not t.named for t in words) and not initials:
        return None  # "Santa Cruz"
    if (
        all(t.shape == "upper" for t in words)
        and not initials
        and not any(t.first and not t.ambiguous for t in words)
        and (weak or not unknown)
    ):
        if not all(t.named and t.everyday < RARE_WORD for t in words):
            # headings: "SUBPOENA SERVICE LIST", "PAYMENT AUTHORISATION"; but "OLUWASEUN BAKARE",
            # "NAIDU KARIUKI"
            return None
    return i, j


_A_FIGURE_NEXT = re.compile(r"[ \t]+\d")  # a table's next cell: "MullinTBG Irvine 3 Layoff"
# A company's legal form after a comma: "Balda C. Brewer, Inc.", "Ports America, LLC".
_ORG_AFTER_COMMA = re.compile(
    r",[ \t]*(?:"
    + "|".join(sorted(cue.ORG_AFTER - {"&", "co"}, key=len, reverse=True))
    + r")\b\.?",
    re.I,
)


def _unlisted_name(doc: Text, words: list[Token]) -> bool:
    """Two or three Capitalised words that no name list, no place list and no language's
    common words know: the shape of a name from outside the lists. Not in German, where
    every noun is Capitalised and a rare compound is a word ("Grundsteuerbescheid")."""
    return (
        doc.lang != "de"
        and 2 <= len(words) <= 3
        and all(
            t.shape == "cap"
            and not t.named
            and not t.place
            and not t.city
            and t.everyday == 0.0
            and len(t.key) > 2
            for t in words
        )
    )


def _initials_and_family_name(doc: Text, i: int, j: int) -> tuple[int, int] | None:
    """One or two initials and the word after them, whatever capitalised words follow
    ("J. HALVORSEN PUBLIC WORKS", "FOR K DRUMMOND KANSAS CITY"): a person when that word is
    a family name or no word of the text's language ("B. ZWIERLEIN"), not "A. Overview"."""
    tokens = doc.tokens
    k = i
    while k < j and k - i < 2 and tokens[k].shape == "initial":
        k += 1
    if k == i or k >= j or _cue_before(doc, i + 1) == "title":
        return None  # "M. Kerbrat": Monsieur, no initial
    word = tokens[k]
    if (
        word.shape not in ("cap", "upper")
        or word.place
        or word.function
        or word.key in cue.PARTICLES
    ):
        return None
    glued = i and tokens[i - 1].shape == "initial" and _gap(doc, i) == ""
    if (
        glued
    ):  # "M.E. Fox & Company" is a person; "Brinderson, L.P. Coalinga" and "U.S. Steel" are not
        return (i - 1, k + 1) if word.last and not word.ambiguous else None
    return (i, k + 1) if _surname_like(word) else None


def _surname_like(token: Token) -> bool:
    """A listed name that is no very common word, or no word of the text's language at all."""
    return token.named and not token.ambiguous or not token.named and token.common < RARE_WORD


def _after_codes(doc: Text) -> Iterator[tuple[int, int]]:
    """A surname in capitals hyphenated to a code ("DV1-HALVERSEN", "CT-ZWIERLEIN" on a
    ballot): no words around it, the code says a person is listed."""
    tokens = doc.tokens
    for i, token in enumerate(tokens):
        start = token.start
        if (
            token.shape != "upper"
            or start < 2
            or doc.text[start - 1] != "-"
            or not _usable(token)
            or token.place
        ):
            continue
        before = doc.text[start - 2]
        code = (
            before.isdigit()
            or i
            and tokens[i - 1].end == start - 1
            and tokens[i - 1].text.isupper()
            and _is_code(tokens[i - 1].key, name_data())
        )
        if code and _surname_like(token):
            yield i, i + 1


def _lone_given_names(doc: Text) -> Iterator[tuple[int, int]]:
    """Rule 2: a Capitalised given name on its own."""
    tokens = doc.tokens
    for i, token in enumerate(tokens):
        surname = not token.first and _lone_surname(token)
        if (
            token.shape != "cap"
            or not (token.first or surname)
            or token.place
            or token.key in cue.CALENDAR
            or not _usable(token)
        ):
            continue
        if token.first < 2 and token.everyday >= ORDINARY and not _subject(doc, i):
            continue  # one Faker locale's name, everyone's word: "Case", "Orange"
        if _city_first(token):
            continue  # "à Chelsea", "LLC Vernon 71": a town's name before a person's
        if i and (tokens[i - 1].place or tokens[i - 1].city) and _gap(doc, i) == ", ":
            continue  # "Los Angeles, Cal.", "Paris, Texas": the state of a place
        if token.everyday >= ORDINARY and _NUMBERED.match(doc.text, token.end):
            continue  # "Page 3 of 7", "Case 12": a word that labels a number
        if _prev_word(doc, i) in cue.NOT_PERSON_BEFORE[doc.lang] or _proper_noun_neighbour(doc, i):
            continue
        if (
            _sentence_start(doc, i)
            and token.common >= ORDINARY
            and not _subject(doc, i)
            and not _addressed(doc, i)
        ):
            continue  # "Will you", "Grant access", "Joy!"
        if surname and not (_subject(doc, i) if _sentence_start(doc, i) else _in_prose(doc, i)):
            continue  # a heading's, a table's or a product's rare word
        yield i, i + 1


def _in_prose(doc: Text, i: int) -> bool:
    """Token i stands between lower-case words of one line ("why is Vitór so", "leave me
    Teodata, four"): running text, not a table's cell or a heading."""
    tokens = doc.tokens
    if i == 0 or tokens[i - 1].shape != "lower" or _gap(doc, i) != " ":
        return False
    after = _after(doc, i + 1)
    return _PROSE_AFTER.match(after) is not None


_VOCATIVE = re.compile(r",[ \t]+[^\W\d_A-Z]")


def _addressed(doc: Text, i: int) -> bool:
    """A widespread given name opening a sentence and called to with a comma ("Anna, can
    you ..."): a person addressed, not "Will, ..." of a word (a name this common is no
    sentence adverb)."""
    token = doc.tokens[i]
    return token.first >= WIDESPREAD and _VOCATIVE.match(doc.text, token.end) is not None


def _lone_surname(token: Token) -> bool:
    """A family name alone ("Adamczyk", "Lindholm") that is no common word of any language
    and that two lists name, or one list and no language at all: read as a given name is,
    by rule 2, but only in running text. "Jira" (one list, a rare word), "Docker", "Kafka" and
    "Notch" stay; a word of no list ("Grafana", "Kingsmere") is as often a product or a place
    as a person, and stays too."""
    return (
        token.last > 0
        and token.everyday < RARE_WORD
        and (token.last >= 2 or token.everyday == 0.0)
        and not token.city
    )


def _city_first(token: Token) -> bool:
    """A town's name before a person's: "Chelsea", "Alma", "Vernon"; not "David"."""
    return token.city and token.first < PERSON_BEFORE_CITY


def _proper_noun_neighbour(doc: Text, i: int) -> bool:
    """Next to a Capitalised word that is no name ("Porsche Design", "Galeries Lafayette"),
    or before ", <state>" ("Jackson, Mississippi"): part of a place or brand."""
    tokens = doc.tokens
    neighbours = (
        [i + 1] if doc.lang != "de" else []
    )  # German nouns are Capitalised: "Jürgens Laptop"
    if i and not _sentence_start(doc, i - 1):
        neighbours.append(i - 1)  # "Appelle Yannick" opens a sentence
    for k in neighbours:
        if (
            0 <= k < len(tokens)
            and tokens[k].shape in ("cap", "upper")
            and not tokens[k].named
            and not tokens[k].function
        ):
            if _gap(doc, max(i, k)) == " ":
                return True
    return i + 1 < len(tokens) and tokens[i + 1].place and _gap(doc, i + 1) == ", "


def _subject(doc: Text, i: int) -> bool:
    """The name opening a sentence is its subject: "Margaret is out", "Olivier a dit"."""
    tokens = doc.tokens
    following = _next_word(doc, i + 1)
    if tokens[i].possessive or following.endswith("ed") and len(following) > 3:
        return True
    if following in cue.AND:
        return i + 2 < len(tokens) and tokens[i + 2].shape == "cap" and tokens[i + 2].named
    return following in cue.SUBJECT_NEXT


def _lower_case(doc: Text) -> Iterator[tuple[int, int]]:
    """Rule 4: lower-case names, only where the shape of the message says so."""
    tokens = doc.tokens
    for i, token in enumerate(tokens):
        if token.shape != "lower" or not token.first or len(token.key) < 3 or token.common >= 5.0:
            continue
        pair = (
            i + 1 < len(tokens)
            and _gap(doc, i + 1) == " "
            and tokens[i + 1].shape == "lower"
            and tokens[i + 1].last
        )
        if pair and token.common < ORDINARY and tokens[i + 1].common < ORDINARY:
            yield i, i + 2  # "sabine wendt"
        elif _opens_message(doc, i):
            yield i, i + 1  # "javier llámame", "jean-baptiste tu peux"
        elif token.everyday < RARE and len(token.key) >= 5:
            yield i, i + 1  # "ok so chukwuemeka found the root cause"


def _opens_message(doc: Text, i: int) -> bool:
    if i and "\n" not in _gap(doc, i):
        return False
    rest = doc.text[doc.tokens[i].end :].lstrip(" ")
    return rest[:1] in (",", ":", "?", "!") or _next_word(doc, i + 1) in _ADDRESSED


_ADDRESSED = frozenset(
    "you can could pls please tu peux pouvez du kannst bitte llámame puedes podrías".split()
)


def _joined(doc: Text) -> Iterator[tuple[int, int]]:
    """ "Liu and Kenji": a Capitalised name word joined by "and" to a person found."""
    tokens = doc.tokens
    found = {i for i, j in doc.found for i in range(i, j)}
    for i, token in enumerate(tokens):
        if (
            i in found
            or token.shape not in ("cap", "upper")
            or not token.named
            or token.place
            or _city_first(token)  # "les chemins Old Chelsea et Scott"
        ):
            continue
        if (
            i + 2 < len(tokens)
            and tokens[i + 1].key in cue.AND
            and i + 1 not in found
            and i + 2 in found
            and _gap(doc, i + 1) == " "
        ):
            yield i, i + 1
        elif (
            i >= 2
            and tokens[i - 1].key in cue.AND
            and i - 1 not in found  # the initial of "WILLIAM E FIELD", no Italian "e"
            and i - 2 in found
            and _gap(doc, i) == " "
        ):
            yield i, i + 1


def _name_shaped(token: Token) -> bool:
    """A Capitalised word that is a name no everyday word makes doubtful, or no word at all."""
    if token.shape != "cap" or token.place or token.function or token.key in cue.CALENDAR:
        return False
    if token.key in cue.NOT_NAMES or token.key in cue.LABELS:
        return False
    return token.named and not token.ambiguous or not token.named and token.everyday < RARE_WORD


def _speakers(doc: Text) -> Iterator[tuple[int, int]]:
    """A chat transcript's speaker: a name-shaped word opening a line, then a colon
    ("Joseph: What a wife."); not "Note:" or "Address:"."""
    tokens = doc.tokens
    for i, token in enumerate(tokens):
        if not (i == 0 or "\n" in _gap(doc, i)) or not _name_shaped(token):
            continue
        if doc.text[token.end : token.end + 1] == ":" and token.named:
            yield i, i + 1


def _enumerated(doc: Text) -> Iterator[tuple[int, int]]:
    """Items of a list of single words ("They had 6: Joseph, Maria, Selam and Bazyli") of which
    half or more are people found: every name-shaped item is one too."""
    tokens = doc.tokens
    found = {k for i, j in doc.found for k in range(i, j)}
    i = 0
    while i < len(tokens):
        items = [i]
        while nxt := _next_item(doc, items[-1]):
            items.append(nxt)
        if len(items) > 2 and 2 * len(found.intersection(items)) >= len(items):
            yield from ((k, k + 1) for k in items if k not in found and _name_shaped(tokens[k]))
        i = items[-1] + 1


def _next_item(doc: Text, k: int) -> int:
    """The token after item k of a list (", ", " and ", ", and "), 0 if the list ends there."""
    tokens = doc.tokens
    if k + 1 < len(tokens) and _gap(doc, k + 1) == ", ":
        k += 1
        if tokens[k].key not in cue.AND:
            return k
    elif not (k + 1 < len(tokens) and _gap(doc, k + 1) == " " and tokens[k + 1].key in cue.AND):
        return 0
    else:
        k += 1
    return k + 1 if k + 1 < len(tokens) and _gap(doc, k + 1) == " " else 0


def _listed(doc: Text) -> Iterator[tuple[int, int]]:
    """Rule 6: an entry of a list in capitals shaped like the people found in it."""
    found = {k for i, j in doc.found for k in range(i, j)}
    if len(found) < 2 * LIST_PEERS:
        return  # each person's entry holds two found words, and entries never share a word
    entries = list(_entries(doc))
    people = [(i, j) for i, j in entries if i in found and i + 1 in found]
    if len(people) < LIST_PEERS:
        return
    lengths = {j - i for i, j in people}
    for i, j in entries:
        if (
            j - i in lengths
            and not found.intersection(range(i, j))
            and _listed_person(doc.tokens[i:j])
        ):
            yield i, j


LIST_PEERS = 3  # people found in a list before its shape says who else is one


def _entries(doc: Text) -> Iterator[tuple[int, int]]:
    """Token ranges of two to four words in capitals that open a line or follow a count and
    are followed by a count: "JANE Q DOE 64 ROSA BLANCO 159"."""
    tokens = doc.tokens
    for i in range(len(tokens)):
        gap = _gap(doc, i)
        if not _capital_word(tokens[i]) or not (
            _ENTRY_START.search(gap) or i == 0 and not gap.strip()
        ):
            continue
        j = i + 1
        while j < len(tokens) and j - i < 4 and _gap(doc, j) == " " and _capital_word(tokens[j]):
            j += 1
        if j - i >= 2 and _COUNT.match(doc.text, tokens[j - 1].end):
            yield i, j


def _capital_word(token: Token) -> bool:
    return token.text.isalpha() and token.text.isupper()


def _listed_person(words: list[Token]) -> bool:
    """Opens with a given name that is no everyday word ("GRANT PROGRAM"); holds no function,
    place, street or calendar word ("AT LARGE", "SAN DIEGO", "JUNE")."""
    head = words[0]
    if not head.first or len(head.key) < 2 or head.everyday >= ORDINARY:
        return False
    return not any(
        t.function or t.place or t.key in cue.NOT_NAMES or t.key in cue.CALENDAR for t in words
    )


def _echoes(doc: Text) -> Iterator[tuple[int, int]]:
    """Rule 5: words of a person found once are that person elsewhere in the text."""
    tokens = doc.tokens
    found = {i for i, j in doc.found for i in range(i, j)}
    seen = {
        tokens[i].key
        for i in found
        if tokens[i].shape != "initial"
        and tokens[i].key not in cue.PARTICLES
        and len(tokens[i].key) > 2
    }
    if not seen:
        return
    for i, token in enumerate(tokens):
        if i in found or token.key not in seen or token.shape not in ("cap", "upper"):
            continue
        if token.in_place_name or _sentence_start(doc, i) and token.ambiguous:
            continue
        if token.city and not token.named or token.place:
            continue  # "Carlsbad" ending a company's run ("Alphatec Spine Carlsbad") names no one
        yield i, i + 1


def _mark(doc: Text, i: int, j: int) -> None:
    """Record tokens [i, j) as a person, without a leading particle ("de Phoenix")."""
    while i < j and doc.tokens[i].key in cue.PARTICLES and not doc.tokens[i].named:
        i += 1
    if i >= j:
        return
    doc.found.append((i, j))


def _merge(spans: list[tuple[int, int, float]]) -> list[tuple[int, int, float]]:
    merged: list[tuple[int, int, float]] = []
    for start, end, score in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]), max(score, merged[-1][2]))
        else:
            merged.append((start, end, score))
    return merged


@cache
def known_name_words() -> frozenset[str]:
    """Every listed given and family name, casefolded: "is this word some name at all?"."""
    data = name_data()
    stop = frozenset().union(*data.stop.values())
    return frozenset(w for w in (*data.first, *data.last) if w not in stop)


PEOPLE = FinderSpec("PERSON", lambda t: NAME_HINT.search(t) is not None, whole_text=find_names)


# ------------------------------------------------------------------ a language model's people


def words_of(text: str) -> list[Token]:
    """The words of `text` as the person finder reads them, each with what the lists and the
    text around it say of it (a word of a place name is marked as one)."""
    return _read(text, name_data()).tokens


def is_name_word(token: Token) -> bool:
    """Could be a word of a person's name by what is known of it, whoever proposes it: no
    function word or title, legal form, place or town, street, room or calendar word, no
    code, and no everyday word unless a list names it ("Rose" yes, "Widgets" no; lower case:
    only a name no language uses as a word, so "rose" and "bill" stay)."""
    if token.shape not in ("cap", "upper", "lower") or token.function:
        return False
    key = token.key
    if key in cue.NOT_NAMES or key in cue.CALENDAR or key in cue.ORG_AFTER:
        return False
    if token.place or token.in_place_name or _city_first(token):
        return False
    if token.shape == "lower":
        return token.everyday < ORDINARY and (token.named or token.everyday < RARE_WORD)
    return token.named or token.everyday < RARE_WORD


def is_lone_name(token: Token) -> bool:
    """A name word that names a person alone: none the rules doubt as a word first ("Will",
    "Page": a very common word few sources list as a name)."""
    return is_name_word(token) and not token.ambiguous
