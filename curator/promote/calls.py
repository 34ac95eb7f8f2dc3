"""LLM calls a tracing tool recorded, which of them failed, and `--where` selections.

Every trace reader (otlp, langfuse, langsmith, openai_log) turns its format into `Call`s:
the messages the model was given (OpenAI's chat format), its answer, the error status,
scores and feedback. A call failed when its status is an error, or when a score or a piece
of feedback is low: a number below 0.5 (a 0/1 thumbs, a 0..1 grade) or a label that says so
("bad", "thumbs_down", "incorrect"...). `--where` selects calls instead: `score<0.3`,
`score.helpfulness<=2`, `trace_id=abc`, `span_id=...`, `status=error`, `model=gpt-4o`.
A selected call becomes a failure record whose input is the conversation, whose output is
the answer (the known-bad one), and whose note is the feedback or score comment (else the
error message).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from curator.errors import CuratorError

LOW = 0.5  # a score below it is a failure (0/1 feedback, a 0..1 grade)
NEGATIVE_LABELS = frozenset(
    {"bad", "thumbs_down", "thumbs-down", "negative", "incorrect", "wrong", "fail", "failed", "no"}
)
OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "<=": operator.le,
    ">=": operator.ge,
    "!=": operator.ne,
    "<": operator.lt,
    ">": operator.gt,
    "=": operator.eq,
}
CLAUSE = re.compile(r"^\s*([A-Za-z_][\w.-]*)\s*(<=|>=|!=|<|>|=)\s*(.*?)\s*$")
TEXT_KEYS = ("trace_id", "span_id", "status", "model")


@dataclass(frozen=True)
class Score:
    """A score or a piece of feedback on a call: a number, a label, or both."""

    name: str
    value: float | None = None
    label: str | None = None
    comment: str = ""

    @property
    def low(self) -> bool:
        if self.value is not None:
            return self.value < LOW
        return (self.label or "").strip().casefold() in NEGATIVE_LABELS


@dataclass(frozen=True)
class Call:
    """One LLM call: what it was given and answered, and what was said of it."""

    where: str  # file:line, for error lines
    line: int
    trace_id: str
    span_id: str | None
    observed_at: str  # ISO 8601
    messages: list[dict[str, Any]]  # the input, OpenAI's chat format
    answer: str | None
    model: str | None = None
    error: str | None = None  # the error status's message ("" when it had none)
    scores: tuple[Score, ...] = ()
    raw: bytes = b""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        return self.error is not None or any(score.low for score in self.scores)

    @property
    def note(self) -> str:
        """Why it is a failure, in the words of whoever said so."""
        for score in self.scores:
            if score.low and score.comment:
                return score.comment
        comments = [score.comment for score in self.scores if score.comment]
        return comments[0] if comments else (self.error or "")


@dataclass(frozen=True)
class Clause:
    key: str
    op: str
    value: str

    def holds(self, call: Call) -> bool:
        compare = OPERATORS[self.op]
        if self.key in TEXT_KEYS:
            if self.op not in ("=", "!="):
                raise CuratorError(f"--where {self.key}: compare it with = or !=")
            status = "error" if call.error is not None else "ok"
            have = {
                "trace_id": call.trace_id,
                "span_id": call.span_id,
                "status": status,
                "model": call.model,
            }
            return compare(have[self.key] or "", self.value)
        name = self.key.removeprefix("score").removeprefix(".")
        scores = [s for s in call.scores if not name or s.name == name]
        if self.op in ("=", "!=") and not _number(self.value):
            return any(compare(s.label or "", self.value) for s in scores)
        bound = float(self.value)
        return any(s.value is not None and compare(s.value, bound) for s in scores)


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def parse_where(clauses: Sequence[str]) -> list[Clause]:
    """`--where` clauses; a bad one is a usage error naming what is accepted."""
    parsed = []
    for text in clauses:
        match = CLAUSE.match(text)
        key = match.group(1) if match else ""
        if match is None or not (key in TEXT_KEYS or key == "score" or key.startswith("score.")):
            raise CuratorError(
                f"--where {text!r}: expected KEY OP VALUE, KEY one of trace_id, span_id, status, "
                "model, score, score.NAME and OP one of = != < <= > >= (e.g. score<0.5)"
            )
        if (
            key.startswith("score")
            and match.group(2) not in ("=", "!=")
            and not _number(match.group(3))
        ):
            raise CuratorError(f"--where {text!r}: a score is compared with a number")
        parsed.append(Clause(key, match.group(2), match.group(3)))
    return parsed


def selected(calls: Sequence[Call], where: Sequence[Clause]) -> list[Call]:
    """The calls `where` selects (every clause holds), or without clauses the failed ones."""
    if where:
        return [call for call in calls if all(clause.holds(call) for clause in where)]
    return [call for call in calls if call.failed]


def record_data(call: Call, failure_mode: str | None) -> dict[str, Any]:
    """The failure record a selected call becomes (curator.model.FailureRecord's shape)."""
    if not call.messages:
        raise CuratorError(
            f"{call.where}: trace {call.trace_id}"
            + (f" span {call.span_id}" if call.span_id else "")
            + ": an LLM call without messages (nothing to make a conversation of)"
        )
    conversation: dict[str, Any] = {"messages": call.messages}
    if call.model:
        conversation["model"] = call.model
    return {
        "trace_id": call.trace_id,
        "span_id": call.span_id,
        "observed_at": call.observed_at,
        "failure_mode": failure_mode or "other",
        "note": call.note,
        "input": {"conversation": conversation},
        "output": {"text": call.answer or ""},
    }


def iso_time(value: Any, where: str) -> str:
    """An ISO 8601 UTC time from an epoch number (seconds to nanoseconds; a number or a digit
    string) or an ISO 8601 string."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        # OTLP's *UnixNano, else micro-, milli- or plain epoch seconds, told by magnitude
        scales = ((1e17, 1e9), (1e14, 1e6), (1e11, 1e3))
        scale = next((scale for bound, scale in scales if value > bound), 1.0)
        try:
            moment = datetime.fromtimestamp(value / scale, tz=UTC)
        except (OverflowError, OSError, ValueError):
            raise CuratorError(f"{where}: the call's time is out of range") from None
        return moment.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    if isinstance(value, str):
        try:
            datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            pass
        else:
            return value
    raise CuratorError(f"{where}: the call has no time (an ISO 8601 time or epoch number)")
