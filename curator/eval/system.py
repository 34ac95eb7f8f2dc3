"""The system under evaluation: `module:function`, called once per item and repetition.

A call that raises, returns something that is no answer, or outlasts its timeout is an
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


def call_system(system: System, item: EvalItem, timeout: float | None) -> SystemResult:
    outcome: dict[str, object] = {}

    def call() -> None:
        try:
            outcome["answer"] = as_answer(system(item))
        except BadAnswer as error:
            outcome["error"] = str(error)
        except Exception as error:  # the user's system failing is a result, not a crash
            outcome["error"] = f"system raised {type(error).__name__}: {error}"

    start = time.perf_counter()
    worker = threading.Thread(target=call, name=f"system-{item.id}-{item.run_number}", daemon=True)
    worker.start()
    worker.join(timeout)
    latency = round((time.perf_counter() - start) * 1000, 1)
    if worker.is_alive():
        return SystemResult(None, f"system timed out after {timeout:g}s", latency)
    if "error" in outcome:
        return SystemResult(None, str(outcome["error"]), latency)
    answer = outcome["answer"]
    assert isinstance(answer, Answer)
    try:
        answer.field_predictions()
        answer.checked_metrics()
    except BadAnswer as error:
        return SystemResult(None, str(error), latency)
    return SystemResult(answer, None, latency)
