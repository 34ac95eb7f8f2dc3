"""Decide the pseudonym of every span of personal data and apply the edits: the one text rewriter.

`personal.PersonalData` says what is personal (known originals, detector hits, mentions,
percent-encoded text, bare ids); this module says what replaces it, through the vault, and
applies the edits with curator.spans so labels keep pointing at their values. Replacements
are safe by the same definition (pseudonyms, reserved ranges: safe.py), so rewriting is
idempotent.

A rewriter is built from the vault as it stands. Rewriting teaches the vault new originals
(the words of a name found on page 3), which an earlier text may also hold: `settle` reruns
the whole rewrite until a round teaches the vault nothing new, so every occurrence of every
original is rewritten, wherever it came first.
"""

from __future__ import annotations

import gc
import re
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar
from urllib.parse import quote, unquote

from curator.anonymise import pseudonyms as gen
from curator.anonymise.finders.detector import Detector, Hit
from curator.anonymise.finders.places import generalised
from curator.anonymise.keep import NOTHING_KEPT, Keep
from curator.anonymise.normal_view import view_text
from curator.anonymise.personal import DetectedSpan, PersonalData
from curator.anonymise.safe import is_safe
from curator.anonymise.terms import TOKEN, TermIndex
from curator.anonymise.vault import Vault
from curator.spans import Edit, OffsetMap, apply_edits

URL_HOST = re.compile(
    r"^(?P<head>(?:[a-z][a-z0-9+.-]*://)?(?:[^/@\s]*@)?)(?P<host>[^/?#:\s]+)", re.I
)
MAX_ROUNDS = 4  # a round only adds originals found in the previous one: two rounds usually do
BATCH_CHARS = 20_000  # text detected at a time while earlier batches are rewritten
AHEAD = 4  # batches given to the detector before their turn to be rewritten
LAG = 2  # batches rewritten before an earlier one is polished: its rewrite is detected meanwhile
POLISH_PASSES = 2  # rewrites of a rewritten text whose new context still holds personal data
# New containers between two young collections while rewriting (Python's default is 700)
COLLECT_EVERY = 20_000
T = TypeVar("T")


@contextmanager
def _fewer_collections() -> Iterator[None]:
    """Rewriting fills caches that live as long as the command (hits, windows, the vault's
    tries), almost none of it cyclic garbage; collected every 700 new containers, the cycle
    collector took a tenth of a chat's rewrite rescanning them. Forked detection workers
    inherit the raised threshold."""
    young, middle, old = gc.get_threshold()
    gc.set_threshold(
        max(young, COLLECT_EVERY) if young else 0, middle, old
    )  # 0: the caller turned it off
    try:
        yield
    finally:
        gc.set_threshold(young, middle, old)


