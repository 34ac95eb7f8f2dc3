"""How a document's values are read: its locale's answer to ambiguous amounts and dates,
and the currency an amount written without one is in.

"1.250" is 1250 to a German reader and 1.25 to an American one; "03/04/2024" is 3 April in
Britain, Germany and France and 4 March in the US. Forms that can mean one thing only
("1,250.00", "1.250,00", "25/12/2024") read the same in every locale. The locale's facts
(its decimal sign, whether its dates put the day first, its own currency and that
currency's sign) are CLDR's, through babel. A store's locale is curator.toml's `locale`,
which a doc type may override; a label revision records the one its values were read in.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel import Locale

DEFAULT_LOCALE = "en_US"

# A sign names a currency only by convention: "$" is the US dollar unless the locale's own
# currency is written "$" there (Canada's dollar in en_CA).
_SIGNS = {
    "US$": "USD",
    "$US": "USD",
    "CA$": "CAD",
    "$CA": "CAD",
    "C$": "CAD",
    "AU$": "AUD",
    "A$": "AUD",
    "NZ$": "NZD",
    "HK$": "HKD",
    "R$": "BRL",
    "$": "USD",
    "€": "EUR",
    "£": "GBP",
    "¥": "JPY",
    "₹": "INR",
    "₩": "KRW",
    "₽": "RUB",
}
_CODES = (
    "USD EUR GBP CHF CAD AUD NZD JPY CNY INR SEK NOK DKK PLN CZK HUF BRL MXN HKD SGD ZAR KRW RUB"
).split()
_WORDS = {"dollar": "$", "euro": "EUR", "pound": "GBP"}  # a word is read as its sign is
_SIGN_PATTERN = "|".join(re.escape(sign) for sign in sorted(_SIGNS, key=len, reverse=True))
CURRENCY = re.compile(
    rf"(?:{_SIGN_PATTERN})|\b(?:{'|'.join(_CODES)}|(?:{'|'.join(_WORDS)})s?)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"\b[^\W\d_]+\b")
_CURRENCY_WORDS = {
    *(code.casefold() for code in _CODES),
    *_WORDS,
    *(f"{word}s" for word in _WORDS),
}
_SIGNS_UPPER = {sign.upper() for sign in _SIGNS}
_SIGN_CHARACTER = re.compile(
    f"[{''.join(sorted({c for s in _SIGNS for c in s if not c.isalpha()}))}]"
)
# CLDR's currency of a territory changes over time (Croatia took the euro in 2023): read it
# as of one fixed day, so a store reads the same on every machine and every year.
_CURRENCY_AS_OF = date(2025, 1, 1)


@dataclass(frozen=True)
class Reading:
    """How to read the values of one document (`reading_of` makes it from the text)."""

    locale: str = DEFAULT_LOCALE
    currency: str | None = None  # ISO 4217 code an amount written without one is in

    @property
    def decimal_comma(self) -> bool:
        """Is "1,250" one and a quarter here (and "1.250" twelve hundred and fifty)?"""
        return _facts(self.locale).decimal_comma

    @property
    def day_first(self) -> bool:
        """Is "03/04/2024" the 3rd of April here?"""
        return _facts(self.locale).day_first

    def currency_of(self, written: str) -> str:
        """The ISO 4217 code of a currency as written ("$", "usd", "euros", "CA$")."""
        text = unicodedata.normalize("NFKC", written).strip()
        word = text.casefold().rstrip("s")
        sign = _WORDS.get(word, text)
        if sign.upper() in _CODES:
            return sign.upper()
        facts = _facts(self.locale)
        if facts.own_sign == sign and facts.own is not None:
            return facts.own
        return _SIGNS.get(sign, _SIGNS.get(sign.upper(), sign.upper()))


DEFAULT_READING = Reading()


def reading_of(text: str, locale: str | None = None) -> Reading:
    """The reading of a document whose whole text is `text`, written in `locale` (the
    default when None): its currency is the one it names when it names exactly one."""
    plain = Reading(locale or DEFAULT_LOCALE)
    found = {plain.currency_of(written) for written in _currencies_written(text)}
    return Reading(plain.locale, found.pop() if len(found) == 1 else None)


def _currencies_written(text: str) -> set[str]:
    """Every currency sign, code and word `text` holds, as CURRENCY finds them. (CURRENCY
    over a whole document tries every sign at every position, several times slower than
    finding the words in one pass and looking at each sign's neighbours.)"""
    written = {word for word in _WORD.findall(text) if word.casefold() in _CURRENCY_WORDS}
    for sign in _SIGN_CHARACTER.finditer(text):
        at = sign.start()
        around = [text[max(0, at - n) : at + 1] for n in (2, 1)] + [text[at : at + 3]]
        written.add(next((s for s in around if s.upper() in _SIGNS_UPPER), sign.group()))
    return written


def locale_problem(locale: str) -> str | None:
    """Why `locale` ("de_DE", "fr-FR") names no locale CLDR knows; None when it does."""
    from babel import Locale, UnknownLocaleError

    try:
        Locale.parse(locale.replace("-", "_"))
    except (UnknownLocaleError, ValueError) as error:
        return f"unknown locale {locale!r} ({error}); write it as language_TERRITORY, e.g. de_DE"
    return None


def recorded_locale(locale: str) -> str | None:
    """The locale as a label revision records it: left out (None) for the default, so
    revisions of stores that never set one keep their bytes."""
    return None if locale == DEFAULT_LOCALE else locale


@dataclass(frozen=True)
class _Facts:
    decimal_comma: bool
    day_first: bool
    own: str | None  # the locale's territory's currency
    own_sign: str | None  # how the locale writes it


# CLDR's en_US (a test checks it against babel's): the default is read without importing
# babel, which the eval harnesses' environments that run curator's scorers do not have.
_DEFAULT_FACTS = _Facts(decimal_comma=False, day_first=False, own="USD", own_sign="$")


def _facts(locale: str) -> _Facts:
    return _DEFAULT_FACTS if locale == DEFAULT_LOCALE else _cldr_facts(locale)


@cache
def _cldr_facts(locale: str) -> _Facts:
    from babel.dates import get_date_format
    from babel.numbers import get_decimal_symbol, get_territory_currencies

    parsed = _parse(locale)
    pattern = get_date_format("short", locale=parsed).pattern
    own = None
    if parsed.territory:
        currencies = get_territory_currencies(parsed.territory, start_date=_CURRENCY_AS_OF)
        own = currencies[0] if currencies else None
    return _Facts(
        decimal_comma=get_decimal_symbol(parsed) == ",",
        day_first=pattern.find("d") < pattern.find("M"),
        own=own,
        own_sign=parsed.currency_symbols.get(own) if own else None,
    )


def _parse(locale: str) -> Locale:
    """The babel locale; a Faker locale CLDR lacks ("ar_AA") falls back to its language,
    then to the default, since the store's locale also picks Faker's names."""
    from babel import Locale, UnknownLocaleError

    for candidate in (locale.replace("-", "_"), locale.replace("-", "_").split("_")[0]):
        try:
            return Locale.parse(candidate)
        except (UnknownLocaleError, ValueError):
            continue
    return Locale.parse(DEFAULT_LOCALE)
