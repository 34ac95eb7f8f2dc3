"""curator status."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from curator.cli.common import STATUSES, prints_result
from curator.cli.env import Env, pass_env

if TYPE_CHECKING:
    from curator.model import Fixture


@dataclass
class StatusChange:
    changed: list[Fixture]
    status: str
    exit_code = 0

    def as_json(self) -> dict[str, Any]:
        return {"changed": [f.id for f in self.changed], "status": self.status}

    def render(self) -> str:
        return "\n".join(f"{f.id}: {self.status}" for f in self.changed) or f"already {self.status}"


@click.command()
@click.argument("fixture_ids", nargs=-1, required=True, metavar="ID...")
@click.option("--to", "status", type=click.Choice(STATUSES), required=True, help="The new status.")
@prints_result
@pass_env
def status(env: Env, fixture_ids: tuple[str, ...], status: str) -> StatusChange:
    """Move fixtures to a status (bundles take active ones).

    Example: curator status lease-maple-1a2b3c4d --to active
    """
    from curator.lifecycle import set_status

    return StatusChange(set_status(env.store(), fixture_ids, status), status)
