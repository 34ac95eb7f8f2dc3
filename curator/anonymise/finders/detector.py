"""Personal data in many texts at once: every finder (finders.registry) called directly,
batched, cached and, for a large batch, in forked processes.

Fast: rather than Presidio's AnalyzerEngine (which tokenises every text with spaCy and runs
every recognizer on it), curator calls the same recognizers directly, skips those that
cannot match a text (a finder's prefilter: no "@", too few digits, ...), runs each one once
over a batch of texts joined by a separator no pattern can span, and caches results for
repeated strings and windows (a phone-shaped run, a word with "@" or a dot), which a
rewritten text mostly keeps. Curator's own finders read one whole text at a time. A large
batch (a long chat log, a thick PDF) is split across forked processes, one per core
(curator.workers), or detected in them batch by batch while the caller rewrites earlier
ones (`Detector.ahead`).
"""

from __future__ import annotations

import bisect
import functools
import itertools
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from curator.anonymise.finders.ner import NER_SCORE, model_hits
from curator.anonymise.finders.numbers import EXTENSION, phone_recognizer
from curator.anonymise.finders.presidio import NER_ENV, load_spacy, offline_environment
from curator.anonymise.finders.registry import FINDERS
from curator.anonymise.finders.spec import FinderSpec
from curator.anonymise.kinds import entity_kind
from curator.workers import forked_map, forked_pool, forked_workers

if TYPE_CHECKING:
    from presidio_analyzer.predefined_recognizers import PhoneRecognizer

SEPARATOR = "\n\x00\n"  # joins a batch: no recognizer matches across a NUL line
CACHE_LIMIT = 200_000  # distinct strings remembered
# A batch of texts this long per core is split across forked processes: about half a second
# of detection each, against the milliseconds a fork costs.
CHARS_PER_WORKER = 60_000
MAX_WORKERS = 8


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


