"""Pattern PII, people and street addresses, found with Presidio's recognizers configured to
run offline and curator's own finders (names.py, addresses.py, numbers.py), which are
Presidio recognizers too (`local_recognizer`), so vanilla Presidio can run the same rules.

Offline: no spaCy model is downloaded (a blank English pipeline, or an installed model named
with --ner-model / $CURATOR_NER_MODEL, see `detector_for`), and the email recognizer's domain
check uses tldextract's bundled suffix snapshot instead of fetching the list from the network.

Fast: rather than Presidio's AnalyzerEngine (which tokenises every text with spaCy and runs
every recognizer on it), curator calls the same recognizers directly, skips those that
cannot match a text (no "@", too few digits, ...), runs each one once over a batch of texts
joined by a separator no pattern can span, and caches results for repeated strings and
windows (a phone-shaped run, a word with "@" or a dot), which a rewritten text mostly keeps.
Curator's own finders read one whole text at a time. A large batch (a long chat log, a
thick PDF) is split across forked processes, one per core (curator.workers), or detected
in them batch by batch while the caller rewrites earlier ones (`Detector.ahead`).
"""

from __future__ import annotations

import bisect
import functools
import itertools
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from curator.anonymise.finders.numbers import EXTENSION, extend_extension
from curator.anonymise.kinds import entity_kind
from curator.errors import CuratorError
from curator.workers import forked_map, forked_pool, forked_workers

if TYPE_CHECKING:
    from presidio_analyzer.predefined_recognizers import PhoneRecognizer

NER_ENV = "CURATOR_NER_MODEL"
SEPARATOR = "\n\x00\n"  # joins a batch: no recognizer matches across a NUL line
CACHE_LIMIT = 200_000  # distinct strings remembered
# A batch of texts this long per core is split across forked processes: about half a second
# of detection each, against the milliseconds a fork costs.
CHARS_PER_WORKER = 60_000
MAX_WORKERS = 8

PATTERN_ENTITIES = ("EMAIL_ADDRESS", "STREET_ADDRESS", "PHONE_NUMBER", "CREDIT_CARD", "IBAN_CODE", "IP_ADDRESS", "URL", "US_SSN", "UK_NINO")
# Extensions people write in chat ("settings.py") that happen to be country TLDs.
FILE_LIKE_TLDS = frozenset({"py", "md", "sh", "pl", "rs", "cc", "so", "ps", "cs", "sc", "mk", "ml", "go", "lo", "sm", "pm", "in", "is", "it", "to", "do", "at", "as", "me", "my", "no", "us", "am", "an", "id", "be", "ai", "tf", "js", "ts", "tk", "gg", "im", "st", "re", "ws"})


@dataclass(frozen=True)
class Hit:
    start: int
    end: int
    entity: str
    score: float

    @property
    def kind(self) -> str:
        return entity_kind(self.entity)


# what a recognizer read in each window: (recognizer name, window) -> (start, end, score)
Windows = dict[tuple[str, str], list[tuple[int, int, float]]]
# the texts a caller will detect because of a text's hits (see Detector.ahead)
Follow = Callable[[str, list[Hit]], Iterable[str]]


# A chain: digits each at most three other characters from the next ("4111 1111 1111 1111",
# "+44 (0)20 7946 0958"). Every number-shaped recognizer needs a chain of some length; one
# pass measures a text's longest for all of them (remembered for more texts than a batch holds).
_DIGIT_CHAIN = re.compile(r"\d(?:\D{0,3}\d)*")
_DIGIT = re.compile(r"\d")


@lru_cache(maxsize=65536)
def _longest_digit_chain(text: str) -> int:
    return max((len(_DIGIT.findall(chain)) for chain in _DIGIT_CHAIN.findall(text)), default=0)


def _digits(n: int) -> Callable[[str], bool]:
    return lambda text: _longest_digit_chain(text) >= n


# Two letters, maybe a space, then digits: the digits come first in the pattern (looking back
# for the letters), as a scan for a digit is much cheaper than trying every letter.
_IBAN_HINT = re.compile(r"\d\d(?:(?<=[A-Za-z]{2}\d\d)|(?<=[A-Za-z]{2}\s\d\d))")  # "DE89", "gb 29"
_NINO_HINT = re.compile(r"\d\d(?:(?<=[A-Za-z]{2}\d\d)|(?<=[A-Za-z]{2}\s\d\d))\s?\d{2}")  # "QQ 12 34"
_IPV4_HINT = re.compile(r"\d\.\d")
_IPV6_HINT = re.compile(r"[0-9a-fA-F]:[0-9a-fA-F]|::")
_URL_HINT = re.compile(r"\w\.\w")
_ADDRESS_HINT = re.compile(r"\d[^\n]{0,60}[A-Za-z]|[A-Za-z][^\n]{0,60}\d")
_NAME_HINT = re.compile(r"[^\W\d_]{2}")  # lower-case and UPPER-CASE names too