class Rewriter:
    def __init__(
        self,
        vault: Vault,
        terms: TermIndex,
        detector: Detector,
        *,
        ids: bool = False,
        keep: Keep = NOTHING_KEPT,
        raw_input: bool = False,
    ) -> None:
        self.vault = vault
        # the texts are raw production data (an import's content), never text curator wrote:
        # a name in them made of pseudonym words is a real person (see PersonalData.spans)
        self.raw_input = raw_input
        self.detector = detector
        self.personal = PersonalData(vault, detector, terms=terms, keep=keep, ids=ids)
        self._cache: dict[str, tuple[str, OffsetMap]] = {}

    def prefetch(self, texts: list[str]) -> None:
        """Rewrite many texts ahead, detecting in batches (one recognizer pass per batch): the
        texts themselves, then what their first rewrite made of them (see `rewrite`).

        Forked workers detect the next batches and the rewrites of the last ones while this
        process rewrites; the rewriting stays here, in a fixed order (a batch is polished
        once LAG later ones are rewritten), as the vault's pseudonyms depend on it."""
        todo = [t for t in dict.fromkeys(texts) if t not in self._cache]
        batches = _batches(todo)  # detected as PersonalData.spans reads them: their views (_views)
        with (
            _fewer_collections(),
            self.detector.ahead(sum(map(len, todo)), follow=url_parts) as detect,
        ):
            detected = deque(detect(_views(batch)) for batch in batches[:AHEAD])
            rewritten: deque[tuple[list[str], list[tuple[str, OffsetMap]], Callable[[], None]]] = (
                deque()
            )
            for k, batch in enumerate(batches):
                if k + AHEAD < len(batches):
                    detected.append(detect(_views(batches[k + AHEAD])))
                detected.popleft()()
                firsts = [self._rewrite(t, raw=self.raw_input) for t in batch]
                rewritten.append((batch, firsts, detect(_views([new for new, _ in firsts]))))
                if len(rewritten) > LAG:
                    self._polish_batch(*rewritten.popleft())
            while rewritten:
                self._polish_batch(*rewritten.popleft())

    def _polish_batch(
        self, batch: list[str], firsts: list[tuple[str, OffsetMap]], detected: Callable[[], None]
    ) -> None:
        detected()
        for old, first in zip(batch, firsts, strict=True):
            self._cache[old] = self._polished(old, *first)

    def texts(self, texts: list[str]) -> list[str]:
        self.prefetch(texts)
        return [self.text(t) for t in texts]

    def rewrite(self, text: str) -> tuple[str, OffsetMap]:
        """The text rewritten, and where its old offsets went."""
        if text not in self._cache:
            self._cache[text] = self._polished(text, *self._rewrite(text, raw=self.raw_input))
        return self._cache[text]

    def _polished(self, old: str, new: str, offsets: OffsetMap) -> tuple[str, OffsetMap]:
        """Rewriting changes the context a detector reads ("BALDA Clemente" becomes "Spencer
        Clemente", now two names in a row), so a changed text is judged again, and rewritten
        again where something personal is still found, as every checker will find it."""
        for _ in range(POLISH_PASSES):
            if new == old or not self.personal.spans(new):
                break
            old = new
            new, more = self._rewrite(new)
            offsets = offsets.then(more)
        return new, offsets

    def text(self, text: str) -> str:
        return self.rewrite(text)[0]

    def _rewrite(
        self, text: str, *, in_url: bool = False, raw: bool = False
    ) -> tuple[str, OffsetMap]:
        edits = []
        for span in self.personal.spans(text, in_url=in_url, raw=raw):
            value = text[span.start : span.end]
            # the pseudonym is drawn for the value as read ("Harrison", not "Harr\u200bison"),
            # and replaces every character it was read from
            read = span.seen or value
            replacement = self._replacement(span, read, raw)
            edits.extend(
                word_edits(span.start, value, keep_gaps(value, replacement))
                if read == value
                else [Edit(span.start, span.end, replacement)]
            )
        return apply_edits(text, edits)

    def _replacement(self, span: DetectedSpan, value: str, raw: bool) -> str:
        if span.rank == 0:
            # matched "CLAUDIO costa" for the original "Claudio Costa": its pseudonym, cased as
            # found
            return gen.match_case(value, self.vault.pseudonym(span.original, span.kind))
        if span.kind == "url":
            return self._url(value, raw)
        if span.kind == "encoded":
            return encoded_like(value, self._rewrite(unquote(value), raw=raw)[0])
        if span.kind == "place":
            return generalised(value)  # no pseudonym: the same for every place of its kind
        return self.vault.pseudonym(value, span.kind)

    def _url(self, url: str, raw: bool) -> str:
        """New host under .example; the rest goes through the rewriter (names, ids, emails)."""
        parts = split_url(url)
        if parts is None:
            return self.vault.pseudonym(url, "url")
        head, host, rest = parts
        if "@" in head:
            head = self._rewrite(head, in_url=True, raw=raw)[0]
        new_host = (
            host
            if gen.is_reserved("domain", host)
            else self.vault.pseudonym(host.lower(), "domain")
        )
        return head + new_host + self._rewrite(rest, in_url=True, raw=raw)[0]


