"""What a judge is asked (a RubricCase) and what it answers (a Verdict, a Faithfulness).

A verdict's evidence must be a quote that occurs in the fixture or in the output; one
that does not is marked unverified and does not pass, whatever the judge said. Judges
make verdicts through `settle`, so no judge can skip that check.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from typing import Protocol

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

    def judge(self, case: RubricCase) -> Verdict: ...

    def faithfulness(self, case: RubricCase) -> Faithfulness | None:
        """Split `case.output` into statements checked against `case.context`; None if this
        judge cannot (the rules judge)."""
        ...


def settle(case: RubricCase, verdict: Verdict) -> Verdict:
    """The verdict with its evidence checked: a quote found in neither the fixture nor the
    output makes it unverified, and an unverified verdict does not pass."""
    if verdict.error is not None:
        return verdict
    if quoted_in(verdict.evidence, case.context, case.output):
        return replace(verdict, verified=True)
    return replace(
        verdict,
        verified=False,
        passed=False,
        failure_class=verdict.failure_class if not verdict.passed else UNVERIFIED,
    )


def settle_statements(case: RubricCase, statements: list[Statement]) -> tuple[Statement, ...]:
    """A statement counts as supported only when its evidence quote occurs in the fixture."""
    return tuple(
        s if not s.supported or quoted_in(s.evidence, case.context) else replace(s, supported=False)
        for s in statements
    )


def quoted_in(quote: str, *texts: str) -> bool:
    """The quote occurs in one of the texts, ignoring case, spacing and surrounding quote
    marks; an elided quote ("a ... b") needs each part, in order, in one text."""
    parts = [_fold(part) for part in _ELLIPSIS.split(quote)]
    parts = [part for part in parts if part]
    if not parts:
        return False
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


def _fold(text: str) -> str:
    text = _SPACE.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()
    return text.strip(_QUOTES + " ").strip()


def known_failure_class(name: object) -> str | None:
    if name is None or name == "":
        return None
    text = str(name).strip().lower().replace(" ", "_").replace("-", "_")
    return text if text in FAILURE_CLASSES else "other"