# Cheap tests: a recognizer runs on a text only when its test passes.
PREFILTERS: dict[str, Callable[[str], bool]] = {
    "EMAIL_ADDRESS": lambda t: "@" in t,
    "PHONE_NUMBER": _digits(7),
    "CREDIT_CARD": _digits(12),
    "IBAN_CODE": lambda t: _longest_digit_chain(t) >= 10 and _IBAN_HINT.search(t) is not None,
    "IP_ADDRESS": lambda t: ("." in t and _IPV4_HINT.search(t) is not None) or (":" in t and _IPV6_HINT.search(t) is not None),
    "URL": lambda t: "." in t and _URL_HINT.search(t) is not None,
    "US_SSN": _digits(9),
    "UK_NINO": lambda t: _NINO_HINT.search(t) is not None,
    "PERSON": lambda t: _NAME_HINT.search(t) is not None,
    # a digit first: without one, the address hint would scan 60 characters after every letter
    "STREET_ADDRESS": lambda t: _longest_digit_chain(t) > 0 and _NAME_HINT.search(t) is not None
    and _ADDRESS_HINT.search(t) is not None,
}


# Recognizers whose matches are always inside such a window see only the windows, not the
# whole text: phonenumbers' matcher is the slowest recognizer, and ids, hashes and
# timestamps in chat would otherwise keep it busy.
WINDOWS: dict[str, re.Pattern[str]] = {
    "PHONE_NUMBER": re.compile(r"(?<![\w+])[+(]*\d[\d \t().\-/]{5,60}\d(?:\s*(?:x|ext\.?|poste)\s*\d{1,6})?(?!\w)"),
    # emails and URLs never contain whitespace: the recognizer sees only the words that could be one
    # (a window starts where a word does: matching mid-word would only retry the same word)
    "EMAIL_ADDRESS": re.compile(r"(?<!\S)\S*@\S*"),
    "URL": re.compile(r"(?<!\S)\S*\w\.\w\S*"),
}
@cache
def per_text() -> dict[str, Callable[[str], list[tuple[int, int, float]]]]:
    """Curator's own finders, called directly on one whole text at a time: a name found once
    in a message is that person wherever else it stands in the message, never in the next."""
    from curator.anonymise.finders.addresses import find_addresses
    from curator.anonymise.finders.names import find_names
    from curator.anonymise.finders.numbers import find_cards, find_ibans

    return {"PERSON": find_names, "CREDIT_CARD": find_cards, "IBAN_CODE": find_ibans, "STREET_ADDRESS": find_addresses}


