"""curator stats."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import click

from curator.cli.common import STATUSES, prints_result
from curator.cli.env import Env, pass_env

if TYPE_CHECKING:
    from curator.bundle.stats import StoreStats


@click.command()
@click.option(
    "--status",
    "statuses",
    multiple=True,
    type=click.Choice(STATUSES),
    help="Count only fixtures with this status (repeatable; default: all but retired).",
)
@click.option(
    "--check", is_flag=True, help="Exit 1 when the adversarial share is below the target."
)
@prints_result
@pass_env
def stats(env: Env, statuses: tuple[str, ...], check: bool) -> StoreStats:
    """Composition by category x mutation kind and status, against adversarial_target_share.

    Example: curator stats --status active
    """
    from curator.bundle.stats import store_stats

    return replace(store_stats(env.store(), statuses), check=check)
