"""What a judge is asked (a RubricCase) and what it answers (a Verdict, a Faithfulness).

A verdict's evidence must be a real quote: a passage of at least a few words
(`EvidenceRule`, from `[judge]` in curator.toml) that occurs in the fixture or in the
output; one that does not is marked unverified and does not pass, whatever the judge said.
Judges make verdicts through `settle`, so no judge can skip that check, and `quoted_in` is
the one definition of a quote every check uses.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from curator.model import JudgeSettings

# Why a rubric failed: the judge's word, one of these (anything else is "other").
FAILURE_CLASSES = (
    "omission",
    "hallucination",
    "contradiction",
    "field_targeting",
    "truncation_artifact",
    "other",
)
UNVERIFIED = "unverified"  # the evidence quote is in neither the fixture nor the output
JUDGE_ERROR = "judge_error"  # no usable verdict: a timeout, a server error, malformed JSON

_SPACE = re.compile(r"\s+")
_ELLIPSIS = re.compile(r"\.\.\.|…")
_QUOTES = "\"'“”‘’«»`"
_WORD = re.compile(r"\w")


@dataclass(frozen=True)
class EvidenceRule:
    """How long each part of a quote must be: at least `min_words` words or `min_chars`
    characters (spacing collapsed). A letter or two ("e", "a ... e") is found in any text,
    so it proves nothing about where a verdict came from."""

    min_words: int = 3
    min_chars: int = 12

    @classmethod
    def of(cls, settings: JudgeSettings) -> EvidenceRule:
        return cls(settings.evidence_min_words, settings.evidence_min_chars)

    def admits(self, quote: str) -> bool:
        """Every part of the quote is long enough (where it is found is `quoted_in`'s)."""
        parts = _parts(quote)
        return bool(parts) and all(self._long_enough(part) for part in parts)

    def _long_enough(self, folded: str) -> bool:
        if not _WORD.search(folded):  # punctuation alone quotes nothing
            return False
        return len(folded.split()) >= self.min_words or len(folded) >= self.min_chars

    def key(self) -> str:
        """What names the rule in a verdict cache key: verdicts settled under another rule
        are asked again."""
        return f"quote>={self.min_words}w|{self.min_chars}c"


DEFAULT_EVIDENCE = EvidenceRule()


@dataclass(frozen=True)
class RubricCase:
    """One question for a judge: does `output` meet `rubric`, given the fixture's `context`?"""

    fixture_id: str
    fixture_sha256: str  # the fixture's bundle line: a relabel changes it
    rubric: str
    output: str
    context: str  # the fixture's text: the thread's messages or the document's pages


@dataclass(frozen=True)
class Verdict:
    reasoning: str
    score: float
    passed: bool
    evidence: str = ""
    verified: bool = False
    failure_class: str | None = None
    error: str | None = None
    latency_ms: float | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cached: bool = False

    def passes(self, threshold: float) -> bool:
        """Mattermost's LLMRubricT rule: the verdict passes and scores at least the threshold."""
        return self.error is None and self.passed and self.score >= threshold

    @classmethod
    def failed(cls, error: str, latency_ms: float | None = None) -> Verdict:
        """No verdict could be had: recorded as an error, never as a pass."""
        return cls(
            reasoning="",
            score=0.0,
            passed=False,
            failure_class=JUDGE_ERROR,
            error=error,
            latency_ms=latency_ms,
        )


@dataclass(frozen=True)
class Statement:
    text: str
    supported: bool  # the judge's word, and its evidence quote occurs in the fixture
    evidence: str = ""


@dataclass(frozen=True)
class Faithfulness:
    """Ragas' faithfulness: the output's statements that the fixture supports, over all of them."""

    statements: tuple[Statement, ...] = ()
    error: str | None = None
    latency_ms: float | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cached: bool = False

    @property
    def score(self) -> float | None:
        if self.error is not None or not self.statements:
            return None
        return sum(s.supported for s in self.statements) / len(self.statements)


class Judge(Protocol):
    """A judge: a name and prompt version that identify its verdicts (the cache keys on them)."""

    name: str
    prompt_version: str
    measures_faithfulness: bool  # can split an output into statements and check each
    evidence: EvidenceRule  # what counts as a quote of the fixture or the output

    def judge(self, case: RubricCase) -> Verdict: ...

    def faithfulness(self, case: RubricCase) -> Faithfulness | None:
        """Split `case.output` into statements checked against `case.context`; None if this
        judge cannot (the rules judge)."""
        ...


def settle(case: RubricCase, verdict: Verdict, rule: EvidenceRule = DEFAULT_EVIDENCE) -> Verdict:
    """The verdict with its evidence checked: a quote too short or found in neither the
    fixture nor the output makes it unverified, and an unverified verdict does not pass."""
    if verdict.error is not None:
        return verdict
    if quoted_in(verdict.evidence, case.context, case.output, rule=rule):
        return replace(verdict, verified=True)
    return replace(
        verdict,
        verified=False,
        passed=False,
        failure_class=verdict.failure_class if not verdict.passed else UNVERIFIED,
    )


def settle_statements(
    case: RubricCase, statements: list[Statement], rule: EvidenceRule = DEFAULT_EVIDENCE
) -> tuple[Statement, ...]:
    """A statement counts as supported only when its evidence quote occurs in the fixture."""
    return tuple(
        s
        if not s.supported or quoted_in(s.evidence, case.context, rule=rule)
        else replace(s, supported=False)
        for s in statements
    )


def quoted_in(quote: str, *texts: str, rule: EvidenceRule = DEFAULT_EVIDENCE) -> bool:
    """The quote occurs in one of the texts, ignoring case, spacing and surrounding quote
    marks, and is long enough by `rule`; an elided quote ("a ... b", "a … b") needs each
    part long enough and found, in order, in one text. An ellipsis at either end marks a
    cut, not a part."""
    if not rule.admits(quote):
        return False
    parts = _parts(quote)
    for text in texts:
        folded, start = _fold(text), 0
        for part in parts:
            found = folded.find(part, start)
            if found < 0:
                break
            start = found + len(part)
        else:
            return True
    return False


def _parts(quote: str) -> list[str]:
    folded = [_fold(part) for part in _ELLIPSIS.split(quote)]
    return [part for part in folded if part]


def _fold(text: str) -> str:
    text = _SPACE.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()
    return text.strip(_QUOTES + " ").strip()


def known_failure_class(name: object) -> str | None:
    if name is None or name == "":
        return None
    text = str(name).strip().lower().replace(" ", "_").replace("-", "_")
    return text if text in FAILURE_CLASSES else "other"
