"""curator label set / history."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from curator.cli.common import prints_result
from curator.cli.env import Env, pass_env

if TYPE_CHECKING:
    from curator.model import LabelRevision, Rubric


@click.group()
def label() -> None:
    """Set and inspect ground-truth label revisions."""


@dataclass
class Written:
    fixture_id: str
    revision: LabelRevision
    changed: list[str]  # the fields this command set, whose evidence the text names
    exit_code = 0

    def as_json(self) -> dict[str, Any]:
        return self.revision.model_dump(mode="json")

    def render(self) -> str:
        lines = [
            f"{self.fixture_id}: label rev {self.revision.rev} written"
            + (f" (doc type {self.revision.doc_type})" if self.revision.doc_type else "")
        ]
        for name in self.changed:
            label = self.revision.fields.get(name)
            if label is None or label.value is None:
                continue
            if label.evidence is not None:
                where = (
                    f"{label.evidence.where[0]} {label.evidence.where[1]} "
                    f"[{label.evidence.start}:{label.evidence.end}]"
                )
                lines.append(f"  {name} = {label.value!r}: evidence at {where}")
            else:
                lines.append(f"  {name} = {label.value!r}: no evidence ({label.no_evidence})")
        return "\n".join(lines)


@label.command("set")
@click.argument("fixture_id", metavar="ID")
@click.argument("assignments", nargs=-1, metavar="FIELD=VALUE...")
@click.option(
    "--no-evidence",
    metavar="WHY",
    help="Keep values that are not in the content, saying why (recorded on the field).",
)
@click.option(
    "--accept",
    "accepted",
    multiple=True,
    metavar="FIELD=VALUE",
    help="Also accept VALUE as a right answer for FIELD (repeatable; checked for its type).",
)
@click.option(
    "--drop-accept",
    "unaccepted",
    multiple=True,
    metavar="FIELD=VALUE",
    help="No longer accept VALUE for FIELD.",
)
@click.option("--rubric", "rubrics", multiple=True, metavar="TEXT", help="Add a rubric statement.")
@click.option(
    "--evidence-post",
    "posts",
    multiple=True,
    metavar="POST",
    help="A post the rubrics given with --rubric are judged on (repeatable).",
)
@click.option(
    "--drop-rubric", "dropped", multiple=True, metavar="TEXT", help="Remove a rubric statement."
)
@click.option(
    "--doc-type", metavar="T", help="Set or change the document type (its fields follow)."
)
@click.option(
    "--reference",
    metavar="TEXT",
    help='A reviewed answer that meets every rubric (judge calibration must pass it); "" '
    "removes it.",
)
@click.option(
    "--task",
    metavar="NAME",
    help="The named task (summary, action_items, ...) the rubrics, reference and fields "
    "belong to; without it, the fixture's default task.",
)
@click.option("--reason", help="Why the labels change (kept in the revision).")
@click.option("--author", help="Who labels (default: $CURATOR_AUTHOR or the login name).")
@prints_result
@pass_env
def set_command(
    env: Env,
    fixture_id: str,
    assignments: tuple[str, ...],
    no_evidence: str | None,
    accepted: tuple[str, ...],
    unaccepted: tuple[str, ...],
    rubrics: tuple[str, ...],
    posts: tuple[str, ...],
    dropped: tuple[str, ...],
    doc_type: str | None,
    reference: str | None,
    task: str | None,
    reason: str | None,
    author: str | None,
) -> Written:
    """Append a label revision. FIELD= (empty) marks a field expected absent.

    A value must be in the content (also written differently: "2024-01-15" finds
    "January 15, 2024"), or come with --no-evidence "why".

    \b
    Examples:
      curator label set lease-maple-1a2b3c4d monthly_rent='$1,250.00' --reason "checked page 2"
      curator label set lease-maple-1a2b3c4d tenant='Dana Whitfield' \
--accept tenant='DANA WHITFIELD'
      curator label set thread-deploy-9f8e7d6c --rubric "names who rolls back" --evidence-post p3
      curator label set scan-0c1d2e3f --doc-type invoice
      curator label set thread-deploy-9f8e7d6c --task action_items --rubric "lists the rollback"
    """
    from curator.labels import LabelEdit, parse_assignments, parse_variants, set_labels

    values = parse_assignments(assignments)
    edit = LabelEdit(
        assignments=values,
        no_evidence=no_evidence,
        accept=parse_variants(accepted),
        drop_accept=parse_variants(unaccepted),
        add_rubrics=rubrics,
        drop_rubrics=dropped,
        evidence_posts=posts,
        doc_type=doc_type,
        reference=reference,
        task=task,
    )
    revision = set_labels(env.store(), fixture_id, edit=edit, reason=reason, author=author)
    return Written(fixture_id, revision, list(values))


@dataclass
class History:
    revisions: list[LabelRevision]
    exit_code = 0

    def as_json(self) -> list[dict[str, Any]]:
        return [r.model_dump(mode="json") for r in self.revisions]

    def render(self) -> str:
        lines = []
        for r in self.revisions:
            lines.append(
                f"rev {r.rev}  {r.time}  {r.author}  {r.source}"
                + (f"  ({r.reason})" if r.reason else "")
            )
            if r.doc_type:
                lines.append(f"    doc type: {r.doc_type}")
            for name, value in r.fields.items():
                lines.append(
                    f"    {name} = {'(expected absent)' if value.expected_absent else value.value}"
                    + "".join(f"  | {v}" for v in value.variants)
                    + (f"  [no evidence: {value.no_evidence}]" if value.no_evidence else "")
                    + (f"  [unanswerable: {value.unanswerable}]" if value.unanswerable else "")
                )
            lines += _truth_lines(r.rubrics, r.reference, "    ")
            for name, task in r.tasks.items():
                asks = f" (fields {', '.join(task.fields)})" if task.fields else ""
                lines.append(f"    task {name}{asks}:")
                lines += _truth_lines(task.rubrics, task.reference, "      ")
        return "\n".join(lines) or "no label revisions"


def _truth_lines(rubrics: list[Rubric], reference: str | None, indent: str) -> list[str]:
    lines = []
    for rubric in rubrics:
        posts = f"  (posts {', '.join(rubric.evidence_posts)})" if rubric.evidence_posts else ""
        lines.append(f"{indent}rubric: {rubric.text}{posts}")
    if reference:
        lines.append(f"{indent}reference: {reference}")
    return lines


@label.command("history")
@click.argument("fixture_id", metavar="ID")
@prints_result
@pass_env
def history(env: Env, fixture_id: str) -> History:
    """List a fixture's label revisions, oldest first.

    Example: curator label history lease-maple-1a2b3c4d
    """
    return History(env.store().load(fixture_id).revisions)
