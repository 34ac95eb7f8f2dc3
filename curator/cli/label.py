"""curator label set / history."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from curator.cli.common import prints_result
from curator.cli.env import Env, pass_env

if TYPE_CHECKING:
    from curator.model import LabelRevision


@click.group()
def label() -> None:
    """Set and inspect ground-truth label revisions."""


@dataclass
class Written:
    fixture_id: str
    revision: LabelRevision
    exit_code = 0

    def as_json(self) -> dict[str, Any]:
        return self.revision.model_dump(mode="json")

    def render(self) -> str:
        return f"{self.fixture_id}: label rev {self.revision.rev} written"


@label.command("set")
@click.argument("fixture_id", metavar="ID")
@click.argument("assignments", nargs=-1, metavar="FIELD=VALUE...")
@click.option("--rubric", "rubrics", multiple=True, metavar="TEXT", help="Add a rubric statement.")
@click.option("--drop-rubric", "dropped", multiple=True, metavar="TEXT", help="Remove a rubric statement.")
@click.option("--reference", metavar="TEXT",
              help="A reviewed answer that meets every rubric (judge calibration must pass it); \"\" removes it.")
@click.option("--reason", help="Why the labels change (kept in the revision).")
@click.option("--author", help="Who labels (default: $CURATOR_AUTHOR or the login name).")
@prints_result
@pass_env
def set_command(env: Env, fixture_id: str, assignments: tuple[str, ...], rubrics: tuple[str, ...],
                dropped: tuple[str, ...], reference: str | None, reason: str | None,
                author: str | None) -> Written:
    """Append a label revision. FIELD= (empty) marks a field expected absent.

    Example: curator label set lease-maple-1a2b3c4d monthly_rent='$1,250.00' --reason "checked page 2"
    """
    from curator.labels import parse_assignments, set_labels

    revision = set_labels(
        env.store(),
        fixture_id,
        assignments=parse_assignments(assignments),
        add_rubrics=rubrics,
        drop_rubrics=dropped,
        reference=reference,
        reason=reason,
        author=author,
    )
    return Written(fixture_id, revision)


@dataclass
class History:
    revisions: list[LabelRevision]
    exit_code = 0

    def as_json(self) -> list[dict[str, Any]]:
        return [r.model_dump(mode="json") for r in self.revisions]

    def render(self) -> str:
        lines = []
        for r in self.revisions:
            lines.append(f"rev {r.rev}  {r.time}  {r.author}  {r.source}" + (f"  ({r.reason})" if r.reason else ""))
            for name, value in r.fields.items():
                lines.append(f"    {name} = {'(expected absent)' if value.expected_absent else value.value}")
            for rubric in r.rubrics:
                lines.append(f"    rubric: {rubric.text}")
            if r.reference:
                lines.append(f"    reference: {r.reference}")
        return "\n".join(lines) or "no label revisions"


@label.command("history")
@click.argument("fixture_id", metavar="ID")
@prints_result
@pass_env
def history(env: Env, fixture_id: str) -> History:
    """List a fixture's label revisions, oldest first.

    Example: curator label history lease-maple-1a2b3c4d
    """
    return History(env.store().load(fixture_id).revisions)