def split_url(url: str) -> tuple[str, str, str] | None:
    """(scheme and user, host, the rest) of a URL, or None where no host opens it."""
    match = URL_HOST.match(url)
    if match is None:
        return None
    return match.group("head"), match.group("host"), url[match.end() :]


def url_parts(text: str, hits: list[Hit]) -> list[str]:
    """What `Rewriter._url` will rewrite, and so detect, of each URL found in `text`: its
    user and its path. Detected with the text's batch (see `Detector.ahead`)."""
    parts = []
    for hit in hits:
        if hit.kind == "url" and (split := split_url(text[hit.start : hit.end])) is not None:
            head, _, rest = split
            parts += [head, rest] if "@" in head else [rest]
    return parts


def _batches(texts: list[str]) -> list[list[str]]:
    """Consecutive texts of about BATCH_CHARS characters each: chat lines or PDF pages."""
    batches: list[list[str]] = [[]]
    size = 0
    for text in texts:
        if size >= BATCH_CHARS:
            batches.append([])
            size = 0
        batches[-1].append(text)
        size += len(text)
    return [batch for batch in batches if batch]


def settle(vault: Vault, rewrite_all: Callable[[], T]) -> T:
    """Run `rewrite_all` (which builds its rewriters from the vault) until a round teaches
    the vault no new original: then every text was rewritten knowing all of them. A round
    that taught nothing is not run again: from the same vault it would give the same."""
    for _ in range(MAX_ROUNDS):
        size = len(vault)
        result = rewrite_all()
        if len(vault) == size:
            break
    return result


def encoded_like(original: str, decoded: str) -> str:
    """`decoded` percent-encoded as `original` was: characters it wrote plainly stay plain."""
    plain = "".join(sorted({c for c in original if not c.isalnum() and c != "%"}))
    return quote(decoded, safe=plain)


def keep_gaps(matched: str, replacement: str) -> str:
    """The separators between the matched words stay: "Claudio\\nCosta" becomes "Maria\\nLopez"
    and "ingrid-solberg" in a file name becomes "maria-lopez", not "maria lopez"."""
    words = replacement.split(" ")
    found = list(TOKEN.finditer(matched))
    if len(words) < 2 or len(found) != len(words) or not all(TOKEN.fullmatch(w) for w in words):
        return replacement
    if found[0].start() != 0 or found[-1].end() != len(matched):
        return replacement
    gaps = [matched[a.end() : b.start()] for a, b in zip(found, found[1:], strict=False)]
    return "".join(word + gap for word, gap in zip(words, [*gaps, ""], strict=True))


def word_edits(start: int, value: str, replacement: str) -> list[Edit]:
    """One edit per word when a name keeps its word count ("Claudio Costa" -> "Maria Lopez"),
    so a label pointing at "Costa" alone ends up pointing at "Lopez" alone."""
    if replacement == value:
        return []
    words = list(re.finditer(r"\S+", value))
    new_words = replacement.split()
    if (
        len(words) < 2
        or len(words) != len(new_words)
        or re.sub(r"\s+", " ", replacement.strip()) != " ".join(new_words)
    ):
        return [Edit(start, start + len(value), replacement)]
    return [
        Edit(start + w.start(), start + w.end(), new)
        for w, new in zip(words, new_words, strict=True)
        if w.group() != new
    ]


def _views(texts: list[str]) -> list[str]:
    return [view_text(text) for text in texts]


def reserve_hits(vault: Vault, detector: Detector, texts: list[str]) -> None:
    texts = _views(texts)  # the values as the rewriter will ask for them
    for text, hits in zip(texts, detector.detect_many(texts), strict=True):
        for hit in hits:
            value = text[hit.start : hit.end]
            if hit.kind == "email":
                vault.reserve(value.rpartition("@")[0], "username")
            elif hit.kind == "person" and not is_safe(vault, "person", value):
                vault.reserve(value, "person")
