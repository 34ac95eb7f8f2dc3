"""The fixtures a gate run scores: a built bundle, read through curator.bundle.load."""

from __future__ import annotations

from pathlib import Path

from curator.errors import CuratorError
from curator.score.scoring import Case


def load_cases(bundle: Path) -> list[Case]:
    """Every fixture of the bundle at `bundle` (a directory or .tar.gz), in the bundle's order."""
    from curator.bundle import load

    if not bundle.exists():
        raise CuratorError(f"{bundle}: no such bundle")
    cases: list[Case] = list(load(bundle))
    if not cases:
        raise CuratorError(f"{bundle}: the bundle holds no fixtures")
    return cases
