"""The judge folder: where verdicts are cached and calibration records are kept.

    <judge folder>/verdicts.jsonl                                  the verdict cache
    <judge folder>/calibrations/<bundle content sha256>/<judge>@<prompt version>.json

It is --judge-dir, else $CURATOR_JUDGE_DIR, else the store's `.curator/judge/` (local,
never committed or bundled) when commands run inside a store, else
$XDG_CACHE_HOME/curator/judge (~/.cache/curator/judge). In CI, point CURATOR_JUDGE_DIR at a
kept folder (a CI cache, or a committed one) so verdicts and calibrations survive the run.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from curator.model import JudgeSettings

JUDGE_DIR_ENV = "CURATOR_JUDGE_DIR"


def judge_dir(explicit: Path | None = None, store_root: Path | None = None) -> Path:
    if explicit is not None:
        return explicit
    if os.environ.get(JUDGE_DIR_ENV):
        return Path(os.environ[JUDGE_DIR_ENV])
    if store_root is not None:
        from curator.store import Store

        return Store(store_root).local_path("judge")
    cache_home = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache_home) / "curator" / "judge"


def store_root(path: Path | None = None) -> Path | None:
    """The store commands run in (`path`, else $CURATOR_STORE, else the nearest curator.toml
    upward), or None outside any store."""
    from curator.errors import CuratorError
    from curator.store import Store

    try:
        return Store.open(path).root
    except CuratorError:
        return None


def judge_settings(root: Path | None) -> JudgeSettings:
    """`[judge]` of the store's curator.toml, or the defaults outside a store."""
    from curator.config import CONFIG_NAME, load_config
    from curator.model import JudgeSettings

    if root is None or not (root / CONFIG_NAME).is_file():
        return JudgeSettings()
    return load_config(root / CONFIG_NAME).judge
