"""curator status."""

from __future__ import annotations

import click

from curator.cli.common import STATUSES, emit, json_option


@click.command()
@click.argument("fixture_ids", nargs=-1, required=True, metavar="ID...")
@click.option("--to", "status", type=click.Choice(STATUSES), required=True, help="The new status.")
@json_option
@click.pass_obj
def status(env, fixture_ids: tuple[str, ...], status: str, as_json: bool) -> None:  # noqa: ANN001
    """Move fixtures to a status (bundles take active ones).

    Example: curator status lease-maple-1a2b3c4d --to active
    """
    from curator.lifecycle import set_status

    changed = set_status(env.store(), fixture_ids, status)
    emit(as_json, {"changed": [f.id for f in changed], "status": status},
         "\n".join(f"{f.id}: {status}" for f in changed) or f"already {status}")
