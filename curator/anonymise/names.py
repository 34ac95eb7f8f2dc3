"""Names in free text without a language model: Faker's name lists plus context words.

Two rules, both conservative because a false name is rewritten in a golden fixture:
- a known first name followed by a known last name or another Capitalised word that is not
  an everyday word ("Jennifer Walsh", "Claudio Costa", "Ana M. Ruiz");
- one to three Capitalised words after a context cue ("Mr.", "Dr", "Tenant:", "signed by",
  "Dear", "Attn:"), whatever they are, since the cue says a name follows.

Importing this module imports Presidio: only detect.py imports it, inside a function.
"""

from __future__ import annotations

import re
from functools import cache

from presidio_analyzer import LocalRecognizer, RecognizerResult

LOCALES = ("en_US", "en_GB", "de_DE", "fr_FR", "es_ES", "it_IT", "pt_BR", "nl_NL", "pl_PL")

WORD = re.compile(r"\b[A-Z][a-z\u00e0-\u00ff]+(?:[-'][A-Z][a-z\u00e0-\u00ff]+)?\b|\b[A-Z]\.")
CUE = re.compile(
    r"(?:\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Madam)\.?"
    r"|\b(?:Tenant|Tenants|Landlord|Lessee|Lessor|Guarantor|Witness|Attn|Attention|Name|Signed|Contact"
    r"|Employee|Customer|Patient|Client|Borrower|Owner|Agent|Signatory)\s*:"
    r"|\b(?:signed by|Signed by|executed by|prepared by|Dear|between|and between|c/o|cc)\b,?)\s+$"
)
NOT_NAMES = frozenset(
    """The This That These Those And But Or For Nor Yet So A An In On At To From By With Of
    Street St Avenue Ave Road Rd Lane Drive Court Boulevard Way Place Suite Unit Floor Apt
    Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June
    July August September October November December Inc Ltd LLC Corp Company Co Group Team Channel
    Meeting Project Issue Bug Release Server Client Service Services Bank Hotel University School
    City County State North South East West New Old Hi Hey Thanks Thank Yes No Ok Okay Please
    Agreement Lease Invoice Tenant Landlord Lessee Lessor Premises Property Address Rent Deposit
    Total Amount Date Due Number Payment Bill Vendor Supplier Customer Page Section Clause""".split()
)


@cache
def gazetteer() -> tuple[frozenset[str], frozenset[str]]:
    """(first names, last names) from Faker's person providers in several locales."""
    import importlib

    first: set[str] = set()
    last: set[str] = set()
    for locale in LOCALES:
        try:
            provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        except ImportError:
            continue
        for attribute in ("first_names", "first_names_female", "first_names_male"):
            first.update(n for n in (getattr(provider, attribute, ()) or ()) if n.isalpha())
        last.update(n for n in (getattr(provider, "last_names", ()) or ()) if n.isalpha())
    return frozenset(first - NOT_NAMES), frozenset(last - NOT_NAMES)


@cache
def known_name_words() -> frozenset[str]:
    """Every gazetteer first and last name, casefolded: "is this word some name at all?"."""
    first, last = gazetteer()
    return frozenset(name.casefold() for name in first | last)


class NameRecognizer(LocalRecognizer):
    """PERSON from the gazetteer and context cues (see the module docstring)."""

    ENTITY = "PERSON"

    def __init__(self) -> None:
        super().__init__(supported_entities=[self.ENTITY], supported_language="en", name="GazetteerNameRecognizer")

    def load(self) -> None:
        gazetteer()

    def analyze(self, text: str, entities: list[str], nlp_artifacts: object = None) -> list[RecognizerResult]:
        return [
            RecognizerResult(self.ENTITY, start, end, score)
            for start, end, score in find_names(text)
        ]


def find_names(text: str) -> list[tuple[int, int, float]]:
    first, last = gazetteer()
    words = list(WORD.finditer(text))
    found: list[tuple[int, int, float]] = []
    i = 0
    while i < len(words):
        word = words[i]
        run = _run(text, words, i)
        cued = CUE.search(text, max(0, word.start() - 24), word.start()) is not None
        if cued and run and words[i].group() not in NOT_NAMES:
            end_index = i + min(len(run), 3) - 1
            found.append((word.start(), words[end_index].end(), 0.85))
            i = end_index + 1
            continue
        if word.group() in first and len(run) >= 2:
            j = 1
            if words[i + j].group().endswith(".") and len(run) >= 3:
                j += 1  # middle initial
            surname = words[i + j].group()
            if surname in last or (surname not in NOT_NAMES and surname not in first and len(surname) > 2):
                found.append((word.start(), words[i + j].end(), 0.85 if surname in last else 0.6))
                i += j + 1
                continue
        i += 1
    return found


def _run(text: str, words: list[re.Match[str]], i: int) -> list[re.Match[str]]:
    """Capitalised words from i on, separated by one space each (a name's shape)."""
    run = [words[i]]
    for k in range(i + 1, min(i + 4, len(words))):
        gap = text[words[k - 1].end() : words[k].start()]
        if gap != " " or words[k].group() in NOT_NAMES:
            break
        run.append(words[k])
    return run
