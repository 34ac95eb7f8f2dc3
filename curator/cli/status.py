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
    changed: list[Fixture]  # as they were before the change
    status: str
    dry_run: bool = False
    exit_code = 0

    def as_json(self) -> dict[str, Any]:
        return {
            "changed": [f.id for f in self.changed],
            "from": {f.id: f.status.value for f in self.changed},
            "status": self.status,
            "dry_run": self.dry_run,
        }

    def render(self) -> str:
        if not self.changed:
            return f"already {self.status}"
        verb = "would move" if self.dry_run else "moved"
        lines = [f"{f.id}: {f.status.value} -> {self.status}" for f in self.changed]
        return "\n".join(
            [
                *lines,
                f"{verb} {len(self.changed)} fixture(s) to {self.status}"
                + (" (dry run: nothing written)" if self.dry_run else ""),
            ]
        )


@click.command()
@click.argument("fixture_ids", nargs=-1, metavar="[ID...]")
@click.option("--to", "status", type=click.Choice(STATUSES), required=True, help="The new status.")
@click.option(
    "--where",
    metavar="KEY=VALUE,...",
    help="Every fixture matching all of these (status, kind, doc_type, category, tag, parent, "
    "mutation, adversarial), instead of IDs.",
)
@click.option("--dry-run", is_flag=True, help="Check and list what would move; write nothing.")
@prints_result
@pass_env
def status(
    env: Env, fixture_ids: tuple[str, ...], status: str, where: str | None, dry_run: bool
) -> StatusChange:
    """Move fixtures to a status (bundles take active ones); all of them or none.

    \b
    Examples:
      curator status lease-maple-1a2b3c4d --to active
      curator status --to active --where status=reviewed,category=ocr-noise --dry-run
    """
    from curator.lifecycle import set_status

    return StatusChange(
        set_status(env.store(), fixture_ids, status, where=where, dry_run=dry_run), status, dry_run
    )
