"""E-mail addresses, URLs, IP addresses, US social security and UK national insurance
numbers: Presidio's own recognizers, the e-mail one set up to run offline, each with the
cheap tests that let the detector skip what it cannot match and the rules that drop what is
a fragment of something else.

Offline: the e-mail recognizer's domain check uses tldextract's bundled suffix snapshot
instead of fetching the list from the network.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from curator.anonymise.finders.spec import FinderSpec, always, at_word_edges, digits

if TYPE_CHECKING:
    import tldextract
    from presidio_analyzer import EntityRecognizer

# Extensions people write in chat ("settings.py") that happen to be country TLDs.
FILE_LIKE_TLDS = frozenset(
    {
        "py",
        "md",
        "sh",
        "pl",
        "rs",
        "cc",
        "so",
        "ps",
        "cs",
        "sc",
        "mk",
        "ml",
        "go",
        "lo",
        "sm",
        "pm",
        "in",
        "is",
        "it",
        "to",
        "do",
        "at",
        "as",
        "me",
        "my",
        "no",
        "us",
        "am",
        "an",
        "id",
        "be",
        "ai",
        "tf",
        "js",
        "ts",
        "tk",
        "gg",
        "im",
        "st",
        "re",
        "ws",
    }
)
# Two letters, maybe a space, then digits: the digits come first in the pattern (looking back
# for the letters), as a scan for a digit is much cheaper than trying every letter.
_NINO_HINT = re.compile(
    r"\d\d(?:(?<=[A-Za-z]{2}\d\d)|(?<=[A-Za-z]{2}\s\d\d))\s?\d{2}"
)  # "QQ 12 34"
_IPV4_HINT = re.compile(r"\d\.\d")
_IPV6_HINT = re.compile(r"[0-9a-fA-F]:[0-9a-fA-F]|::")
_URL_HINT = re.compile(r"\w\.\w")
# Nine bare digits after "Tel." are a phone number, unless the text speaks of SSNs.
SSN_CONTEXT = re.compile(
    r"ssn|social|security|\btin\b|taxpayer|seguro|\bnss\b|\b(?:I-9|W-[24]|1099)\b"
    r"|\b\d{3}[- ]\d{2}[- ]\d{4}\b",
    re.I,
)
PHONE_CONTEXT = re.compile(
    r"\b(?:tel|tél|phone|mobile?|móvil|movil|cell|call|fax|handy|mobil|portable|port)\b", re.I
)


@cache
def offline_tld_extract() -> tldextract.TLDExtract:
    import tldextract

    # No suffix_list_urls: only the snapshot bundled with tldextract, never a download.
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, fallback_to_snapshot=True)


def ends_in_a_domain(text: str) -> bool:
    """True when `text` ends in a dot and a public suffix ("reed.bb", "mary.kim"), by the
    snapshot the e-mail recognizer checks against: the URL and e-mail finders would read it
    as a host (Presidio's URL patterns know a subset of these suffixes)."""
    return "." in text and offline_tld_extract()(text).suffix != ""


def _emails() -> list[EntityRecognizer]:
    from presidio_analyzer.predefined_recognizers import EmailRecognizer

    class OfflineEmailRecognizer(EmailRecognizer):
        def validate_result(self, pattern_text: str) -> bool:
            return offline_tld_extract()(pattern_text).fqdn != ""

    return [OfflineEmailRecognizer()]


EMAILS = FinderSpec(
    "EMAIL_ADDRESS",
    lambda t: "@" in t,
    _emails,
    # emails never contain whitespace: the recognizer sees only the words that could be one
    # (a window starts where a word does: matching mid-word would only retry the same word)
    window=re.compile(r"(?<!\S)\S*@\S*"),
)


def _ips() -> list[EntityRecognizer]:
    from presidio_analyzer.predefined_recognizers import IpRecognizer

    return [IpRecognizer()]


def _not_in_a_dotted_phone(text: str, start: int, end: int) -> bool:
    """ "4.98.63.73" inside "+33 (0)4.98.63.73.84" is part of a dotted phone number."""
    if text[end : end + 2].startswith(".") and text[end + 1 : end + 2].isdigit():
        return False
    return not (start >= 2 and text[start - 1] == "." and text[start - 2].isdigit())


IPS = FinderSpec(
    "IP_ADDRESS",
    lambda t: (
        ("." in t and _IPV4_HINT.search(t) is not None)
        or (":" in t and _IPV6_HINT.search(t) is not None)
    ),
    _ips,
    claims=always,
    plausible=_not_in_a_dotted_phone,
)


def _urls() -> list[EntityRecognizer]:
    from presidio_analyzer.predefined_recognizers import UrlRecognizer

    return [UrlRecognizer()]


def _could_be_url(window: str) -> bool:
    """A URL hit ends at a top-level domain of Presidio's list, or at its path: a window
    holds one only where such a domain ends before a path, a quote or a character
    `_url_plausible` lets a URL end at ("@john.taylor" holds none, "globex.io/x" does).
    Presidio's patterns backtrack through every window that holds none, ten times as slow
    as the rest."""
    ending = _url_ending()
    return ending is None or ending.search(window) is not None


@cache
def _url_ending() -> re.Pattern[str] | None:
    """The top-level domains of Presidio's URL patterns (each `[.](?:(?:com)|(?:edu)|...)`),
    then the end, "/" or a character no word goes on with; None (every window is read)
    should a Presidio version write its patterns otherwise."""
    from presidio_analyzer.predefined_recognizers import UrlRecognizer

    domains: set[str] = set()
    for pattern in UrlRecognizer.PATTERNS:
        start = pattern.regex.find("[.](?:")
        end = pattern.regex.find(")(?:/", start)
        body = pattern.regex[start + len("[.](?:") : end]
        names = re.findall(r"\(\?:([a-z]+)\)", body)
        if start < 0 or end < 0 or "|".join(f"(?:{name})" for name in names) != body:
            return None
        domains.update(names)
    # re's IGNORECASE matches every character Presidio's `regex` does for the letters a-z
    return re.compile(
        r"\.(?:" + "|".join(sorted(domains, key=len, reverse=True)) + r")(?:$|/|[^\w@-])", re.I
    )


def _url_plausible(text: str, start: int, end: int) -> bool:
    """A whole URL, not part of an e-mail address or a word, nor a file name ("settings.py")."""
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    if before.isalnum() or before in "@._-" or after.isalnum() or after in "@_-":
        return False
    value = text[start:end]
    has_scheme = "://" in value or value.lower().startswith("www.")
    host = value.split("://")[-1].split("/")[0]
    return has_scheme or "/" in value or host.rsplit(".", 1)[-1].lower() not in FILE_LIKE_TLDS


URLS = FinderSpec(
    "URL",
    lambda t: "." in t and _URL_HINT.search(t) is not None,
    _urls,
    window=re.compile(r"(?<!\S)\S*\w\.\w\S*"),  # no whitespace in a URL either
    window_test=_could_be_url,
    plausible=_url_plausible,
)


def _ssns() -> list[EntityRecognizer]:
    from presidio_analyzer.predefined_recognizers import UsSsnRecognizer

    return [UsSsnRecognizer()]


def _ssn_plausible(text: str, start: int, end: int) -> bool:
    """Nine bare digits: an SSN, unless the text is about phones and never about SSNs."""
    if not at_word_edges(text, start, end):
        return False
    if not text[start:end].isdigit():
        return True
    return (
        SSN_CONTEXT.search(text) is not None
        or PHONE_CONTEXT.search(text, max(0, start - 24), start) is None
    )


SSNS = FinderSpec(
    "US_SSN",
    digits(9),
    _ssns,
    # nine bare digits taken for an SSN are no claim on a phone number's digits ("Tel. 630222454")
    claims=lambda value: not value.isdigit(),
    plausible=_ssn_plausible,
)


def _ninos() -> list[EntityRecognizer]:
    from presidio_analyzer.predefined_recognizers import UkNinoRecognizer

    return [UkNinoRecognizer()]


NINOS = FinderSpec(
    "UK_NINO", lambda t: _NINO_HINT.search(t) is not None, _ninos, plausible=at_word_edges
)