# Windows already claimed by an earlier, cheaper or checksummed recognizer are skipped; nine
# bare digits taken for an SSN are no such claim ("Tel. 630222454").
SKIP_CLAIMED = frozenset({"PHONE_NUMBER"})
CLAIMING = frozenset({"CREDIT_CARD", "IBAN_CODE", "PHONE_NUMBER", "IP_ADDRESS", "US_SSN"})
# Phone-shaped windows that no region's numbering plan could hold: dates, too few or too many digits.
NOT_A_PHONE = re.compile(r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{4}")
# Nine bare digits after "Tel." are a phone number, unless the text speaks of SSNs.
SSN_CONTEXT = re.compile(r"ssn|social|security|\btin\b|taxpayer|seguro|\bnss\b|\b(?:I-9|W-[24]|1099)\b|\b\d{3}[- ]\d{2}[- ]\d{4}\b", re.I)
PHONE_CONTEXT = re.compile(r"\b(?:tel|tél|phone|mobile?|móvil|movil|cell|call|fax|handy|mobil|portable|port)\b", re.I)


def offline_environment() -> None:
    """Belt and braces: tell the libraries we use that there is no network."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@cache
def offline_tld_extract():  # noqa: ANN201 - tldextract.TLDExtract, imported lazily
    import tldextract

    # No suffix_list_urls: only the snapshot bundled with tldextract, never a download.
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, fallback_to_snapshot=True)


def recognizers() -> list:
    """Presidio's recognizers for curator's entities, set up to never touch the network."""
    offline_environment()
    from presidio_analyzer import Pattern, PatternRecognizer
    from presidio_analyzer.predefined_recognizers import (
        EmailRecognizer,
        IpRecognizer,
        UkNinoRecognizer,
        UrlRecognizer,
        UsSsnRecognizer,
    )

    from curator.anonymise.finders.numbers import phone_recognizer

    class OfflineEmailRecognizer(EmailRecognizer):
        def validate_result(self, pattern_text: str) -> bool:
            return offline_tld_extract()(pattern_text).fqdn != ""

    # Order matters to Detector: the phone recognizers run last among the number-shaped
    # ones, so a window already claimed by a checksummed card, IBAN, IP or SSN is skipped.
    return [
        OfflineEmailRecognizer(),
        local_recognizer("STREET_ADDRESS"),
        local_recognizer("CREDIT_CARD"),
        local_recognizer("IBAN_CODE"),
        IpRecognizer(),
        UrlRecognizer(),
        UsSsnRecognizer(),
        UkNinoRecognizer(),
        # phonenumbers only accepts assigned area codes; people type unassigned ones too
        PatternRecognizer(supported_entity="PHONE_NUMBER", name="NanpPhoneRecognizer", patterns=[
            Pattern("NANP", r"(?<![\w+])(?:\+?1[ .-]?)?(?:\([2-9]\d{2}\)|[2-9]\d{2})[ .-]?\d{3}[ .-]\d{4}(?![\w])", 0.4),
        ], context=["phone", "call", "cell", "mobile"]),
        phone_recognizer(),
        local_recognizer("PERSON"),
    ]


def local_recognizer(entity: str):  # noqa: ANN201 - a presidio LocalRecognizer, imported lazily
    """One of curator's own finders (PER_TEXT) as a Presidio recognizer, so that vanilla
    Presidio runs the very same rules in the benchmark."""
    from presidio_analyzer import LocalRecognizer, RecognizerResult

    class Finder(LocalRecognizer):
        def __init__(self) -> None:
            super().__init__(supported_entities=[entity], supported_language="en", name=f"Curator{entity.title()}Recognizer")

        def load(self) -> None:
            pass

        def analyze(self, text: str, entities: list[str], nlp_artifacts: object = None) -> list[RecognizerResult]:
            return [RecognizerResult(entity, start, end, score) for start, end, score in per_text()[entity](text)]

    return Finder()


def blank_nlp_engine(model: str | None = None):  # noqa: ANN201 - presidio NlpEngine
    """A Presidio spaCy engine on a blank pipeline (or an installed model), never downloading."""
    offline_environment()
    import spacy
    from presidio_analyzer.nlp_engine import SpacyNlpEngine

    class OfflineSpacyEngine(SpacyNlpEngine):
        def load(self) -> None:
            # presidio's __init__ sets nlp = None unannotated, so its type reads as None
            self.nlp = {"en": load_spacy(model) if model else spacy.blank("en")}  # type: ignore[assignment]

    engine = OfflineSpacyEngine(models=[{"lang_code": "en", "model_name": model or "blank:en"}])
    engine.load()
    return engine


def load_spacy(model: str):  # noqa: ANN201 - spacy.Language
    import spacy

    if not (spacy.util.is_package(model) or os.path.isdir(model)):
        raise CuratorError(f"spaCy model {model!r} is not installed (curator never downloads one)")
    return spacy.load(model)


class Detector:
    """Find PII spans in many texts; stateless apart from its result cache."""

    def __init__(self, ner_model: str | None = None, entities: Sequence[str] | None = None,
                 workers: int | None = None) -> None:
        self.entities = tuple(entities) if entities else (*PATTERN_ENTITIES, "PERSON")
        self.workers = workers  # processes for a large batch; None: one per core
        self._recognizers = [r for r in recognizers() if r.supported_entities[0] in self.entities]

        self._cache: dict[str, list[Hit]] = {}
        self._phones: dict[str, PhoneRecognizer] = {}  # one-region recognizers
        # (recognizer, window) -> (start, end, score) of what the recognizer read in the window
        self._windows: Windows = {}
        self._nlp = load_spacy(ner_model) if ner_model else None

    def detect(self, text: str) -> list[Hit]:
        return self.detect_many([text])[0]

    def detect_many(self, texts: Iterable[str]) -> list[list[Hit]]:
        texts = list(texts)
        if len(self._cache) > CACHE_LIMIT:
            self._cache.clear()  # a bulk import: keep memory flat, repeats within a batch still hit
        todo = sorted({t for t in texts if t not in self._cache})
        if todo:
            for text, hits in zip(todo, self._run(todo), strict=True):
                self._cache[text] = hits
        return [self._cache[t] for t in texts]

    def _analyze(self, recognizer, entity: str, pieces: list[tuple[int, int, str]]):  # noqa: ANN001, ANN202
        """(piece, start, end, score) inside the piece for every hit, one call per batch. A
        window (see WINDOWS) reads the same in every text, so each is read once and
        remembered: a text's rewrite keeps most of its windows, and chat repeats links."""
        if entity not in WINDOWS:
            for piece, result in self._batch(recognizer, entity, pieces):
                yield piece, result.start, result.end, result.score
            return
        if len(self._windows) > CACHE_LIMIT:
            self._windows.clear()
        name = recognizer.name  # two recognizers of phone numbers read the same windows
        unread = list(dict.fromkeys(snippet for _, _, snippet in pieces if (name, snippet) not in self._windows))
        regions = getattr(recognizer, "supported_regions", None)
        if regions:
            read = self._read_phones(regions, entity, unread)
        else:
            read = {window: [] for window in unread}
            for (_, _, window), result in self._batch(recognizer, entity, [(0, 0, w) for w in unread]):
                read[window].append((result.start, result.end, result.score))
        self._windows.update(((name, window), found) for window, found in read.items())
        for piece in pieces:
            for start, end, score in self._windows[name, piece[2]]:
                yield piece, start, end, score

    def _read_phones(self, regions: Sequence[str], entity: str, windows: list[str]) -> dict[str, list[tuple[int, int, float]]]:
        """The numbers read in each window. A phone number written with its country code
        ("+44 ...") parses the same whatever the default region, so those windows go to a
        one-region recognizer; the others try one region after another, and a window a
        region read whole leaves the queue."""
        found: dict[str, list[tuple[int, int, float]]] = {window: [] for window in windows}
        pieces = [(0, 0, window) for window in windows]
        international = [p for p in pieces if _one_international_number(p[2])]
        rest = [p for p in pieces if not _one_international_number(p[2])]
        for piece, result in self._batch(self._region_phone("US"), entity, international):
            found[piece[2]].append((result.start, result.end, result.score))
        for region in regions:
            if not rest:
                break
            read = set()
            for piece, result in self._batch(self._region_phone(region), entity, rest):
                found[piece[2]].append((result.start, result.end, result.score))
                if _reads_whole(piece[2], result.start, result.end):
                    read.add(piece[2])
            rest = [p for p in rest if p[2] not in read]
        return found

    @staticmethod
    def _batch(recognizer, entity: str, pieces: list[tuple[int, int, str]]):  # noqa: ANN001, ANN205
        if not pieces:
            return
        joined, starts = _join([snippet for _, _, snippet in pieces])
        for result in recognizer.analyze(joined, [entity], None):
            if result.score <= 0:
                continue
            k = bisect.bisect_right(starts, result.start) - 1
            result.start, result.end = result.start - starts[k], result.end - starts[k]
            if result.end > len(pieces[k][2]):
                continue  # spans the separator: cannot be one real value
            yield pieces[k], result

    def _region_phone(self, region: str) -> PhoneRecognizer:
        if region not in self._phones:
            from curator.anonymise.finders.numbers import phone_recognizer

            self._phones[region] = phone_recognizer((region,))
        return self._phones[region]

    @contextmanager
    def ahead(self, chars: int, follow: Follow | None = None) -> Iterator[Callable[[list[str]], Callable[[], None]]]:
        """Detect batches while the caller works on earlier ones: yields `detect(texts)`, which
        starts detecting `texts` in a forked worker and returns `ready()`, which waits until
        they are in the cache. For `chars` of text too few to be worth a worker (or where
        processes cannot fork), `ready()` detects them here.

        `follow(text, hits)`: the texts the caller will detect next because of these hits (a
        rewriter's URL paths), detected in the same pass, as one batch, not one at a time later."""
        count = self._forked_workers(chars)
        if count < 2:
            def detect_here(texts: list[str]) -> Callable[[], None]:
                def ready() -> None:
                    found = self.detect_many(texts)
                    if follow is not None:
                        self.detect_many(_followed(texts, found, follow))
                return ready
            yield detect_here
            return
        with forked_pool(functools.partial(self._run_ahead, follow=follow), count) as submit:
            def detect(texts: list[str]) -> Callable[[], None]:
                pending = submit(sorted({t for t in texts if t not in self._cache}))

                def ready() -> None:
                    done, hits, windows = pending.get()
                    self._cache.update(zip(done, hits, strict=True))
                    self._windows.update(windows)
                return ready
            yield detect

    def _run(self, texts: list[str]) -> list[list[Hit]]:
        """Hits per text; a large batch split across forked processes, one per core."""
        count = min(self._forked_workers(sum(map(len, texts))), len(texts))
        if count < 2:
            return self._run_here(texts)
        results: list[list[Hit]] = [[] for _ in texts]
        # every count-th text to each worker: long and short, chat and pages, spread evenly
        for k, (hits, windows) in enumerate(forked_map(self._run_part, [texts[k::count] for k in range(count)])):
            results[k::count] = hits
            self._windows.update(windows)
        return results

    def _forked_workers(self, chars: int) -> int:
        return forked_workers(self.workers, min(MAX_WORKERS, chars // CHARS_PER_WORKER))

    def _run_part(self, texts: list[str]) -> tuple[list[list[Hit]], Windows]:
        """Hits per text, and the windows read meanwhile (a forked worker's own memory is lost)."""
        known = len(self._windows)
        hits = self._run_here(texts)
        if len(self._windows) < known:  # cleared at its limit
            known = 0
        return hits, dict(itertools.islice(self._windows.items(), known, None))

    def _run_ahead(self, texts: list[str], follow: Follow | None) -> tuple[list[str], list[list[Hit]], Windows]:
        """`_run_part` for `ahead`, and then for what `follow` makes of its texts: the texts
        detected, their hits, and the windows read meanwhile."""
        hits, windows = self._run_part(texts)
        if follow is None:
            return texts, hits, windows
        asked = set(texts)
        more = [t for t in _followed(texts, hits, follow) if t not in self._cache and t not in asked]
        more_hits, more_windows = self._run_part(more)
        return texts + more, hits + more_hits, windows | more_windows

    def _run_here(self, texts: list[str]) -> list[list[Hit]]:
        results: list[list[Hit]] = [[] for _ in texts]
        for recognizer in self._recognizers:
            entity = recognizer.supported_entities[0]
            wanted = PREFILTERS.get(entity, lambda _t: True)
            pieces: list[tuple[int, int, str]] = []  # (text index, offset in it, snippet) the recognizer sees
            for i, text in enumerate(texts):
                if not wanted(text):
                    continue
                if entity in WINDOWS:
                    pieces.extend((i, m.start(), m.group()) for m in WINDOWS[entity].finditer(text)
                                  if (entity not in SKIP_CLAIMED or not _covered(results[i], m.start(), m.end(), text))
                                  and (entity not in WINDOW_TESTS or WINDOW_TESTS[entity](m.group())))
                else:
                    pieces.append((i, 0, text))
            if entity in per_text():
                finder = per_text()[entity]
                for index, _, text in pieces:
                    results[index].extend(Hit(start, end, entity, score) for start, end, score in finder(text))
                continue
            for (index, base, _), start, end, score in self._analyze(recognizer, entity, pieces):
                end += base
                if entity == "PHONE_NUMBER":
                    end = extend_extension(texts[index], end)  # "(713) 631-5246 x129", "... poste 219"
                hit = Hit(base + start, end, entity, score)
                if _plausible(texts[index], hit):
                    results[index].append(hit)
        if self._nlp is not None:
            for i, doc in enumerate(self._nlp.pipe(texts)):
                for ent in doc.ents:
                    entity = {"PERSON": "PERSON", "ORG": "ORGANIZATION", "GPE": "LOCATION", "LOC": "LOCATION", "FAC": "LOCATION"}.get(ent.label_)
                    if entity:
                        results[i].append(Hit(ent.start_char, ent.end_char, entity, 0.85))
        return results


def _followed(texts: list[str], hits: list[list[Hit]], follow: Follow) -> list[str]:
    return sorted({more for text, found in zip(texts, hits, strict=True) for more in follow(text, found) if more.strip()})


def _could_be_phone(window: str) -> bool:
    digits = sum(c.isdigit() for c in EXTENSION.sub("", window))
    return 7 <= digits <= 15 and NOT_A_PHONE.fullmatch(window.strip("() ")) is None


def _could_be_url(window: str) -> bool:
    """A URL hit ends at a top-level domain of Presidio's list, or at its path: a window
    holds one only where such a domain ends before a path, a quote or a character
    `_plausible` lets a URL end at ("@john.taylor" holds none, "globex.io/x" does). Presidio's
    patterns backtrack through every window that holds none, ten times as slow as the rest."""
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
    return re.compile(r"\.(?:" + "|".join(sorted(domains, key=len, reverse=True)) + r")(?:$|/|[^\w@-])", re.I)


# What a window must hold for its recognizer to find anything `_plausible` keeps there.
WINDOW_TESTS: dict[str, Callable[[str], bool]] = {"PHONE_NUMBER": _could_be_phone, "URL": _could_be_url}


def _reads_whole(window: str, start: int, end: int) -> bool:
    """The number found at [start, end) holds every digit of its window."""
    return not any(c.isdigit() for c in window[:start] + EXTENSION.sub("", window[end:]))


def _one_international_number(window: str) -> bool:
    """"+44 20 7946 0958": a country code and at most E.164's 15 digits, so one number."""
    return window.lstrip("(").startswith("+") and window.count("+") == 1 and sum(c.isdigit() for c in window) <= 15


def _covered(found: list[Hit], start: int, end: int, text: str) -> bool:
    """True when earlier recognizers already claimed the window's digits (a cheap pattern
    found the US number, or it is a Luhn-valid card): phonenumbers need not parse it in 8
    regions, since the longer or more specific hit wins the overlap anyway."""
    claimed = [h for h in found if h.start < end and start < h.end and h.entity in CLAIMING
               and not (h.entity == "US_SSN" and text[h.start : h.end].isdigit())]
    if not claimed:
        return False
    inside = {i for h in claimed for i in range(max(start, h.start), min(end, h.end))}
    return sum(map(str.isdigit, text[start:end])) - sum(map(str.isdigit, map(text.__getitem__, inside))) < 7


def _join(texts: list[str]) -> tuple[str, list[int]]:
    starts = []
    position = 0
    for text in texts:
        starts.append(position)
        position += len(text) + len(SEPARATOR)
    return SEPARATOR.join(texts), starts


def _plausible(text: str, hit: Hit) -> bool:
    """Drop pattern hits that are fragments of something else (Presidio has no word edges)."""
    before = text[hit.start - 1] if hit.start else " "
    after = text[hit.end] if hit.end < len(text) else " "
    if hit.entity == "URL":
        value = text[hit.start : hit.end]
        if before.isalnum() or before in "@._-" or after.isalnum() or after in "@_-":
            return False
        has_scheme = "://" in value or value.lower().startswith("www.")
        host = value.split("://")[-1].split("/")[0]
        if not has_scheme and "/" not in value and host.rsplit(".", 1)[-1].lower() in FILE_LIKE_TLDS:
            return False
    elif hit.entity in ("PHONE_NUMBER", "CREDIT_CARD", "US_SSN", "IBAN_CODE", "UK_NINO"):
        if before.isalnum() or after.isalnum():
            return False
        if hit.entity == "US_SSN" and text[hit.start : hit.end].isdigit():
            # nine bare digits: an SSN, unless the text is about phones and never about SSNs
            return SSN_CONTEXT.search(text) is not None or PHONE_CONTEXT.search(text, max(0, hit.start - 24), hit.start) is None
    elif hit.entity == "IP_ADDRESS":
        # "4.98.63.73" inside "+33 (0)4.98.63.73.84" is part of a dotted phone number
        if text[hit.end : hit.end + 2].startswith(".") and text[hit.end + 1 : hit.end + 2].isdigit():
            return False
        if hit.start >= 2 and text[hit.start - 1] == "." and text[hit.start - 2].isdigit():
            return False
    return True


def detector_for(model: str | None = None) -> Detector:
    """The detector that finds names with the installed spaCy `model` (checked: never
    downloaded); without one, the model $CURATOR_NER_MODEL names, else none.

    One detector per model name in a process, so its recognizers are built and its results
    cached once, whoever asks for it.
    """
    return _detector(model or os.environ.get(NER_ENV) or None)


@cache
def _detector(model: str | None) -> Detector:
    return Detector(model)
