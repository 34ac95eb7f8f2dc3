"""Card numbers, IBANs and phone numbers as people write them.

- Cards: 12 to 19 digits of any brand (Visa to Troy, Mir, UnionPay, Maestro), grouped as
  printed ("3752 801013 42454", "402448-3395836090122", "4024 7935 1108 6") or not, that
  pass the Luhn check. Presidio's pattern knows the big brands at 13-16 digits only.
- IBANs: any case and grouping ("nl84 rabo 1808 0491 52", "it25x0754..."), accepted on the
  ISO 7064 mod-97 check and the country's registered length: one word in 97 after an IBAN
  also passes the checksum, and "NL.. .... is" would swallow the "is" ("... 553 au nom de"
  stays words). The lengths are ours, not Presidio's per-country patterns, which give
  Portugal 21 characters instead of 25.
- Phones: phonenumbers in the regions of the languages curator reads, "(+34)" and
  "+33 (0)4..." trunk forms, "+CC" numbers phonenumbers only deems possible ("+52 1 33 ..."),
  and the extension people type after a number ("x129", "ext 4520", "poste 219", "Durchwahl 12").
  A number of the right length is a phone only where its grouping or a word before it says so
  (`phone_shaped`): a row of counts in a table ("129 50 15 2 196"), decimals ("388.57
  0.0000") and figures in a row of figures pass some region's plan but are no phone.
- Local phones of the other countries' plans ("789 6873", "94 51 71", "(82) 871-235",
  "24-60-61-99"), which no region above holds: 6 to 15 digits in groups are a phone only
  after a phone's word ("Mobile:", "call me at"), before a phone's label ("... office",
  "-Fax"), or with an area code in brackets before groups joined by a hyphen (`LOCAL_PHONES`).

The phone recognizers run last among the number-shaped finders, reading only phone-shaped
windows whose digits no card, IBAN, IP or SSN found before claimed: phonenumbers' matcher is
the slowest recognizer, and ids, hashes and timestamps in chat would otherwise keep it busy.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from curator.anonymise.finders.spec import (
    FinderSpec,
    always,
    at_word_edges,
    digits,
    longest_digit_chain,
)

if TYPE_CHECKING:
    from presidio_analyzer import EntityRecognizer, RecognizerResult

CARD = re.compile(r"(?<![\w+./,-])(?<!\d[ -])[1-9]\d{0,18}(?:[ -]\d{1,18}){0,6}(?![\w-]|[.,/]\d)")
IBAN = re.compile(r"(?<![\w/.-])[A-Za-z]{2}\d{2}(?: ?[A-Za-z0-9]{1,5}){2,9}(?![\w-])")
EXTENSION = re.compile(
    r"[ \t]*,?[ \t]*(?:x|ext\.?|extension|poste|durchwahl|dw\.?|ext:|anexo|int\.)[ \t]*\d{1,6}\b",
    re.I,
)
PHONE_REGIONS = (
    "US",
    "GB",
    "DE",
    "FR",
    "ES",
    "IT",
    "NL",
    "BE",
    "AT",
    "CH",
    "CA",
    "AU",
    "IN",
    "MX",
    "BR",
    "IE",
)
# IBAN length per country, from SWIFT's IBAN Registry (ISO 13616); a country missing here is
# checked on mod 97 alone
IBAN_LENGTHS = {
    "AD": 24,
    "AE": 23,
    "AL": 28,
    "AT": 20,
    "AZ": 28,
    "BA": 20,
    "BE": 16,
    "BG": 22,
    "BH": 22,
    "BI": 27,
    "BR": 29,
    "BY": 28,
    "CH": 21,
    "CR": 22,
    "CY": 28,
    "CZ": 24,
    "DE": 22,
    "DJ": 27,
    "DK": 18,
    "DO": 28,
    "EE": 20,
    "EG": 29,
    "ES": 24,
    "FI": 18,
    "FK": 18,
    "FO": 18,
    "FR": 27,
    "GB": 22,
    "GE": 22,
    "GI": 23,
    "GL": 18,
    "GR": 27,
    "GT": 28,
    "HR": 21,
    "HU": 28,
    "IE": 22,
    "IL": 23,
    "IQ": 23,
    "IS": 26,
    "IT": 27,
    "JO": 30,
    "KW": 30,
    "KZ": 20,
    "LB": 28,
    "LC": 32,
    "LI": 21,
    "LT": 20,
    "LU": 20,
    "LV": 21,
    "LY": 25,
    "MC": 27,
    "MD": 24,
    "ME": 22,
    "MK": 19,
    "MN": 20,
    "MR": 27,
    "MT": 31,
    "MU": 30,
    "NI": 28,
    "NL": 18,
    "NO": 15,
    "OM": 23,
    "PK": 24,
    "PL": 28,
    "PS": 29,
    "PT": 25,
    "QA": 29,
    "RO": 24,
    "RS": 22,
    "RU": 33,
    "SA": 24,
    "SC": 31,
    "SD": 18,
    "SE": 24,
    "SI": 19,
    "SK": 24,
    "SM": 27,
    "SO": 23,
    "ST": 25,
    "SV": 28,
    "TL": 23,
    "TN": 24,
    "TR": 26,
    "UA": 29,
    "VA": 22,
    "VG": 24,
    "XK": 20,
}
_BRACKETED_COUNTRY = re.compile(r"\(\+(\d{1,3})\)")
_INTERNATIONAL = re.compile(
    r"(?<![\w+])(?:\(\+\d{1,3}\)|\+\d{1,3})(?:[ .-]?\(?\d{1,5}\)?){2,6}"
    r"(?:(?=x\d)|(?!\w))"  # an extension may follow at once: "+1-499-340-7328x156"
)


def luhn_valid(digits: str) -> bool:
    total = 0
    for i, c in enumerate(reversed(digits)):
        d = int(c) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def find_cards(text: str) -> list[tuple[int, int, float]]:
    """(start, end, score) of Luhn-valid numbers of 12 to 19 digits, grouped or not."""
    found = []
    for match in CARD.finditer(text):
        digits = re.sub(r"\D", "", match.group())
        if 12 <= len(digits) <= 19 and luhn_valid(digits) and _card_grouping(match.group()):
            found.append((match.start(), match.end(), 0.9))
    return found


def _card_grouping(value: str) -> bool:
    """Groups of 3 or more digits, one separator kind, the last group may be short: the way
    cards are printed, unlike "1 204 558 ..." counts or "12-03-2024 10" dates."""
    groups = re.split(r"[ -]", value)
    if len(set(re.findall(r"[ -]", value))) > 1:
        return False
    return all(len(g) >= 3 for g in groups[:-1]) and (len(groups) == 1 or len(groups[-1]) >= 1)


def iban_valid(compact: str) -> bool:
    """ISO 7064 mod 97-10 over the country, check digits and account (any case)."""
    value = compact.upper()
    if not (15 <= len(value) <= 34 and value[:2].isalpha() and value[2:4].isdigit()):
        return False
    rearranged = value[4:] + value[:4]
    return int("".join(str(int(c, 36)) for c in rearranged)) % 97 == 1


def iban_length_fits(compact: str) -> bool:
    """The country's registered IBAN length, where the country is in IBAN_LENGTHS."""
    length = IBAN_LENGTHS.get(compact[:2].upper())
    return length is None or len(compact) == length


