"""What an installed spaCy model (`--ner-model`) reads as people and organisations, through
the filters curator's own finders apply.

A model finds names the lists do not know ("Csenger Gyôry", a lower-case or lone name), and
makes mistakes the rules were written against: "Inc", "Page", "Will", "Springfield" or "Los
Angeles" read as a person, "Slack" as an organisation. Each word of a model's person must
be a name word by names.is_name_word (no everyday word, place, title, legal form, street or
calendar word), a word left alone must name someone alone (names.is_lone_name: not "Will"),
and a person beside a legal form ("Acme Widgets Inc.") is a company, no one's name. An
organisation is one by a legal form or by a word no language uses everyday; a place is
none, nor a name of ordinary words (a product, a team). Places are no personal data (the
street address finder finds addresses), so what a model reads as one is kept.

So what the model adds is judged as the rules' own hits are, and no word the rules keep can
become a name word of the vault through it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from curator.anonymise.finders import name_cues as cue
from curator.anonymise.finders.names import Token, is_lone_name, is_name_word, words_of
from curator.anonymise.name_space import LEGAL_FORMS

if TYPE_CHECKING:
    import spacy

# spaCy's labels -> Presidio's entities (GPE, LOC and FAC, places, are kept)
NER_ENTITIES = {"PERSON": "PERSON", "ORG": "ORGANIZATION"}
NER_SCORE = 0.85
LEGAL = cue.ORG_AFTER | LEGAL_FORMS
ORDINARY = 3.5  # Zipf frequency from which a word is everyday (names.ORDINARY)
# what may stand between a name and the legal form that makes it a company's: "Acme Inc",
# "Acme, Inc."
_BEFORE_LEGAL_FORM = frozenset({" ", ", "})

Span = tuple[int, int, str]  # start, end, Presidio entity


def model_hits(nlp: spacy.Language, texts: Sequence[str]) -> Iterator[list[Span]]:
    """Per text, the people and organisations `nlp` read in it that pass the filters."""
    for text, doc in zip(texts, nlp.pipe(texts), strict=True):
        found: list[Span] = []
        words: list[Token] | None = None
        for ent in doc.ents:
            entity = NER_ENTITIES.get(ent.label_)
            if entity is None:
                continue
            if words is None:
                words = words_of(text)  # read once, for a text the model found something in
            inside = [w for w in words if ent.start_char <= w.start and w.end <= ent.end_char]
            after = _word_after(text, words, ent.end_char)
            if entity == "PERSON":
                found += [(s, e, entity) for s, e in people(inside, after)]
            elif organisation(inside, after):
                start = next(w.start for w in inside if not w.function)  # not "the"
                found.append((start, ent.end_char, entity))
        yield found


def people(inside: Sequence[Token], after: Token | None) -> list[tuple[int, int]]:
    """(start, end) of the names in a model's person made of the words `inside`: its runs of
    name words (initials and particles between them), a run of one word only if that word
    names someone alone; none when a legal form makes it a company."""
    if any(w.key in LEGAL for w in inside) or (after is not None and after.key in LEGAL):
        return []  # "Acme Widgets Inc.": a company
    found = []
    for run in _runs(inside):
        words = [w for w in run if w.shape != "initial" and w.key not in cue.PARTICLES]
        if len(words) > 1 or len(words) == 1 and is_lone_name(words[0]):
            found.append((run[0].start, run[-1].end))
    return found


def organisation(inside: Sequence[Token], after: Token | None) -> bool:
    """A model's organisation made of the words `inside` is one: a legal form in it or after
    it, or a word that is no everyday word; no place, and not a name of ordinary words."""
    words = [w for w in inside if not w.function]
    if not words or all(w.place or w.in_place_name or w.city for w in words):
        return False
    if any(w.key in LEGAL for w in words) or (after is not None and after.key in LEGAL):
        return True
    return any(not w.named and w.everyday < ORDINARY for w in words)


def _runs(inside: Iterable[Token]) -> Iterator[list[Token]]:
    """Runs of consecutive words that may be part of a name, without particles at the ends."""
    run: list[Token] = []
    for word in [*inside, None]:
        if word is not None and (
            is_name_word(word) or word.shape == "initial" or word.key in cue.PARTICLES
        ):
            run.append(word)
            continue
        while run and run[-1].key in cue.PARTICLES:
            run.pop()
        while run and run[0].key in cue.PARTICLES:
            run.pop(0)
        if run:
            yield run
        run = []


def _word_after(text: str, words: Sequence[Token], end: int) -> Token | None:
    """The word right after `end`, when only a space or a comma stands between."""
    for word in words:
        if word.start >= end:
            return word if text[end : word.start] in _BEFORE_LEGAL_FORM else None
    return None
