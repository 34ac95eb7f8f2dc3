"""The rubric judge on any OpenAI-compatible chat-completions server (OpenAI, vLLM,
llama.cpp's server, Ollama), configured as the openai client is: OPENAI_BASE_URL and
OPENAI_API_KEY, with the model from --judge-model or `[judge] model` in curator.toml.

Each call has a total deadline (`timeout`: connect, send, wait and read together) and a
reply size cap (`max_reply_bytes`; a larger reply is a judge error and none of it is kept),
see curator.judge.bounded; 429, 5xx and network failures are retried with exponential
backoff (a Retry-After header is honoured) within the verdict's budget (`verdict_budget`);
at most `concurrency` calls are in flight. A reply that is not JSON is repaired once with
json-repair, else the verdict is a judge error, never a pass. The API key goes into the
Authorization header and nowhere else: error texts are scrubbed of it, and it is never
logged, printed or written.
"""

from __future__ import annotations

import json
import os
import threading
import time
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from curator.errors import CuratorError, first_problem
from curator.judge import bounded, prompts
from curator.judge.verdict import (
    EvidenceRule,
    Faithfulness,
    RubricCase,
    Statement,
    Verdict,
    known_failure_class,
    settle,
    settle_statements,
)
from curator.model import JudgeSettings

BASE_URL_ENV = "OPENAI_BASE_URL"
API_KEY_ENV = "OPENAI_API_KEY"
DEFAULT_BASE_URL = "https://api.openai.com/v1"
RETRY_STATUSES = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
MAX_RETRY_AFTER = 60.0
Usage = tuple[int | None, int | None]  # prompt tokens, completion tokens


class JudgeFailure(Exception):
    """No usable reply: recorded on the verdict as its error."""


