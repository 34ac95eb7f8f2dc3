"""Ctrl-C during an eval run: the user's wish to stop, told apart from a system's own
KeyboardInterrupt.

Why a flag and not the KeyboardInterrupt Python raises by default: the system under test
runs in a thread of its own (`system.call_system`), and Python runs signal handlers only
in the main thread, so a KeyboardInterrupt seen in that thread was raised by the system's
code (a system error for that fixture), while a real Ctrl-C is a SIGINT to the process and
reaches the main thread only. A handler that sets a flag, rather than raising there, never
interrupts the main thread halfway through writing a file: the run stops handing out
work, waits for what is in flight (a system call cut short, a judge call within its
deadline), writes what is done and exits 130. Outside the main thread (a library caller's
worker) no handler can be installed and Ctrl-C behaves as it does for that caller.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from curator.errors import CuratorError

INTERRUPTED_EXIT = 130  # 128 + SIGINT, as shells report a Ctrl-C


class Interrupted(CuratorError):
    """The user pressed Ctrl-C: what was done is written, the rest is not run."""

    exit_code = INTERRUPTED_EXIT


@contextmanager
def stop_on_sigint() -> Iterator[threading.Event]:
    """An event set when SIGINT arrives while the block runs (the previous handler is put
    back after it)."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def handle(signum: int, frame: FrameType | None) -> None:
        stop.set()

    previous = signal.signal(signal.SIGINT, handle)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)