class Detector:
    """Find PII spans in many texts; stateless apart from its result cache."""

    def __init__(
        self,
        ner_model: str | None = None,
        entities: Sequence[str] | None = None,
        workers: int | None = None,
    ) -> None:
        finders = [f for f in FINDERS if not entities or f.entity in entities]
        # what its verdicts depend on beyond the code (see verdicts.detector_configuration)
        self.configuration = (ner_model, tuple(sorted(entities or ())))
        self.workers = workers  # processes for a large batch; None: one per core
        offline_environment()
        self._recognizers = [
            (finder, recognizer) for finder in finders for recognizer in finder.build()
        ]
        # which hits claim their digits for finders that skip claimed windows (see `_covered`)
        self._claims = {
            finder.entity: finder.claims for finder in finders if finder.claims is not None
        }

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

    def _analyze(self, recognizer, finder: FinderSpec, pieces: list[tuple[int, int, str]]):  # noqa: ANN001, ANN202
        """(piece, start, end, score) inside the piece for every hit, one call per batch. A
        window (see FinderSpec.window) reads the same in every text, so each is read once and
        remembered: a text's rewrite keeps most of its windows, and chat repeats links."""
        entity = finder.entity
        if finder.window is None:
            for piece, result in self._batch(recognizer, entity, pieces):
                yield piece, result.start, result.end, result.score
            return
        if len(self._windows) > CACHE_LIMIT:
            self._windows.clear()
        name = recognizer.name  # two recognizers of phone numbers read the same windows
        unread = list(
            dict.fromkeys(
                snippet for _, _, snippet in pieces if (name, snippet) not in self._windows
            )
        )
        regions = getattr(recognizer, "supported_regions", None)
        if regions:
            read = self._read_phones(regions, entity, unread)
        else:
            read = {window: [] for window in unread}
            for (_, _, window), result in self._batch(
                recognizer, entity, [(0, 0, w) for w in unread]
            ):
                read[window].append((result.start, result.end, result.score))
        self._windows.update(((name, window), found) for window, found in read.items())
        for piece in pieces:
            for start, end, score in self._windows[name, piece[2]]:
                yield piece, start, end, score

    def _read_phones(
        self, regions: Sequence[str], entity: str, windows: list[str]
    ) -> dict[str, list[tuple[int, int, float]]]:
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
            self._phones[region] = phone_recognizer((region,))
        return self._phones[region]

    @contextmanager
    def ahead(
        self, chars: int, follow: Follow | None = None
    ) -> Iterator[Callable[[list[str]], Callable[[], None]]]:
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
        for k, (hits, windows) in enumerate(
            forked_map(self._run_part, [texts[k::count] for k in range(count)])
        ):
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

    def _run_ahead(
        self, texts: list[str], follow: Follow | None
    ) -> tuple[list[str], list[list[Hit]], Windows]:
        """`_run_part` for `ahead`, and then for what `follow` makes of its texts: the texts
        detected, their hits, and the windows read meanwhile."""
        hits, windows = self._run_part(texts)
        if follow is None:
            return texts, hits, windows
        asked = set(texts)
        more = [
            t for t in _followed(texts, hits, follow) if t not in self._cache and t not in asked
        ]
        more_hits, more_windows = self._run_part(more)
        return texts + more, hits + more_hits, windows | more_windows

    def _run_here(self, texts: list[str]) -> list[list[Hit]]:
        results: list[list[Hit]] = [[] for _ in texts]
        for finder, recognizer in self._recognizers:
            entity = finder.entity
            pieces = [
                piece
                for i, text in enumerate(texts)
                if finder.prefilter(text)
                for piece in self._pieces(finder, i, text, results[i])
            ]
            if finder.whole_text is not None:
                for index, _, text in pieces:
                    results[index].extend(
                        Hit(start, end, entity, score)
                        for start, end, score in finder.whole_text(text)
                    )
                continue
            for (index, base, _), start, end, score in self._analyze(recognizer, finder, pieces):
                end += base
                if finder.extend is not None:
                    end = finder.extend(texts[index], end)
                hit = Hit(base + start, end, entity, score)
                if finder.plausible is None or finder.plausible(texts[index], hit.start, hit.end):
                    results[index].append(hit)
        if self._nlp is not None:
            for i, found in enumerate(model_hits(self._nlp, texts)):
                results[i] += [Hit(start, end, entity, NER_SCORE) for start, end, entity in found]
        return results

    def _pieces(
        self, finder: FinderSpec, index: int, text: str, found: list[Hit]
    ) -> list[tuple[int, int, str]]:
        """(text index, offset in it, snippet) of what the finder reads of a text: the whole
        text, or its windows that no earlier hit claimed and that pass the window test."""
        if finder.window is None:
            return [(index, 0, text)]
        return [
            (index, m.start(), m.group())
            for m in finder.window.finditer(text)
            if (
                not finder.skips_claimed
                or not _covered(found, m.start(), m.end(), text, self._claims)
            )
            and (finder.window_test is None or finder.window_test(m.group()))
        ]


def _followed(texts: list[str], hits: list[list[Hit]], follow: Follow) -> list[str]:
    return sorted(
        {
            more
            for text, found in zip(texts, hits, strict=True)
            for more in follow(text, found)
            if more.strip()
        }
    )


def _reads_whole(window: str, start: int, end: int) -> bool:
    """The number found at [start, end) holds every digit of its window."""
    return not any(c.isdigit() for c in window[:start] + EXTENSION.sub("", window[end:]))


def _one_international_number(window: str) -> bool:
    """ "+44 20 7946 0958": a country code and at most E.164's 15 digits, so one number."""
    return (
        window.lstrip("(").startswith("+")
        and window.count("+") == 1
        and sum(c.isdigit() for c in window) <= 15
    )


def _covered(
    found: list[Hit], start: int, end: int, text: str, claims: dict[str, Callable[[str], bool]]
) -> bool:
    """True when earlier recognizers already claimed the window's digits (a cheap pattern
    found the US number, or it is a Luhn-valid card): phonenumbers need not parse it in 8
    regions, since the longer or more specific hit wins the overlap anyway."""
    claimed = [
        h
        for h in found
        if h.start < end
        and start < h.end
        and h.entity in claims
        and claims[h.entity](text[h.start : h.end])
    ]
    if not claimed:
        return False
    inside = {i for h in claimed for i in range(max(start, h.start), min(end, h.end))}
    return (
        sum(map(str.isdigit, text[start:end]))
        - sum(map(str.isdigit, map(text.__getitem__, inside)))
        < 7
    )


def _join(texts: list[str]) -> tuple[str, list[int]]:
    starts = []
    position = 0
    for text in texts:
        starts.append(position)
        position += len(text) + len(SEPARATOR)
    return SEPARATOR.join(texts), starts


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
