"""curator promote."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from curator.cli.common import prints_result
from curator.cli.env import Env, pass_env

if TYPE_CHECKING:
    from curator.promote.promote import PromoteSummary


@click.command()
@click.argument(
    "path", metavar="FAILURE.json|FAILURES.jsonl", type=click.Path(dir_okay=False, path_type=Path)
)
@click.option(
    "--failure-mode",
    metavar="M",
    help="Failure mode for every record, overriding the records' own "
    "(hallucination, field_targeting, truncation_artifact, confidence_mismatch, other).",
)
@click.option(
    "--force", is_flag=True, help="Promote near-duplicates too (never a trace promoted before)."
)
@click.option(
    "--where",
    "where",
    multiple=True,
    metavar="KEY OP VALUE",
    help="Of a trace export, promote the calls where this holds (all of them when repeated) "
    "instead of the failed ones: score<0.5, score.helpfulness<=2, trace_id=ID, span_id=ID, "
    "status=error, model=NAME.",
)
@click.option(
    "--ocr",
    type=click.Choice(["auto", "always", "never"]),
    default="auto",
    show_default=True,
    help="OCR for PDF inputs, as in `curator import`.",
)
@prints_result
@pass_env
def promote(
    env: Env, path: Path, failure_mode: str | None, force: bool, where: tuple[str, ...], ocr: str
) -> PromoteSummary:
    """Turn production failures into anonymised adversarial fixtures.

    PATH holds failure records, or is a trace export (OTLP JSON with the GenAI conventions,
    Langfuse traces, LangSmith runs, OpenAI request/response logs): its failed calls (an
    error status, negative feedback, a low score), or those --where selects, become
    conversation fixtures.

    Each record's input, output and corrections are anonymised with the store's vault; the
    fixture lands in adversarial/ with category = failure mode and the bad output kept as a
    known-bad answer. A trace promoted before, or an input that a fixture already covers
    (store.dedup_threshold), writes nothing. Exit 2 when any record was rejected.

    Examples:
      curator promote failures.jsonl --failure-mode hallucination
      curator promote langfuse-traces.json --where "score<0.3"
    """
    from curator.promote import promote as run

    return run(env.store(), path, failure_mode=failure_mode, force=force, ocr=ocr, where=where)
