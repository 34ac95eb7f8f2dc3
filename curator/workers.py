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
from collections.abc import Callable, Sequence
from typing import Any

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>

_forked_task: Callable[[Any], Any] | None = None  # what forked_map's workers run (they inherit it)


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


def forked_map(task: Callable[[Any], Any], parts: Sequence[Any]) -> list[Any]:
    """`task` over each of `parts`, results in order: the first part in this process, each
    other one in a forked process of its own.

    Forked workers start with this process's memory (loaded word lists, compiled patterns,
    recognizers), so starting one costs milliseconds, not the seconds a fresh interpreter
    spends importing them; and `task` may be any callable, nothing about it is pickled."""
    import multiprocessing

    if len(parts) < 2:
        return [task(part) for part in parts]
    global _forked_task
    _forked_task = task
    try:
        with multiprocessing.get_context("fork").Pool(len(parts) - 1, initializer=start_worker,
                                                      initargs=(os.getpid(),)) as pool:
            others = pool.map_async(_run_forked_task, parts[1:], chunksize=1)
            first = task(parts[0])
            return [first, *others.get()]
    finally:
        _forked_task = None


def _run_forked_task(part: Any) -> Any:
    assert _forked_task is not None
    return _forked_task(part)
