"""Systems under evaluation for the tests: `--system tests.eval.systems:NAME`."""

from __future__ import annotations

import os
import time
from pathlib import Path

from curator.eval import Answer, EvalItem


def perfect(item: EvalItem) -> Answer:
    """The truth: every labelled value, and a thread answer that meets every rubric."""
    if item.kind == "document":
        assert item.labels is not None
        return Answer(
            fields={
                name: {"value": label.value, "confidence": 0.95}
                for name, label in item.labels.fields.items()
            }
        )
    reference = item.labels.reference if item.labels else None
    return Answer(
        text=reference or " ".join(item.rubrics),
        metrics={"context_recall": 0.9, "answer_relevancy": 0.8},
    )


def wrong(item: EvalItem) -> Answer:
    if item.kind == "document":
        return Answer(
            fields={name: {"value": "Nobody Atall", "confidence": 0.99} for name in item.fields}
        )
    return Answer(text="Nothing of note happened.")


def flipping(item: EvalItem) -> Answer:
    """Right in even runs, wrong in odd ones: every fixture is flaky."""
    return perfect(item) if item.run_number % 2 == 0 else wrong(item)


def run_stamped(item: EvalItem) -> Answer:
    """The perfect answer with the run number in it, so each run asks the judge afresh."""
    answer = perfect(item)
    if answer.text is None:
        return answer
    return Answer(text=f"{answer.text} (run {item.run_number})", metrics=answer.metrics)


def unfaithful(item: EvalItem) -> Answer:
    """The perfect answer plus a claim no thread supports."""
    answer = perfect(item)
    if answer.text is None:
        return answer
    return Answer(
        text=f"{answer.text} The landlord also asked for $9,999.00. The boiler was replaced.",
        metrics=answer.metrics,
    )


def troubled(item: EvalItem) -> Answer:
    """Raises on invoices, stalls on one lease, returns nonsense on another; else perfect."""
    if item.doc_type == "invoice":
        raise RuntimeError("extractor crashed")
    if item.id.startswith("residential-lease-agreement-0"):
        time.sleep(3)
    if item.id.startswith("residential-lease-agreement-3"):
        return 42  # type: ignore[return-value]
    return perfect(item)


# What a system asked each task of the renewal thread answers (tests/eval/test_tasks.py):
# a system picks its prompt from `item.task`, as Mattermost's suites run one prompt per test.
TASK_ANSWERS = {
    "summary": "The monthly rent is $950.00 and the deposit was $1,900.00.",
    "action_items": "Action items: check the lease; the renewal reminder is scheduled.",
    "open_questions": "Open question: the start date of the lease.",
}


def by_task(item: EvalItem) -> Answer:
    """Answers each named task with its own prompt's answer."""
    assert item.task in TASK_ANSWERS, item.task
    return Answer(text=TASK_ANSWERS[item.task])


def summary_everywhere(item: EvalItem) -> Answer:
    """Ignores the task: the summary for every prompt (its action items fail)."""
    return Answer(text=TASK_ANSWERS["summary"])


SYSTEM_EXIT_ON = "invoice-5ceef8fb"
KEYBOARD_INTERRUPT_ON = "residential-lease-agreement-0f35b496"


def exits(item: EvalItem) -> Answer:
    """SystemExit on one fixture, KeyboardInterrupt on another (raised by the system's own
    code, not a Ctrl-C); perfect on the rest."""
    if item.id == SYSTEM_EXIT_ON:
        raise SystemExit(3)
    if item.id == KEYBOARD_INTERRUPT_ON:
        raise KeyboardInterrupt
    return perfect(item)


_calls = 0


def stalls_on_third_call(item: EvalItem) -> Answer:
    """Perfect twice, then writes $CURATOR_TEST_MARKER and hangs: the moment a test sends
    the run a real Ctrl-C."""
    global _calls
    _calls += 1
    if _calls == 3:
        Path(os.environ["CURATOR_TEST_MARKER"]).write_text("stalled")
        time.sleep(120)
    return perfect(item)


def rambling(item: EvalItem) -> Answer:
    """Perfect on documents; on threads, a 50 MiB answer."""
    if item.kind == "thread":
        return Answer(text="a" * (50 * 1024 * 1024))
    return perfect(item)
