"""curator promote."""

from __future__ import annotations

from pathlib import Path

import click

from curator.cli.common import emit, exit_with, json_option


@click.command()
@click.argument("path", metavar="FAILURE.json|FAILURES.jsonl",
                type=click.Path(dir_okay=False, path_type=Path))
@click.option("--failure-mode", metavar="M",
              help="Failure mode for every record, overriding the records' own "
                   "(hallucination, field_targeting, truncation_artifact, confidence_mismatch, other).")
@click.option("--force", is_flag=True, help="Promote near-duplicates too (never a trace promoted before).")
@click.option("--ocr", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
              help="OCR for PDF inputs, as in `curator import`.")
@json_option
@click.pass_context
def promote(ctx: click.Context, path: Path, failure_mode: str | None, force: bool, ocr: str,
            as_json: bool) -> None:
    """Turn production failures into anonymised adversarial fixtures.

    Each record's input, output and corrections are anonymised with the store's vault; the
    fixture lands in adversarial/ with category = failure mode and the bad output kept as a
    known-bad answer. A trace promoted before, or an input that a fixture already covers
    (store.dedup_threshold), writes nothing. Exit 2 when any record was rejected.

    Example: curator promote failures.jsonl --failure-mode hallucination
    """
    from curator.promote import promote as run

    summary = run(ctx.obj.store(), path, failure_mode=failure_mode, force=force, ocr=ocr)
    emit(as_json, summary.as_dict(), summary.render)
    exit_with(ctx, summary.exit_code)
