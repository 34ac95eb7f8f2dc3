"""Detect spans, decide their pseudonyms, apply the edits: the one text rewriter.

Spans come from three detectors, strongest first: known originals (the thread's user
records, labelled person/organisation/address values, everything already in the vault),
Presidio's pattern recognizers and the name gazetteer, and (in threads) bare Mattermost ids.
Overlaps keep the longer span, then the stronger detector. Hits that are already pseudonyms
or lie in reserved example ranges are left alone, so rewriting is idempotent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from curator.anonymise import pseudonyms as gen
from curator.anonymise.detect import KIND_PRIORITY, Detector
from curator.anonymise.terms import TermIndex
from curator.anonymise.vault import Vault, normal, tokens
from curator.spans import Edit, OffsetMap, apply_edits

MATTERMOST_ID = re.compile(r"(?<![A-Za-z0-9])[a-z0-9]{26}(?![A-Za-z0-9])")
URL_HOST = re.compile(r"^(?P<head>(?:[a-z][a-z0-9+.-]*://)?(?:[^/@\s]*@)?)(?P<host>[^/?#:\s]+)", re.I)


@dataclass(frozen=True)
class DetectedSpan:
    """Characters [start, end) of a text that a detector took for a value of `kind`."""

    start: int
    end: int
    kind: str
    rank: int  # 0 known original, 1 pattern/name, 2 bare id
    original: str = ""  # for a known original: the vault's spelling of it


def is_safe(vault: Vault | None, kind: str, value: str) -> bool:
    """A detected value that is not a leak: a pseudonym of this vault or a reserved example."""
    if gen.is_reserved(kind, value):
        return True
    if vault is None:
        return False
    if vault.is_pseudonym(value):
        return True
    if kind == "person":
        return _pseudonym_name(vault, tokens(value))
    if kind == "address":
        # the start of an address pseudonym, cut short by a title's length limit
        cut = normal(value)
        return len(cut) >= 8 and any(e.kind == "address" and normal(e.pseudonym).startswith(cut) for e in vault.entries())
    return False


def _pseudonym_name(vault: Vault, words: list[str]) -> bool:
    """A pseudonym, possibly garbled by a mutation ("Rss Ford" from OCR noise on "Ross Ford").

    Every word is a pseudonym word or no known name at all, at least one is a pseudonym
    word, and none is a word of an original: "Karen Ford" stays a hit, since Karen is a name.
    """
    from curator.anonymise.names import known_name_words

    if not words:
        return True  # only titles ("Mr", "Dr."): they name nobody
    if any(vault.is_original_token(w) for w in words):
        return False
    known = known_name_words()
    pseudonym_words = [w for w in words if vault.is_pseudonym_token(w)]
    return bool(pseudonym_words) and all(w in pseudonym_words or w not in known for w in words)


class Rewriter:
    def __init__(self, vault: Vault, terms: TermIndex, detector: Detector, *, ids: bool = False) -> None:
        self.vault = vault
        self.terms = terms
        self.detector = detector
        self.ids = ids
        self._cache: dict[str, tuple[str, OffsetMap]] = {}

    def spans(self, text: str, *, urls: bool = True) -> list[DetectedSpan]:
        candidates = [DetectedSpan(m.start, m.end, m.term.kind, 0, m.term.original) for m in self.terms.find(text)]
        for hit in self.detector.detect(text):
            if hit.entity == "URL" and not urls:
                continue
            if not is_safe(self.vault, hit.kind, text[hit.start : hit.end]):
                candidates.append(DetectedSpan(hit.start, hit.end, hit.kind, 1))
        if self.ids:
            candidates.extend(DetectedSpan(m.start(), m.end(), "id", 2) for m in MATTERMOST_ID.finditer(text)
                              if not self.vault.is_pseudonym(m.group()))
        return resolve(candidates)

    def prefetch(self, texts: list[str]) -> None:
        """Detect PII in many texts at once (one recognizer pass per batch), filling the cache."""
        self.detector.detect_many(t for t in texts if t not in self._cache)

    def reserve(self, texts: list[str]) -> None:
        """Reserve (see Vault.reserve) every name-like value the detectors find in `texts`."""
        self.detector.detect_many(texts)
        reserve_hits(self.vault, self.detector, texts)

    def texts(self, texts: list[str]) -> list[str]:
        self.prefetch(texts)
        return [self.text(t) for t in texts]

    def rewrite(self, text: str) -> tuple[str, OffsetMap]:
        if text not in self._cache:
            self._cache[text] = self._rewrite(text, urls=True)
        return self._cache[text]

    def text(self, text: str) -> str:
        return self.rewrite(text)[0]

    def _rewrite(self, text: str, *, urls: bool) -> tuple[str, OffsetMap]:
        edits = []
        for span in self.spans(text, urls=urls):
            value = text[span.start : span.end]
            if span.rank == 0:
                # matched "CLAUDIO costa" for the original "Claudio Costa": its pseudonym, cased as found
                replacement = gen.match_case(value, self.vault.pseudonym(span.original, span.kind))
            elif span.kind == "url":
                replacement = self._url(value)
            else:
                replacement = self.vault.pseudonym(value, span.kind)
            edits.extend(word_edits(span.start, value, keep_breaks(value, replacement)))
        return apply_edits(text, edits)

    def _url(self, url: str) -> str:
        """New host under .example; the path goes through the rewriter (names, ids, emails)."""
        match = URL_HOST.match(url)
        if match is None:
            return self.vault.pseudonym(url, "url")
        head, host = match.group("head"), match.group("host")
        if "@" in head:
            head = self._rewrite(head, urls=False)[0]
        new_host = host if gen.is_reserved("domain", host) else self.vault.pseudonym(host.lower(), "domain")
        rest, _ = self._rewrite(url[match.end():], urls=False)
        return head + new_host + rest


_GAPS = re.compile(r"\s+")


def keep_breaks(matched: str, replacement: str) -> str:
    """"Claudio\nCosta" becomes "Maria\nLopez", not "Maria Lopez": line layout survives."""
    gaps = _GAPS.findall(matched.strip())
    words = replacement.split(" ")
    if "\n" not in matched or len(words) != len(gaps) + 1:
        return replacement
    return "".join(word + gap for word, gap in zip(words, [*gaps, ""], strict=True))


def word_edits(start: int, value: str, replacement: str) -> list[Edit]:
    """One edit per word when a name keeps its word count ("Claudio Costa" -> "Maria Lopez"),
    so a label pointing at "Costa" alone ends up pointing at "Lopez" alone."""
    if replacement == value:
        return []
    words = list(re.finditer(r"\S+", value))
    new_words = replacement.split()
    if len(words) < 2 or len(words) != len(new_words) or _GAPS.sub(" ", replacement.strip()) != " ".join(new_words):
        return [Edit(start, start + len(value), replacement)]
    return [Edit(start + w.start(), start + w.end(), new) for w, new in zip(words, new_words, strict=True) if w.group() != new]


def reserve_hits(vault: Vault, detector: Detector, texts: list[str]) -> None:
    for text, hits in zip(texts, detector.detect_many(texts), strict=True):
        for hit in hits:
            value = text[hit.start : hit.end]
            if hit.kind == "email":
                vault.reserve(value.rpartition("@")[0], "username")
            elif hit.kind == "person" and not is_safe(vault, "person", value):
                vault.reserve(value, "person")


def resolve(candidates: list[DetectedSpan]) -> list[DetectedSpan]:
    """Non-overlapping spans: longer first, then the stronger detector."""
    chosen: list[DetectedSpan] = []
    for span in sorted(candidates, key=lambda s: (-(s.end - s.start), s.rank, KIND_PRIORITY.get(s.kind, 99), s.start)):
        if span.end <= span.start:
            continue
        if all(span.end <= c.start or span.start >= c.end for c in chosen):
            chosen.append(span)
    return sorted(chosen, key=lambda s: s.start)


def vault_terms(vault: Vault | None, extra: TermIndex | None = None) -> TermIndex:
    """Every original in the vault (and `extra`) as searchable terms."""
    index = TermIndex()
    if extra is not None:
        for term in extra.terms():
            index.add(term.original, term.kind)
    if vault is not None:
        for entry in vault.entries():
            if entry.kind in UNSEARCHED_KINDS:
                continue
            index.add(entry.original, entry.kind)
    return index


# Values rewritten where they stand (user record fields) but not hunted in free text:
# a job title such as "Engineer" is not a name, and every "engineer" in a thread is not a leak.
UNSEARCHED_KINDS = frozenset({"position", "url"})
