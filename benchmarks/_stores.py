"""Benchmark stores: written through the store's own transaction, without the fsyncs."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from curator import atomic  # noqa: E402


@contextmanager
def no_fsync() -> Iterator[None]:
    """Writing a 10k-fixture store with an fsync per file would time the disk, not curator.

    Only for building a benchmark's store: what is timed afterwards runs with real fsyncs.
    """
    real = os.fsync
    os.fsync = lambda fd: None
    atomic_fsync_dir = atomic.fsync_dir
    atomic.fsync_dir = lambda path: None
    try:
        yield
    finally:
        os.fsync = real
        atomic.fsync_dir = atomic_fsync_dir
