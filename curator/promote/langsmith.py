"""LangSmith runs as `Call`s: each run of `run_type` "llm" is one call.

A run as LangSmith's run data format has it (`id`, `trace_id`, `run_type`, `start_time`,
`inputs`, `outputs`, `error`, `status`, `extra`): a file holds one, a list, `{"runs": [...],
"feedback": [...]}`, or one per line. `inputs.messages` is a list of messages (or a batch: a
list of lists, the first taken), LangChain's or OpenAI's; `inputs.prompts` a list of prompt
strings. The answer is `outputs.generations[0][0]` (its `message`, else its `text`), or an
OpenAI completion's `choices[0].message`. Feedback (`key`, `score`, `value`, `comment`) is
the run's own `feedback` list, or the file's, matched by `run_id`; a `score` is a number
(true/false count as 1/0), a string `value` a label.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from curator.errors import CuratorError
from curator.promote.calls import Call, Score, iso_time
from curator.promote.messages import answer_text, from_langchain


def is_langsmith(data: Any) -> bool:
    return isinstance(data, dict) and "run_type" in data and "inputs" in data


def runs_in(data: Any) -> tuple[list[Any], list[Any]] | None:
    """(runs, feedback) of a LangSmith export document, or None when it is none."""
    feedback: list[Any] = []
    if isinstance(data, dict) and isinstance(data.get("runs"), list):
        feedback = data.get("feedback") or []
        data = data["runs"]
    if isinstance(data, list) and data and all(is_langsmith(item) for item in data):
        return data, feedback
    return ([data], feedback) if is_langsmith(data) else None


def calls(
    run: dict[str, Any], feedback: list[Any], where: str, line: int, raw: bytes
) -> Iterator[Call]:
    if run.get("run_type") != "llm":
        return
    run_id = run.get("id")
    if not isinstance(run_id, str) or not run_id:
        raise CuratorError(f"{where}: a LangSmith run without an id")
    place = f"{where}: run {run_id}"
    said = [f for f in [*(run.get("feedback") or []), *feedback] if isinstance(f, dict)]
    error = run.get("error")
    failed = error is not None or run.get("status") == "error"
    yield Call(
        where=where,
        line=line,
        trace_id=str(run.get("trace_id") or run_id),
        span_id=run_id,
        observed_at=iso_time(run.get("start_time"), place),
        messages=_messages(run.get("inputs") or {}, place),
        answer=_answer(run.get("outputs"), place),
        model=_model(run.get("extra") or {}),
        error=(str(error) if error else "") if failed else None,
        scores=tuple(_score(f) for f in said if f.get("run_id") in (None, run_id) and "key" in f),
        raw=raw,
    )


def _messages(inputs: dict[str, Any], where: str) -> list[dict[str, Any]]:
    given = inputs.get("messages")
    if isinstance(given, list) and given and isinstance(given[0], list):
        given = given[0]  # a batch of prompts: the first is this call's
    if isinstance(given, list):
        return [from_langchain(message, where) for message in given]
    prompts = inputs.get("prompts") or ([inputs["prompt"]] if inputs.get("prompt") else [])
    return [{"role": "user", "content": str(prompt)} for prompt in prompts[:1]]


def _answer(outputs: Any, where: str) -> str | None:
    if not isinstance(outputs, dict):
        return None
    generations = outputs.get("generations")
    if isinstance(generations, list) and generations:
        first = generations[0][0] if isinstance(generations[0], list) else generations[0]
        if isinstance(first, dict):
            message = first.get("message")
            said = None if message is None else answer_text(from_langchain(message, where))
            return said or first.get("text")
    choices = outputs.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], dict):
        return answer_text(choices[0].get("message"))
    return answer_text(outputs.get("output") or outputs.get("content"))


def _model(extra: dict[str, Any]) -> str | None:
    params = extra.get("invocation_params") or {}
    metadata = extra.get("metadata") or {}
    model = params.get("model") or params.get("model_name") or metadata.get("ls_model_name")
    return model if isinstance(model, str) else None


def _score(feedback: dict[str, Any]) -> Score:
    score = feedback.get("score")
    value = feedback.get("value")
    number = float(score) if isinstance(score, int | float) else None
    return Score(
        name=str(feedback.get("key", "feedback")),
        value=number,
        label=value if isinstance(value, str) else None,
        comment=str(feedback.get("comment") or ""),
    )
