"""The fixtures a gate run scores: a built bundle, read through curator.bundle.load."""

from __future__ import annotations

from pathlib import Path

from curator.errors import CuratorError
from curator.score.scoring import SimpleCase, task_cases


def load_cases(bundle: Path) -> list[SimpleCase]:
    """Every fixture of the bundle at `bundle` (a directory or .tar.gz), in the bundle's order,
    once per task (`task_cases`)."""
    from curator.bundle import load

    if not bundle.exists():
        raise CuratorError(f"{bundle}: no such bundle")
    cases = task_cases(load(bundle))
    if not cases:
        raise CuratorError(f"{bundle}: the bundle holds no fixtures")
    return cases
