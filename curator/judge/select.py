"""Judges by name, configured and behind the verdict cache: what `--judge NAME` gives."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from curator.errors import CuratorError
from curator.judge.cache import CachedJudge, VerdictCache
from curator.judge.location import judge_dir
from curator.model import JudgeSettings

JUDGES = ("rules", "openai")


def open_judge(
    name: str,
    *,
    model: str | None = None,
    settings: JudgeSettings | None = None,
    offline: bool = False,
    folder: Path | None = None,
    store_root: Path | None = None,
    rubrics: Iterable[str] = (),
) -> CachedJudge:
    """`rules` or `openai`, caching in the judge folder; `offline` never calls the judge.
    `rubrics`, those the judge will be asked about: the rules judge refuses, in one line,
    rubrics it cannot check."""
    settings = settings or JudgeSettings()
    if name == "rules":
        from curator.judge.rules import RulesJudge, refuse_uncheckable

        refuse_uncheckable(rubrics)
        inner: object = RulesJudge(settings)
    elif name == "openai":
        from curator.judge.openai import OpenAIJudge, model_name

        inner = OpenAIJudge(model_name(model, settings), settings)
    else:
        raise CuratorError(f"unknown judge {name!r} (known: {', '.join(JUDGES)})")
    return CachedJudge(inner, VerdictCache(judge_dir(folder, store_root)), offline=offline)  # type: ignore[arg-type]
