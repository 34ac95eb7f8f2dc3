"""The system under evaluation: `module:function`, called once per item and repetition.

A call that raises (anything: SystemExit and KeyboardInterrupt included), returns
something that is no answer or an answer over the size cap, or outlasts its timeout is an
error for that item and run; the run goes on. (A timed-out call cannot be stopped from
outside; its thread is left to finish in the background and its result is dropped.)
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from curator.errors import CuratorError
from curator.eval.answer import Answer, BadAnswer, as_answer
from curator.eval.items import EvalItem

System = Callable[[EvalItem], object]
STOP_POLL = 0.05  # seconds between looks at the stop flag while a system call runs


@dataclass(frozen=True)
class SystemResult:
    answer: Answer | None
    error: str | None
    latency_ms: float


def load_system(spec: str) -> System:
    """`package.module:function`, imported with the current folder on the path (as the
    `python -m` command line would find it)."""
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        raise CuratorError(f"--system {spec!r}: expected module:function")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # the user's module: any import failure is bad input
        raise CuratorError(
            f"--system {spec!r}: cannot import {module_name}: {type(error).__name__}: {error}"
        ) from None
    system = getattr(module, attribute, None)
    if not callable(system):
        raise CuratorError(f"--system {spec!r}: {module_name} has no function {attribute}")
    return system


def call_system(
    system: System,
    item: EvalItem,
    timeout: float | None,
    stop: threading.Event | None = None,
    max_answer_bytes: int | None = None,
) -> SystemResult:
    """The system's answer to `item`, or why there is none; `stop` (the user's Ctrl-C)
    ends the wait early, as an error that the run drops. An answer over `max_answer_bytes`
    is an error, and none of it is kept."""
    outcome: dict[str, object] = {}
    finished = threading.Event()

    def call() -> None:
        try:
            answer = as_answer(system(item))
            if too_large := answer.too_large(max_answer_bytes):
                raise BadAnswer(too_large)  # and the answer goes with this thread
            answer.field_predictions()
            answer.checked_metrics()
            outcome["answer"] = answer
        except BadAnswer as error:
            outcome["error"] = str(error)
        # The user's system failing is a result, not a crash (its answer's checks run here
        # too: a value whose str() raises is its error). BaseException: SystemExit and
        # KeyboardInterrupt raised here are the system's own (a real Ctrl-C reaches the
        # main thread only, see curator.eval.interrupt).
        except BaseException as error:
            outcome["error"] = f"system raised {type(error).__name__}{_said(error)}"
        finally:
            finished.set()

    start = time.perf_counter()
    worker = threading.Thread(target=call, name=f"system-{item.id}-{item.run_number}", daemon=True)
    worker.start()
    _wait(finished, timeout, stop)
    latency = round((time.perf_counter() - start) * 1000, 1)
    if not finished.is_set():
        if stop is not None and stop.is_set():
            return SystemResult(None, "interrupted", latency)
        return SystemResult(None, f"system timed out after {timeout:g}s", latency)
    if "error" in outcome:
        return SystemResult(None, str(outcome["error"]), latency)
    answer = outcome["answer"]
    assert isinstance(answer, Answer)
    return SystemResult(answer, None, latency)


def _wait(finished: threading.Event, timeout: float | None, stop: threading.Event | None) -> None:
    """Until the call finished, `timeout` passed or `stop` was set."""
    if stop is None:
        finished.wait(timeout)
        return
    deadline = None if timeout is None else time.monotonic() + timeout
    while not stop.is_set():
        left = STOP_POLL if deadline is None else min(STOP_POLL, deadline - time.monotonic())
        if left <= 0 or finished.wait(left):
            return


def _said(error: BaseException) -> str:
    try:
        text = str(error)
    except Exception:  # an exception whose message itself raises is still the system's error
        return ": (its message cannot be shown)"
    return f": {text}" if text else ""
