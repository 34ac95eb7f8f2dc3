"""The judge options `eval run` and `judge calibrate` share, and the judge they make."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from curator.cli.env import Env
from curator.judge.select import JUDGES

if TYPE_CHECKING:
    from curator.judge.cache import CachedJudge
    from curator.model import JudgeSettings


def judge_options(*, required: bool) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        options = [
            click.option(
                "--judge",
                "judge_name",
                type=click.Choice(JUDGES),
                required=required,
                help="rules: checks the rubric declares; openai: an OpenAI-compatible server "
                "($OPENAI_BASE_URL, $OPENAI_API_KEY).",
            ),
            click.option(
                "--judge-model",
                metavar="MODEL",
                help="The openai judge's model (or [judge] model).",
            ),
            click.option(
                "--judge-dir",
                type=click.Path(path_type=Path),
                metavar="DIR",
                help="Verdict cache and calibrations (default: $CURATOR_JUDGE_DIR, else the "
                "store's .curator/judge).",
            ),
            click.option(
                "--offline",
                is_flag=True,
                help="Replay verdicts from the cache; never call the judge.",
            ),
            click.option(
                "--concurrency",
                type=click.IntRange(min=1),
                metavar="K",
                help="Calls in flight at once (default: [judge] concurrency, 4).",
            ),
        ]
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


def judge_setup(env: Env, concurrency: int | None) -> tuple[Path | None, JudgeSettings]:
    """(the store the command runs in, if any; its [judge] settings with --concurrency applied)."""
    from curator.judge.location import judge_settings, store_root

    root = store_root(Path(env.store_path) if env.store_path else None)
    settings = judge_settings(root)
    if concurrency is not None:
        settings = settings.model_copy(update={"concurrency": concurrency})
    return root, settings


def make_judge(
    name: str,
    model: str | None,
    folder: Path | None,
    offline: bool,
    root: Path | None,
    settings: JudgeSettings,
    rubrics: Iterable[str] = (),
) -> CachedJudge:
    from curator.judge.select import open_judge

    return open_judge(
        name,
        model=model,
        settings=settings,
        offline=offline,
        folder=folder,
        store_root=root,
        rubrics=rubrics,
    )
