"""curator label set / history."""

from __future__ import annotations

import click

from curator.cli.common import emit, json_option


@click.group()
def label() -> None:
    """Set and inspect ground-truth label revisions."""


@label.command("set")
@click.argument("fixture_id", metavar="ID")
@click.argument("assignments", nargs=-1, metavar="FIELD=VALUE...")
@click.option("--rubric", "rubrics", multiple=True, metavar="TEXT", help="Add a rubric statement.")
@click.option("--drop-rubric", "dropped", multiple=True, metavar="TEXT", help="Remove a rubric statement.")
@click.option("--reference", metavar="TEXT",
              help="A reviewed answer that meets every rubric (judge calibration must pass it); \"\" removes it.")
@click.option("--reason", help="Why the labels change (kept in the revision).")
@click.option("--author", help="Who labels (default: $CURATOR_AUTHOR or the login name).")
@json_option
@click.pass_obj
def set_command(env, fixture_id: str, assignments: tuple[str, ...], rubrics: tuple[str, ...],  # noqa: ANN001
                dropped: tuple[str, ...], reference: str | None, reason: str | None, author: str | None,
                as_json: bool) -> None:
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
    emit(as_json, revision.model_dump(mode="json"), f"{fixture_id}: label rev {revision.rev} written")


@label.command("history")
@click.argument("fixture_id", metavar="ID")
@json_option
@click.pass_obj
def history(env, fixture_id: str, as_json: bool) -> None:  # noqa: ANN001
    """List a fixture's label revisions, oldest first.

    Example: curator label history lease-maple-1a2b3c4d
    """
    revisions = env.store().load(fixture_id).revisions

    def text() -> str:
        lines = []
        for r in revisions:
            lines.append(f"rev {r.rev}  {r.time}  {r.author}  {r.source}" + (f"  ({r.reason})" if r.reason else ""))
            for name, value in r.fields.items():
                lines.append(f"    {name} = {'(expected absent)' if value.expected_absent else value.value}")
            for rubric in r.rubrics:
                lines.append(f"    rubric: {rubric.text}")
            if r.reference:
                lines.append(f"    reference: {r.reference}")
        return "\n".join(lines) or "no label revisions"

    emit(as_json, [r.model_dump(mode="json") for r in revisions], text)
