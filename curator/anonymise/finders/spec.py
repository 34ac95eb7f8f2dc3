"""What the detector knows of a finder: one spec per Presidio entity, defined beside the
finder's own patterns (numbers.py, addresses.py, names.py, patterns.py).

Each rule is there to save time or to drop false hits, without changing what a finder finds
where it matters: a prefilter passes every text the finder could match something in, a
window holds every match, a window test passes every window a kept hit could be read in.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from presidio_analyzer import EntityRecognizer, LocalRecognizer

Found = list[tuple[int, int, float]]  # (start, end, score) of every value found in a text


@dataclass(frozen=True)
class FinderSpec:
    entity: str  # the Presidio entity its hits are reported as
    prefilter: Callable[[str], bool]  # a text is read only where this cheap test passes
    # Presidio's recognizers for it, built with a detector (presidio is imported then), in
    # the order they run...
    recognizers: Callable[[], list[EntityRecognizer]] | None = None
    # ...or curator's own finder, called directly on one whole text at a time: a name found
    # once in a message is that person wherever else it stands in the message, never in the next
    whole_text: Callable[[str], Found] | None = None
    # every match lies inside such a window: the recognizer reads only the windows, each
    # once (a window reads the same in every text)...
    window: re.Pattern[str] | None = None
    # ...and only those that hold something it could find that `plausible` keeps
    window_test: Callable[[str], bool] | None = None
    # windows whose digits an earlier finder's hits claimed are not read (the longer or more
    # specific hit wins the overlap anyway)
    skips_claimed: bool = False
    # whether a hit of this finder, its value given, claims its digits for those finders
    claims: Callable[[str], bool] | None = None
    # whether a recognizer's hit at [start, end) of the text is a value, not a fragment of
    # something else (Presidio's patterns know no word edges)
    plausible: Callable[[str, int, int], bool] | None = None
    # where a hit ending at `end` really ends in the text
    extend: Callable[[str, int], int] | None = None

    def build(self) -> list[EntityRecognizer]:
        """The Presidio recognizers of this finder (curator's own as one, see
        `local_recognizer`)."""
        if self.whole_text is not None:
            return [local_recognizer(self.entity, self.whole_text)]
        assert self.recognizers is not None, self.entity
        return self.recognizers()


def local_recognizer(entity: str, find: Callable[[str], Found]) -> LocalRecognizer:
    """One of curator's own finders as a Presidio recognizer, so that vanilla Presidio runs
    the very same rules (the detector calls `find` itself)."""
    from presidio_analyzer import LocalRecognizer, RecognizerResult

    class Finder(LocalRecognizer):
        def __init__(self) -> None:
            super().__init__(
                supported_entities=[entity],
                supported_language="en",
                name=f"Curator{entity.title()}Recognizer",
            )

        def load(self) -> None:
            pass

        def analyze(
            self, text: str, entities: list[str], nlp_artifacts: object = None
        ) -> list[RecognizerResult]:
            return [RecognizerResult(entity, start, end, score) for start, end, score in find(text)]

    return Finder()


def always(_value: str) -> bool:
    return True


# A chain: digits each at most three other characters from the next ("4111 1111 1111 1111",
# "+44 (0)20 7946 0958"). Every number-shaped finder needs a chain of some length; one
# pass measures a text's longest for all of them (remembered for more texts than a batch holds).
_DIGIT_CHAIN = re.compile(r"\d(?:\D{0,3}\d)*")
_DIGIT = re.compile(r"\d")
# lower-case and UPPER-CASE names too
NAME_HINT = re.compile(r"[^\W\d_]{2}")


@lru_cache(maxsize=65536)
def longest_digit_chain(text: str) -> int:
    return max((len(_DIGIT.findall(chain)) for chain in _DIGIT_CHAIN.findall(text)), default=0)


def digits(n: int) -> Callable[[str], bool]:
    """A prefilter: a chain of at least `n` digits."""
    return lambda text: longest_digit_chain(text) >= n


def at_word_edges(text: str, start: int, end: int) -> bool:
    """No letter or digit right before or after: a number, not part of a longer word."""
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    return not (before.isalnum() or after.isalnum())