def find_ibans(text: str) -> list[tuple[int, int, float]]:
    found = []
    for match in IBAN.finditer(text):
        groups = match.group().split(" ")
        for count in range(len(groups), 0, -1):
            value = " ".join(groups[:count])
            compact = value.replace(" ", "")
            if iban_valid(compact) and iban_length_fits(compact):
                found.append((match.start(), match.start() + len(value), 1.0))
                break
    return found


def extend_extension(text: str, end: int) -> int:
    """The end of a phone number found ending at `end`, with its extension if one follows."""
    match = EXTENSION.match(text, end)
    return match.end() if match else end


def phone_recognizer(regions: tuple[str, ...] = PHONE_REGIONS):  # noqa: ANN201 - presidio recognizer, imported lazily
    """Presidio's PhoneRecognizer over more regions, with extensions and bracketed country codes."""
    import phonenumbers
    from presidio_analyzer.predefined_recognizers import PhoneRecognizer

    # phonenumbers compiles its metadata patterns on every use through re's cache, which holds
    # 512 (16 regions use about 260 of them besides ours and Presidio's): its own dict keeps
    # them all, and skips the lookups (50,000 in the benchmark's run)
    phonenumbers.enable_pattern_cache()

    class PhoneNumbers(PhoneRecognizer):
        def analyze(
            self, text: str, entities: list[str], nlp_artifacts: object = None
        ) -> list[RecognizerResult]:
            results = super().analyze(text, entities, nlp_artifacts)  # type: ignore[arg-type]
            results.extend(_possible_international(text, results))
            for result in results:
                result.end = extend_extension(text, result.end)
            return results

    return PhoneNumbers(supported_regions=regions)