class _RubricReply(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    reasoning: str = ""
    score: float = Field(ge=0, le=1)
    passed: bool = Field(alias="pass")
    evidence: str = ""
    failure_class: str | None = None


class _StatementReply(BaseModel):
    statement: str
    supported: bool
    evidence: str = ""


class _StatementsReply(BaseModel):
    statements: list[_StatementReply]


class OpenAIJudge:
    """Verdicts from a chat-completions model. Thread-safe: one instance serves a whole run."""

    measures_faithfulness = True

    def __init__(self, model: str, settings: JudgeSettings | None = None) -> None:
        self.settings = settings or JudgeSettings()
        self.model = model
        self.name = f"openai:{model}"
        self.prompt_version = prompts.PROMPT_VERSION
        self.evidence = EvidenceRule.of(self.settings)
        self.base_url = self.settings.base_url or os.environ.get(BASE_URL_ENV) or DEFAULT_BASE_URL
        self._key = os.environ.get(API_KEY_ENV, "")
        self._slots = threading.BoundedSemaphore(self.settings.concurrency)
        self._lock = threading.Lock()
        self._http: Any = None

    def judge(self, case: RubricCase) -> Verdict:
        user = prompts.RUBRIC_USER.format(
            context=case.context, output=case.output, rubric=case.rubric
        )
        start = time.perf_counter()
        try:
            data, usage = self._complete(prompts.RUBRIC_SYSTEM, user)
            reply = _parse(data, _RubricReply)
        except JudgeFailure as failure:
            return Verdict.failed(str(failure), _elapsed(start))
        verdict = Verdict(
            reasoning=reply.reasoning,
            score=reply.score,
            passed=reply.passed,
            evidence=reply.evidence,
            failure_class=None
            if reply.passed
            else known_failure_class(reply.failure_class) or "other",
            latency_ms=_elapsed(start),
            prompt_tokens=usage[0],
            completion_tokens=usage[1],
        )
        return settle(case, verdict, self.evidence)

    def faithfulness(self, case: RubricCase) -> Faithfulness | None:
        user = prompts.STATEMENTS_USER.format(context=case.context, output=case.output)
        start = time.perf_counter()
        try:
            data, usage = self._complete(prompts.STATEMENTS_SYSTEM, user)
            reply = _parse(data, _StatementsReply)
            if not reply.statements:
                raise JudgeFailure("the judge found no statements in a non-empty output")
        except JudgeFailure as failure:
            return Faithfulness(error=str(failure), latency_ms=_elapsed(start))
        statements = [Statement(s.statement, s.supported, s.evidence) for s in reply.statements]
        return Faithfulness(
            settle_statements(case, statements, self.evidence),
            latency_ms=_elapsed(start),
            prompt_tokens=usage[0],
            completion_tokens=usage[1],
        )

    def close(self) -> None:
        if self._http is not None:
            self._http.close()

    def _client(self) -> Any:
        import httpx

        with self._lock:
            if self._http is None:
                headers = {"Authorization": f"Bearer {self._key}"} if self._key else {}
                slots = self.settings.concurrency
                self._http = httpx.Client(
                    base_url=self.base_url,
                    headers=headers,
                    timeout=self.settings.timeout,
                    limits=httpx.Limits(max_connections=slots, max_keepalive_connections=slots),
                )
            return self._http

    def _complete(self, system: str, user: str) -> tuple[str, Usage]:
        """The reply text and token usage; JudgeFailure once the retries or the verdict's
        budget are spent, or at once for a reply over the size cap."""
        import httpx

        body: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
            "temperature": 0,
        }
        if self.settings.json_mode:
            body["response_format"] = {"type": "json_object"}
        client = self._client()
        budget_ends = time.monotonic() + self.settings.verdict_budget
        retried, problem = 0, ""
        for attempt in range(self.settings.max_retries + 1):
            wait = self.settings.backoff * 2**attempt
            deadline = max(0.0, min(self.settings.timeout, budget_ends - time.monotonic()))
            try:
                with self._slots:
                    reply = bounded.post_json(
                        client,
                        "chat/completions",
                        body,
                        deadline=deadline,
                        max_bytes=self.settings.max_reply_bytes,
                    )
            except bounded.TooLarge as error:
                raise JudgeFailure(str(error)) from None
            except (bounded.DeadlineExceeded, httpx.TimeoutException):
                problem = f"the judge server did not answer within {round(deadline, 2):g}s"
            except httpx.HTTPError as error:
                problem = f"could not reach the judge server ({type(error).__name__})"
            else:
                if reply.status == 200:
                    return _message(reply)
                problem = f"the judge server answered {reply.status}"
                if reply.status not in RETRY_STATUSES:
                    raise JudgeFailure(self._scrub(f"{problem}: {reply.text()[:200]}"))
                wait = _retry_after(reply, wait)
            if attempt == self.settings.max_retries:
                break
            if time.monotonic() + wait >= budget_ends:
                budget = self.settings.verdict_budget
                raise JudgeFailure(
                    f"{problem} (after {_retries(retried)}; budget {budget:g}s spent)"
                )
            time.sleep(wait)
            retried += 1
        raise JudgeFailure(f"{problem} (after {_retries(retried)})")

    def _scrub(self, text: str) -> str:
        return text.replace(self._key, "[key]") if self._key else text


def _message(reply: bounded.Reply) -> tuple[str, Usage]:
    try:
        data = json.loads(reply.body)
        content = data["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise JudgeFailure("the judge server's reply is not a chat completion") from None
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    prompt, completion = (usage.get(name) for name in ("prompt_tokens", "completion_tokens"))
    tokens = (
        prompt if isinstance(prompt, int) else None,
        completion if isinstance(completion, int) else None,
    )
    return content if isinstance(content, str) else "", tokens


def _parse(text: str, reply: type[BaseModel]) -> Any:
    """The reply as `reply`: JSON, else JSON repaired once; else a JudgeFailure."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        import json_repair

        data = json_repair.loads(text)
    if not isinstance(data, dict):
        raise JudgeFailure(f"the judge's reply is not a JSON object, even repaired: {text[:120]!r}")
    try:
        return reply.model_validate(data)
    except ValidationError as error:
        raise JudgeFailure(f"the judge's reply is not a verdict: {first_problem(error)}") from None


def _retry_after(reply: bounded.Reply, default: float) -> float:
    try:
        return min(max(float(reply.headers.get("retry-after", "")), 0.0), MAX_RETRY_AFTER)
    except ValueError:
        return default


def _retries(count: int) -> str:
    return f"{count} retr{'y' if count == 1 else 'ies'}"


def _elapsed(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 1)


def model_name(explicit: str | None, settings: JudgeSettings) -> str:
    model = explicit or settings.model
    if not model:
        raise CuratorError(
            "the openai judge needs a model: --judge-model M, or model in [judge] of curator.toml"
        )
    return model
