"""Personal data left in a text: the one definition the rewriter and every checker share.

`PersonalData.spans` says which characters of a text are personal data: known originals (the
vault's, and the input's own records and labelled values), unexempted detector hits,
`@mentions` of people, percent-encoded text that holds any of these, and (in threads) bare
Mattermost ids, all read in the text's normalised view (normal_view.py: hidden and look-alike
characters folded) and reported in the original's offsets. The rewriter replaces exactly
these spans; the import self-check, `curator audit` and the bundle leak gate report exactly
these spans as leaks. So a checker can only flag what the rewriter would have rewritten, and
the rewriter's output judges clean unless a value truly could not be rewritten.

What is not personal data: structure (structure.py), pseudonyms this vault handed out (its
ids too, wherever they stand), values in reserved example ranges (safe.py), values curator's
mutations made up (`synthetic`), terms and hosts the user keeps (`Keep`), and digits inside a
URL (an anchor or version is no phone number). Places are personal only where the store
generalises them (`Keep.places`), outside a street address (an address hit is longer).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from operator import itemgetter
from urllib.parse import unquote

from curator.anonymise.context import (
    in_place_name,
    is_word_first,
    names_someone_here,
    needs_context,
)
from curator.anonymise.finders.detector import Detector, Hit
from curator.anonymise.finders.name_data import fold_case
from curator.anonymise.finders.places import after_generalised, places_in
from curator.anonymise.keep import NOTHING_KEPT, Keep, Used
from curator.anonymise.kinds import DISGUISABLE_KINDS, NAME_PART_KINDS, VAULT_ONLY_KINDS, priority
from curator.anonymise.normal_view import view_of, view_text
from curator.anonymise.safe import WORD, cut_address_pseudonym, is_safe
from curator.anonymise.terms import TermIndex, TermMatch, text_tokens
from curator.anonymise.vault import Vault, normal, tokens
from curator.anonymise.vault_indexes import pseudonym_index, vault_index

CUT_TAIL = 120  # characters at a text's end where an address pseudonym may have been cut short
MATTERMOST_ID = re.compile(r"(?<![A-Za-z0-9])[a-z0-9]{26}(?![A-Za-z0-9])")
# "@kwame.mensah", not the "@" of an e-mail address
MENTION = re.compile(r"(?<![\w@.+-])@([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)")
SCHEMED_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s<>\"'`]+", re.I)
MENTION_GROUPS = frozenset({"all", "channel", "here", "everyone"})
# a run holding %XX escapes: a query value, a path segment
ENCODED = re.compile(r"[^\s\"'<>()\[\]{}&=?#]*%[0-9A-Fa-f]{2}[^\s\"'<>()\[\]{}&=?#]*")


@dataclass(frozen=True)
class DetectedSpan:
    """Characters [start, end) of a text that a detector took for a value of `kind`."""

    start: int
    end: int
    kind: str
    rank: int  # 0 known original, 1 pattern/name/mention/encoded, 2 bare id
    original: str = ""  # for a known original: the vault's spelling of it
    # the span as the normalised view reads it, where that differs from its characters
    # ("Harrison" for "Harr\u200bison"): what the vault is asked for a pseudonym of
    seen: str = ""


def resolve(candidates: list[DetectedSpan]) -> list[DetectedSpan]:
    """Non-overlapping spans: longer first, then the stronger detector."""
    chosen: list[DetectedSpan] = []
    for span in sorted(
        candidates, key=lambda s: (-(s.end - s.start), s.rank, priority(s.kind), s.start)
    ):
        if span.end <= span.start:
            continue
        if all(span.end <= c.start or span.start >= c.end for c in chosen):
            chosen.append(span)
    return sorted(chosen, key=lambda s: s.start)


class PersonalData:
    """Decides what in a text is personal data, against one vault and one set of terms.

    `terms` are the input's own originals (its user records, its labelled values): always
    personal. The vault's originals count too, except a lone first or last name that is also
    one of the vault's pseudonym words (it cannot be told apart) and, with
    `judge_names=False` (texts another vault anonymised), lone name parts and name guesses.
    """

    def __init__(
        self,
        vault: Vault | None,
        detector: Detector,
        *,
        terms: TermIndex | None = None,
        keep: Keep = NOTHING_KEPT,
        synthetic: Iterable[str] = (),
        judge_names: bool = True,
        ids: bool = False,
        known_until: int | None = None,
    ) -> None:
        self.vault = vault
        self.detector = detector
        self.certain = terms if terms is not None else TermIndex()
        self.known = vault_index(vault)
        self.keep = keep
        self.made_up = {normal(value) for value in synthetic if value}
        self.judge_names = judge_names and vault is not None
        self.ids = ids
        # a fixture is judged against the originals the vault held when it was anonymised: a
        # word another source later taught it ("Parker") was no name known then
        self.until = known_until
        self.used = Used()
        self._made_up_index = TermIndex((value, "synthetic") for value in self.made_up)

    def spans_many(self, texts: Sequence[str]) -> list[list[DetectedSpan]]:
        # one batched pass over what spans() reads (the texts' views); spans() then reads the cache
        self.detector.detect_many([view_text(text) for text in texts])
        return [self.spans(text) for text in texts]

    def spans(self, text: str, *, in_url: bool = False, raw: bool = False) -> list[DetectedSpan]:
        """Personal data in `text`, non-overlapping, in order. `in_url`: the text is the path of
        a URL being rewritten, so URLs are not looked for again and digits are no phone.

        `raw`: the text is raw production data, not text curator wrote. A name made of
        pseudonym words ("TONY STRICKLAND" once "Tony" and "Strickland" were handed out to
        others) is then a real person: only curator's output composes pseudonym words
        ("Spencer Clemente" while "BALDA Clemente" is being rewritten). A checker reads
        output and cannot tell the two apart; the rewriter, reading the input, can.

        Every decision is made on the text's normalised view (normal_view.py), and each span
        covers the original characters it was read from, hidden ones included."""
        view = view_of(text)
        if view is None:
            return self._spans(text, in_url, raw)
        return resolve(
            [
                replace(span, start=start, end=end, seen=view.text[span.start : span.end])
                for span in self._spans(view.text, in_url, raw)
                for start, end in [view.span(span.start, span.end)]
            ]
        )

    def _spans(self, text: str, in_url: bool, raw: bool) -> list[DetectedSpan]:
        if not text or not text.strip():
            return []
        hits = self.detector.detect(text)
        if in_url:
            hits = [h for h in hits if h.kind not in ("url", "phone")]
        ids = self._our_ids(text)
        if ids:
            # an id the vault handed out is structure, not a number: random letters and digits
            # next to words ("author kp99o156... is not in") can pass an IBAN's checksum
            hits = [h for h in hits if not any(s < h.end and h.start < e for s, e in ids)]
        known = self.known.find(text)
        places = places_in(text) if self.keep.places else []
        # the vault's pseudonyms in the text, including those handed out since this was
        # made (a polish pass reads the text its own round rewrote): only a known original, a
        # place or a hit of a worded kind is weighed against them, so only then are they
        # looked for
        pseudonyms = []
        if known or places or any(hit.kind in DISGUISABLE_KINDS for hit in hits):
            pseudonyms = [
                (m.start, m.end) for m in pseudonym_index(self.vault).find(text)
            ] + self._cut_address(text)
        candidates = self._originals(text, known, pseudonyms, hits)
        candidates += self._detected(text, hits, pseudonyms, raw)
        candidates += [
            DetectedSpan(start, end, "place", 1)
            for start, end in places
            if not _inside_longer(start, end, pseudonyms)  # the "USA" of an address pseudonym
        ]
        if self.judge_names:
            candidates += self._mentions(text)
        candidates += self._encoded(text, raw)
        if self.ids:
            candidates += [
                DetectedSpan(m.start(), m.end(), "id", 2)
                for m in MATTERMOST_ID.finditer(text)
                if self.vault is None or not self.vault.is_pseudonym(m.group())
            ]
        return resolve(self._not_kept(text, candidates))

    # ------------------------------------------------------------ the detectors

    def _originals(
        self,
        text: str,
        known: list[TermMatch],
        pseudonyms: list[tuple[int, int]],
        hits: list[Hit],
    ) -> list[DetectedSpan]:
        """The input's own originals, and the vault's (`known`, found in `text`) where no
        pseudonym or made-up value holds them, and where a lone everyday word is that name
        by its context (`context.names_someone_here`)."""
        found = [
            DetectedSpan(m.start, m.end, m.term.kind, 0, m.term.original)
            for m in self.certain.find(text)
        ]
        if not known:
            return found
        # values that stand in for people: the vault's pseudonyms and curator's made-up values
        disguised = pseudonyms + [(m.start, m.end) for m in self._made_up_index.find(text)]
        for m in known:
            if (
                self.until is not None
                and self.vault is not None
                and not self.vault.known_at(m.term.original, m.term.kind, self.until)
            ):
                continue
            if _inside_longer(m.start, m.end, disguised):
                continue  # "Smith" inside the pseudonym "Anna Smith" handed out earlier
            if m.term.kind in NAME_PART_KINDS and (
                not self.judge_names or self._also_a_pseudonym_word(text[m.start : m.end])
            ):
                continue
            written = text[m.start : m.end]
            if (
                (
                    needs_context(m.term.original, m.term.kind, written)
                    or in_place_name(text, m.start, m.end, m.term.kind)
                )
                and not (
                    self.vault is not None
                    and (
                        self.vault.is_decided(m.term.original, m.term.kind)
                        # the input's own name ("Yara" of "Yara Haddad" in the same thread)
                        or self.vault.learned_now(m.term.original, m.term.kind)
                    )
                )
                and not names_someone_here(text, m.start, m.end, hits, self.vault, self.until)
            ):
                continue  # "Diego" of another source in "SAN DIEGO", "Page" in "see Page 3"
            found.append(DetectedSpan(m.start, m.end, m.term.kind, 0, m.term.original))
        return found

    def _detected(
        self, text: str, hits: list[Hit], disguised: list[tuple[int, int]], raw: bool
    ) -> list[DetectedSpan]:
        # a pseudonym host ("x-y.example") is no top-level domain the URL recognizer knows
        urls = [(h.start, h.end) for h in hits if h.entity == "URL"]
        if "://" in text:
            urls += [m.span() for m in SCHEMED_URL.finditer(text)]
        found = []
        for hit in hits:
            value = text[hit.start : hit.end]
            if raw and hit.kind == "person" and len(tokens(value)) > 1:
                # a lone word stays judged as below: a first name also handed out as a
                # pseudonym word cannot be told apart (docs/guide/anonymise.md, "What it cannot
                # find")
                if not is_safe(self.vault, "person", value, self.until, composed=False):
                    found.append(DetectedSpan(hit.start, hit.end, hit.kind, 1))
                continue
            if is_safe(self.vault, hit.kind, value, self.until) or normal(value) in self.made_up:
                continue
            if not self.judge_names and hit.kind in VAULT_ONLY_KINDS:
                continue
            if hit.kind == "phone" and any(s <= hit.start and hit.end <= e for s, e in urls):
                # "#section-20240101" or "/v2/1234567": digits of a URL, not a number to call
                continue
            if hit.kind == "url":
                host = self.keep.host_of(value)
                if host is not None:
                    self.used.hosts.add(host)
                    continue  # its path is judged by the other detectors
            if hit.kind == "person" and self.keep.places and after_generalised(text, hit.start):
                continue  # "[city], Cal.": read in the original as "Los Angeles, Cal."
            if hit.kind == "person" and self.vault is not None:
                if _inside_longer(hit.start, hit.end, disguised):
                    continue  # "Morris" in the street pseudonym "5056 Morris Road"
                found += self._real_words(text, hit.start, hit.end)
                continue
            if (
                not raw
                and hit.kind in ("address", "organisation")
                and any(s < hit.end and hit.start < e for s, e in disguised)
            ):
                # a pseudonym the detector read together with its context ("ASM 36" + a street);
                # in raw input a pseudonym's word is the real one's ("645 97 Warren Avenue")
                continue
            found.append(DetectedSpan(hit.start, hit.end, hit.kind, 1))
        return found

    def _our_ids(self, text: str) -> list[tuple[int, int]]:
        """Where `text` holds Mattermost-shaped ids this vault handed out."""
        if self.vault is None:
            return []
        vault = self.vault
        return [m.span() for m in MATTERMOST_ID.finditer(text) if vault.is_pseudonym(m.group())]

    def _cut_address(self, text: str) -> list[tuple[int, int]]:
        """The end of a text cut short inside an address pseudonym (a title's length limit:
        "... at 9324 Monroe Avenue, Thank Falls, I"): the longest such tail."""
        if self.vault is None:
            return []
        vault = self.vault
        tail = max(0, len(text) - CUT_TAIL)
        tokens = text_tokens(text)  # the words: tokenised once for every index already
        for start, end, _ in tokens[bisect.bisect_right(tokens, tail, key=itemgetter(1)) :]:
            start = max(start, tail)  # the word the tail starts in, from there
            # the word must open an address pseudonym ("9324") before its tail is looked up
            if (
                vault.may_start_an_address_pseudonym(text[start])
                and vault.starts_an_address_pseudonym(text[start:end])
                and cut_address_pseudonym(vault, text[start:])
            ):
                return [(start, len(text))]
        return []

    def _real_words(self, text: str, start: int, end: int) -> list[DetectedSpan]:
        """A name hit that holds pseudonym words ("Spencer Clemente" once "BALDA" became
        "Spencer"): only the other words are personal; the whole when none is a pseudonym's.

        Of the other words, one that is a word first ("Valley" after a pseudonym) and no
        original is not: the hit is there because of the pseudonym beside it, which the
        vault's key drew, and what an import keeps must not depend on the key."""
        vault = self.vault
        assert vault is not None
        words = [(start + m.start(), start + m.end()) for m in WORD.finditer(text[start:end])]
        disguised = [
            (s, e)
            for s, e in words
            if vault.is_forgotten(text[s:e])
            or vault.is_pseudonym_token(text[s:e])
            and not vault.is_original_token(text[s:e], self.until)
        ]
        if not disguised:
            return [DetectedSpan(start, end, "person", 1)]
        return [
            DetectedSpan(s, e, "person", 1)
            for s, e in words
            if (s, e) not in disguised
            and not is_safe(vault, "person", text[s:e], self.until)
            and (
                vault.is_original_token(text[s:e], self.until)
                or not is_word_first(fold_case(text[s:e]))
            )
        ]

    def _mentions(self, text: str) -> list[DetectedSpan]:
        """`@handle` whose parts include a name: a username, member of the thread or not."""
        from curator.anonymise.finders.names import known_name_words

        if "@" not in text:
            return []
        names = known_name_words()
        found = []
        for match in MENTION.finditer(text):
            handle = match.group(1)
            if handle.lower() in MENTION_GROUPS or (
                self.vault is not None and self.vault.is_pseudonym(handle)
            ):
                continue
            parts = [p.casefold() for p in re.findall(r"[^\W\d_]+", handle)]
            if any(self._real_name_word(p, names) for p in parts):
                found.append(DetectedSpan(match.start(1), match.end(1), "username", 1))
        return found

    def _real_name_word(self, word: str, names: frozenset[str]) -> bool:
        """A word of a real name: one of the vault's originals, or a known name that is not
        one of its pseudonym words ("@maria.lopez" after rewriting names no one)."""
        if self.vault is None:
            return word in names
        return self.vault.is_original_token(word, self.until) or (
            word in names and not self.vault.is_pseudonym_token(word)
        )

    def _encoded(self, text: str, raw: bool) -> list[DetectedSpan]:
        """A percent-encoded run (an image proxy's `?url=https%3A%2F%2F...`) holding personal
        data."""
        if "%" not in text:
            return []
        found = []
        for match in ENCODED.finditer(text):
            decoded = unquote(match.group())
            if decoded != match.group() and self.spans(decoded, raw=raw):
                found.append(DetectedSpan(match.start(), match.end(), "encoded", 1))
        return found

    # ------------------------------------------------------------ exemptions

    def _not_kept(self, text: str, candidates: list[DetectedSpan]) -> list[DetectedSpan]:
        if not self.keep.terms:
            return candidates
        kept = self.keep.kept_spans(text)
        if not kept:
            return candidates
        out = []
        for span in candidates:
            overlapping = [term for s, e, term in kept if s < span.end and span.start < e]
            if overlapping:
                self.used.terms.update(overlapping)
            else:
                out.append(span)
        return out

    def _also_a_pseudonym_word(self, word: str) -> bool:
        # A lone first or last name that this vault also handed out as a pseudonym word (to
        # someone imported before a real "Rebecca" arrived) cannot be told apart: whole names
        # still decide. Known limit, in docs/guide/anonymise.md.
        return (
            self.vault is not None
            and " " not in word.strip()
            and self.vault.is_pseudonym_token(word.strip())
        )


def _inside_longer(start: int, end: int, pseudonym_spans: list[tuple[int, int]]) -> bool:
    # A pseudonym handed out before a later original shared one of its words ("Smith"), or
    # a made-up name that happens to share one: inside the whole value, it is that value.
    return any(s <= start and end <= e and e - s > end - start for s, e in pseudonym_spans)
