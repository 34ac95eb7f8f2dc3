"""`curator eval run` as a library call: a system over a bundle, N times, judged and recorded.

An item is a fixture, or one named task of a fixture (curator.eval.items): the system is
called once per item and repetition, and learns the task from `item.task`.
Each (item, repetition) is one job on a pool of `concurrency` threads: call the system
(with a timeout), judge its rubrics, score the run. A system error (whatever the system
raised) is a result for that item and run; a missing verdict under --offline stops the run
with nothing written. At the end `predictions.jsonl` (one majority line per fixture, with
its run counts) and `evals.jsonl` (one line per field or rubric per repetition, named
`fixture/task` for a named task) are written whole. Ctrl-C stops the run: the runs done
are written, then `Interrupted` (exit 130) says how many (see curator.eval.interrupt).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from curator import atomic, clock
from curator.errors import CuratorError
from curator.eval import aggregate, records
from curator.eval.interrupt import Interrupted, stop_on_sigint
from curator.eval.items import EvalBundle, EvalItem
from curator.eval.outcome import RunResult, judge_run
from curator.eval.system import System, call_system
from curator.judge.cache import CachedJudge
from curator.model import EvalLine, Prediction, task_label

REPEAT_ENV = "CURATOR_EVALS"  # as GOEVALS for Mattermost's Go evals
STOP_POLL = 0.1  # seconds between looks at the Ctrl-C flag while tasks run
PREDICTIONS_FILE = "predictions.jsonl"
EVALS_FILE = "evals.jsonl"


@dataclass
class EvalRun:
    bundle: EvalBundle
    repetitions: int
    runs: list[RunResult]  # sorted by fixture, then repetition
    predictions: list[Prediction]
    lines: list[EvalLine]
    judge: CachedJudge | None = None
    written: list[Path] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        return 0  # failures are results; the gate decides what they mean

    def as_json(self) -> dict[str, Any]:
        return self.summary()

    @property
    def flaky(self) -> list[str]:
        """Fixtures (`fixture/task` for named tasks) that passed in some runs and failed in
        others."""
        return [
            task_label(p.fixture_id, p.task)
            for p in self.predictions
            if p.runs and 0 < p.runs.passed < p.runs.repetitions
        ]

    def pass_rates(self) -> dict[str, float]:
        return {
            task_label(p.fixture_id, p.task): p.runs.passed / p.runs.repetitions
            for p in self.predictions
            if p.runs
        }

    def summary(self) -> dict[str, Any]:
        items = [item for run in self.runs for item in run.scored.items]
        rates = self.pass_rates()
        counts = self.judge.counts if self.judge else None
        tasks = sum(p.task is not None for p in self.predictions)
        return {
            "bundle": self.bundle.version,
            "fixtures": len({p.fixture_id for p in self.predictions}),
            **({"tasks": tasks} if tasks else {}),
            "repetitions": self.repetitions,
            "items_right": sum(item.right for item in items),
            "items": len(items),
            "pass_rate": sum(rates.values()) / len(rates) if rates else None,
            "flaky": self.flaky,
            "system_errors": sum(run.error is not None for run in self.runs),
            "judge": self.judge.name if self.judge else None,
            "judge_calls": counts.calls if counts else 0,
            "judge_cached": counts.cached if counts else 0,
            "judge_errors": counts.errors if counts else 0,
            "pass_rates": rates,
            "written": [str(path) for path in self.written],
        }

    def render(self) -> str:
        s = self.summary()
        lines = [
            f"eval run on bundle {s['bundle']}: {s['fixtures']} fixtures"
            + (f" ({s['tasks']} named tasks)" if "tasks" in s else "")
            + f" x {s['repetitions']} "
            f"run(s), {s['items_right']}/{s['items']} items right, mean pass rate "
            f"{_rate(s['pass_rate'])}",
        ]
        if s["judge"]:
            lines.append(
                f"  judge {s['judge']}: {s['judge_calls']} call(s), {s['judge_cached']} cached, "
                f"{s['judge_errors']} error(s)"
            )
        if s["system_errors"]:
            lines.append(f"  system errors: {s['system_errors']} run(s) (see evals.jsonl)")
        for fixture_id, rate in s["pass_rates"].items():
            if rate < 1:
                flaky = "  flaky" if fixture_id in s["flaky"] else ""
                lines.append(f"  {fixture_id}: passed {rate:.0%} of runs{flaky}")
        lines += [f"  wrote {path}" for path in s["written"]]
        return "\n".join(lines)


def repetitions(explicit: int | None) -> int:
    """--repeat, else $CURATOR_EVALS, else 1."""
    if explicit is not None:
        if explicit < 1:
            raise CuratorError("--repeat must be at least 1")
        return explicit
    raw = os.environ.get(REPEAT_ENV, "").strip()
    if not raw:
        return 1
    if not raw.isdigit() or int(raw) < 1:
        raise CuratorError(f"{REPEAT_ENV}={raw!r}: expected a number of repetitions, 1 or more")
    return int(raw)


def run_eval(
    bundle: EvalBundle,
    system: System,
    *,
    judge: CachedJudge | None = None,
    repeat: int = 1,
    concurrency: int = 4,
    timeout: float | None = 60.0,
    threshold: float = 0.6,
    out: Path | None = None,
    items: Sequence[EvalItem] | None = None,
    max_answer_bytes: int | None = None,
) -> EvalRun:
    chosen = list(items if items is not None else bundle.items)
    if judge is None and any(item.rubrics for item in chosen):
        raise CuratorError(
            "the bundle has fixtures with rubrics: choose a judge with --judge rules|openai"
        )
    tasks = [item.for_run(number) for item in chosen for number in range(repeat)]

    # The handler stays on while the results are written: a Ctrl-C then is too late to
    # stop anything, and must not cut the writing short.
    with stop_on_sigint() as stop:

        def evaluate(item: EvalItem) -> RunResult | None:
            """The run judged and scored; None when Ctrl-C came first (not run, or cut short)."""
            if stop.is_set():
                return None
            result = call_system(system, item, timeout, stop, max_answer_bytes)
            if stop.is_set():
                return None
            return judge_run(item, result, judge, threshold, clock.now_iso())

        runs = _evaluate_all(tasks, evaluate, concurrency, stop)
        interrupted = stop.is_set() and len(runs) < len(tasks)
        by_task: dict[str, list[RunResult]] = {}
        for run in runs:
            by_task.setdefault(run.item.name, []).append(run)
        predictions = [aggregate.fold(group) for group in by_task.values()]
        lines = [line for run in runs for line in records.run_lines(run)]
        result = EvalRun(bundle, repeat, runs, predictions, lines, judge)
        if out is not None and (runs or not interrupted):
            result.written = write_outputs(result, out)
    if interrupted:
        where = f", written to {out}" if result.written else ", nothing written"
        raise Interrupted(f"interrupted: {len(runs)} of {len(tasks)} run(s) done{where}")
    return result


def _evaluate_all(
    tasks: list[EvalItem],
    evaluate: Callable[[EvalItem], RunResult | None],
    concurrency: int,
    stop: threading.Event,
) -> list[RunResult]:
    """The runs of the tasks that ran to the end, in task order."""
    with ThreadPoolExecutor(max_workers=max(1, concurrency), thread_name_prefix="eval") as pool:
        futures = [pool.submit(evaluate, task) for task in tasks]
        _wait_all(futures, stop)
    done = [future.result() for future in futures if not future.cancelled()]
    return [run for run in done if run is not None]


def _wait_all(futures: list[Future[RunResult | None]], stop: threading.Event) -> None:
    """Until every task ended; on Ctrl-C the tasks not started are cancelled (those in
    flight end soon: each looks at `stop`). A task that raised (--offline and a verdict is
    missing) stops the run with nothing written."""
    pending: set[Future[RunResult | None]] = set(futures)
    while pending:
        done, pending = wait(pending, timeout=STOP_POLL, return_when=FIRST_EXCEPTION)
        failed = next((f for f in done if not f.cancelled() and f.exception() is not None), None)
        if failed is not None:
            for future in futures:
                future.cancel()
            raise failed.exception()  # type: ignore[misc]
        if stop.is_set():
            for future in pending:
                future.cancel()


def write_outputs(run: EvalRun, out: Path) -> list[Path]:
    predictions = "".join(
        p.model_dump_json(by_alias=True, exclude_none=True) + "\n" for p in run.predictions
    )
    atomic.write_text(out / PREDICTIONS_FILE, predictions)
    records.write(out / EVALS_FILE, run.lines)
    return [out / PREDICTIONS_FILE, out / EVALS_FILE]


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"
