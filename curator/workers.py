"""Worker processes that never outlive the command that started them.

A worker ignores Ctrl-C (the command decides what an interrupt does, and kills its
workers), takes SIGTERM's default, and gets Linux's parent-death signal (SIGKILL), so a
killed command leaves no process behind. OCR runs pages in such workers; the detector of
personal data splits a large batch of texts across forked ones.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.pool import AsyncResult

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>

_forked_task: Callable[[Any], Any] | None = (
    None  # what a forked worker runs (set in the worker only)
)


def available_cores() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def start_worker(parent: int) -> None:
    """Pool initializer: the command's signal policy, and no life after the command's."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent(parent)


def die_with_parent(parent: int) -> None:
    """SIGKILL this process when its parent dies (Linux's PR_SET_PDEATHSIG; elsewhere the
    workers end when the pool's pipes close)."""
    if sys.platform.startswith("linux"):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)


def can_fork() -> bool:
    import multiprocessing

    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


def forked_workers(wanted: int | None, worth: int) -> int:
    """How many forked workers to start: `wanted` (None: one per core), no more than the
    work is `worth`; none where processes cannot fork. Under 2 means: work in this process."""
    return min(wanted or available_cores(), worth) if can_fork() else 0


@contextmanager
def forked_pool(
    task: Callable[[Any], Any], processes: int
) -> Iterator[Callable[[Any], AsyncResult]]:
    """`processes` forked workers that run `task`; yields `submit(part)`, whose result's
    `get()` waits for `task(part)`. The workers end with the block.

    Forked workers start with this process's memory (loaded word lists, compiled patterns,
    recognizers), so starting one costs milliseconds, not the seconds a fresh interpreter
    spends importing them; and `task` may be any callable: it reaches the workers through
    the fork, only parts and results are pickled."""
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(
        processes, initializer=_start_forked_worker, initargs=(os.getpid(), task)
    ) as pool:
        yield lambda part: pool.apply_async(_run_forked_task, (part,))


def forked_map(task: Callable[[Any], Any], parts: Sequence[Any]) -> list[Any]:
    """`task` over each of `parts`, results in order: the first part in this process, each
    other one in a forked process of its own (see `forked_pool`)."""
    if len(parts) < 2:
        return [task(part) for part in parts]
    with forked_pool(task, len(parts) - 1) as submit:
        others = [submit(part) for part in parts[1:]]
        first = task(parts[0])
        return [first, *(other.get() for other in others)]


def _start_forked_worker(parent: int, task: Callable[[Any], Any]) -> None:
    global _forked_task
    _forked_task = task
    start_worker(parent)


def _run_forked_task(part: Any) -> Any:
    assert _forked_task is not None
    return _forked_task(part)
