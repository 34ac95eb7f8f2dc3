"""curator stats."""

from __future__ import annotations

import click

from curator.cli.common import STATUSES, emit, json_option


@click.command()
@click.option("--status", "statuses", multiple=True, type=click.Choice(STATUSES),
              help="Count only fixtures with this status (repeatable; default: all but retired).")
@click.option("--check", is_flag=True, help="Exit 1 when the adversarial share is below the target.")
@json_option
@click.pass_obj
@click.pass_context
def stats(ctx: click.Context, env, statuses: tuple[str, ...], check: bool, as_json: bool) -> None:  # noqa: ANN001
    """Composition by category x mutation kind and status, against adversarial_target_share.

    Example: curator stats --status active
    """
    from curator.bundle.stats import render, store_stats

    result = store_stats(env.store(), statuses)
    emit(as_json, result.as_dict(), lambda: render(result))
    if check and not result.meets_target:
        ctx.exit(1)