def _possible_international(text: str, found: list[RecognizerResult]) -> list[RecognizerResult]:
    """ "+52 1 33 0151 1926", "(+34) 750 23 60 26": a known country code and 8 to 15 digits
    in groups is a phone number, whether or not phonenumbers knows its current plan."""
    import phonenumbers
    from presidio_analyzer import RecognizerResult

    extra = []
    for match in _INTERNATIONAL.finditer(text):
        if any(r.start < match.end() and match.start() < r.end for r in found):
            continue
        try:
            phonenumbers.parse(_BRACKETED_COUNTRY.sub(r"+\1", match.group()), None)
        except phonenumbers.NumberParseException:
            continue  # no such country code
        if 8 <= len(re.sub(r"\D", "", match.group())) <= 15:
            extra.append(RecognizerResult("PHONE_NUMBER", match.start(), match.end(), 0.4))
    return extra


CARDS = FinderSpec("CREDIT_CARD", digits(12), whole_text=find_cards, claims=always)

# Two letters, maybe a space, then digits: the digits come first in the pattern (looking back
# for the letters), as a scan for a digit is much cheaper than trying every letter.
_IBAN_HINT = re.compile(r"\d\d(?:(?<=[A-Za-z]{2}\d\d)|(?<=[A-Za-z]{2}\s\d\d))")  # "DE89", "gb 29"
IBANS = FinderSpec(
    "IBAN_CODE",
    lambda t: longest_digit_chain(t) >= 10 and _IBAN_HINT.search(t) is not None,
    whole_text=find_ibans,
    claims=always,
)


def _phones() -> list[EntityRecognizer]:
    from presidio_analyzer import Pattern, PatternRecognizer

    return [
        # phonenumbers only accepts assigned area codes; people type unassigned ones too
        PatternRecognizer(
            supported_entity="PHONE_NUMBER",
            name="NanpPhoneRecognizer",
            patterns=[
                Pattern(
                    "NANP",
                    r"(?<![\w+])(?:\+?1[ .-]?)?(?:\([2-9]\d{2}\)|[2-9]\d{2})"
                    r"[ .-]?\d{3}[ .-]\d{4}(?![\w])",
                    0.4,
                ),
            ],
            context=["phone", "call", "cell", "mobile"],
        ),
        phone_recognizer(),
    ]


# Phone-shaped windows that no region's numbering plan could hold: dates, too few or too many
# digits.
NOT_A_PHONE = re.compile(r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{4}")


# Words right before a number that make it a phone whatever its grouping ("Tel. 612345678").
PHONE_CUE = re.compile(
    r"(?:\b(?:tel|tél|telephone|téléphone|phone|ph|call|cell|mobile|mob|fax|sms|whatsapp|"
    r"portable|móvil|movil|teléfono|telefono|telefon|handy|ring|text|contact|numéro|number)"
    r"\b[^\n\d]{0,12}|\bn[°º]\s*)\Z",
    re.I,
)
_GROUP_SEPARATOR = re.compile(r"[ \t.\-/]+")
_FIGURE_BEFORE = re.compile(r"\d[ \t,]*\Z")
_FIGURE_AFTER = re.compile(r"[ \t]+\d")


def phone_shaped(text: str, start: int, end: int) -> bool:
    """A phone's grouping, or a phone's word before it: "(415) 867-2231", "+44 20 7946 0958",
    "06 12 34 56 78", "612 34 56 78", "503.288.9426", "4155550134", "Tel. 61 23 45"; not a row
    of figures ("129 50 15 2 196", "22 66 48 58 46", "85 6,617 28 0 7") or decimals."""
    if PHONE_CUE.search(text, max(0, start - 24), start):
        return True
    value = EXTENSION.sub("", text[start:end])
    if value[:1] in "+(":
        return True  # a country code or an area code in brackets
    line_start = text.rfind("\n", 0, start) + 1
    if _FIGURE_BEFORE.search(text, line_start, start) or _FIGURE_AFTER.match(text, end):
        return False  # one figure in a row of figures
    groups = [g for g in _GROUP_SEPARATOR.split(value) if g]
    if len(groups) == 1:
        return True  # "4155550134"
    trunk = value.startswith("0")
    if any(len(g) == 1 for g in groups[1:]) or len(groups[0]) == 1 and groups[0] != "1":
        return False
    if "." in value and not trunk and any(len(g) < 3 for g in groups):
        return False  # "388.57 419.68"
    return trunk or len(groups) <= 4 and any(len(g) > 2 for g in groups)


_TIME_EDGE = re.compile(r"\d:\Z")  # "13:47:07.308136": a time's seconds, no phone
_TIME_AFTER = re.compile(r":\d")  # "2021-03-11 09:47": a date and its hour


def _in_a_time(text: str, start: int, end: int) -> bool:
    return (
        _TIME_EDGE.search(text, max(0, start - 2), start) is not None
        or _TIME_AFTER.match(text, end) is not None
    )


def _phone_plausible(text: str, start: int, end: int) -> bool:
    return (
        at_word_edges(text, start, end)
        and not _in_a_time(text, start, end)
        and phone_shaped(text, start, end)
    )


def _could_be_phone(window: str) -> bool:
    digit_count = sum(c.isdigit() for c in EXTENSION.sub("", window))
    return 7 <= digit_count <= 15 and NOT_A_PHONE.fullmatch(window.strip("() ")) is None


PHONES = FinderSpec(
    "PHONE_NUMBER",
    digits(7),
    _phones,
    window=re.compile(
        r"(?<![\w+])[+(]*\d[\d \t().\-/]{5,60}\d(?:\s*(?:x|ext\.?|poste)\s*\d{1,6})?(?!\w)"
    ),
    window_test=_could_be_phone,
    skips_claimed=True,
    claims=always,
    plausible=_phone_plausible,
    extend=extend_extension,  # "(713) 631-5246 x129", "... poste 219"
)


# A local number: groups of digits, maybe an area code in brackets first; a dot, a comma or
# a slash joining it to more digits makes it a figure, a date or a version.
_LOCAL = re.compile(
    r"(?<![\w+.,/:-])(?:\(\d{1,4}\)[ \t]?)?(?:\d{2,6}(?:(?:[ \t]|-)\d{2,6}){0,4}|\d{7,12})"
    r"(?![\w]|[.,/:-]\d)"
)
# The words a local number needs before it: a phone's own, on the line or as a label on the
# line above ("Phone:\n789 6873"), at most two words between ("call me at"); "number" or
# "contact" alone say too little for so few digits.
_LOCAL_CUE = re.compile(
    r"\b(?:tel|tél|telephone|téléphone|phone|ph|call|cell|mobile|mob|fax|desk|sms|whatsapp|"
    r"messages?|dial|answering|portable|móvil|movil|teléfono|telefono|telefon|handy)"
    r"\b(?:[^\w\n]{0,3}(?:[^\W\d]+[^\w\n]{1,3}){0,2}|[ \t]*:?[ \t]*\n[ \t]*)\Z",
    re.I,
)
_LOCAL_LABEL = re.compile(
    r"[ \t]*[-–]?[ \t]*(?:office|fax|mobile|cell|home|work|desk|tel|phone)\b", re.I
)
_AREA_IN_BRACKETS = re.compile(r"\(\d{1,4}\)[ \t]?\d{2,5}-\d{2,5}")


def find_local_phones(text: str) -> list[tuple[int, int, float]]:
    """(start, end, score) of local numbers that a phone's word, label or grouping marks."""
    found = []
    for match in _LOCAL.finditer(text):
        start, end = match.span()
        if not 6 <= sum(c.isdigit() for c in match.group()) <= 15 or _in_a_time(text, start, end):
            continue
        if (
            _LOCAL_CUE.search(text, max(0, start - 28), start)
            or _LOCAL_LABEL.match(text, end)
            or _AREA_IN_BRACKETS.fullmatch(match.group())
        ):
            found.append((start, extend_extension(text, end), 0.4))
    return found


LOCAL_PHONES = FinderSpec("PHONE_NUMBER", digits(6), whole_text=find_local_phones)
