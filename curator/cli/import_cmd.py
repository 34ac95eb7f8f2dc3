"""curator import."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from curator.cli.common import error_line, prints_result, show_progress, warn
from curator.cli.env import Env, pass_env

if TYPE_CHECKING:
    from curator.ingest.api import ImportReport


@click.command("import")
@click.argument("sources", nargs=-1, required=True, metavar="SOURCE...")
@click.option("--doc-type", help="Document type of the PDFs (default: guessed from label phrases).")
@click.option("--category", default="clean", show_default=True, help="Fixture category.")
@click.option(
    "--rubric", "rubrics", multiple=True, metavar="TEXT", help="A rubric statement (repeatable)."
)
@click.option(
    "--rubrics",
    "rubric_files",
    multiple=True,
    type=click.Path(dir_okay=False),
    metavar="FILE",
    help="A file of rubric statements, one per line (repeatable: one per --task).",
)
@click.option(
    "--task",
    "tasks",
    multiple=True,
    metavar="NAME",
    help="The rubrics are this named task's (summary, action_items, ...); repeat with one "
    "--rubrics FILE each to give one input several tasks.",
)
@click.option(
    "--ocr",
    type=click.Choice(["auto", "always", "never"]),
    default="auto",
    show_default=True,
    help="OCR pages without a usable text layer (auto), every page, or none.",
)
@click.option("--split-threads", is_flag=True, help="One fixture per thread of a channel export.")
@click.option(
    "--per-channel",
    is_flag=True,
    help="One fixture per channel of a workspace export (default: one per thread).",
)
@click.option(
    "--channel",
    "channels",
    multiple=True,
    metavar="NAME",
    help="Only this channel of a workspace export (name, display name or id). Repeatable.",
)
@click.option("--since", metavar="DATE", help="Only threads started on or after DATE (UTC).")
@click.option("--until", metavar="DATE", help="Only threads started before the end of DATE.")
@click.option(
    "--min-replies",
    type=click.IntRange(min=0),
    default=0,
    help="Only threads with at least N replies (system posts not counted).",
)
@click.option(
    "--workers", type=click.IntRange(min=1), help="OCR processes (default: one per core)."
)
@click.option(
    "--keep-going",
    is_flag=True,
    help="Import the good sources and report each bad one (exit 2 if any); default: all or "
    "nothing.",
)
@click.option(
    "--keep",
    "kept",
    multiple=True,
    metavar="TERM",
    help="Keep TERM as written: it names no one (a product, a public company). Repeatable.",
)
@prints_result
@pass_env
def import_sources(
    env: Env,
    sources: tuple[str, ...],
    doc_type: str | None,
    category: str,
    rubrics: tuple[str, ...],
    rubric_files: tuple[str, ...],
    tasks: tuple[str, ...],
    ocr: str,
    split_threads: bool,
    per_channel: bool,
    channels: tuple[str, ...],
    since: str | None,
    until: str | None,
    min_replies: int,
    workers: int | None,
    keep_going: bool,
    kept: tuple[str, ...],
) -> ImportReport:
    """Import Mattermost thread exports (.json), chat logs (.jsonl), Mattermost bulk exports
    (.zip, its folder unzipped or import.jsonl), Mattermost compliance exports (.zip, a
    batch unzipped, posts.csv or Actiance XML), Slack exports (.zip or folder), PDFs and
    scanned images (.png, .jpg, .tif) as draft fixtures.

    Everything is anonymised before it is written. A folder imports the files in it;
    a source imported before is skipped. A workspace export (bulk, compliance, Slack) gives
    one fixture per thread, filtered by --channel, --since, --until and --min-replies.

    \b
    Examples:
      curator import examples/threads --split-threads --rubric "The answer cites the lease"
      curator import thread.json --task summary --rubrics summary.txt \
--task action_items --rubrics action_items.txt
    """
    from curator.ingest import Selection, read_rubric_file, task_rubrics
    from curator.ingest import import_sources as run_import

    by_task = task_rubrics(tasks, rubrics, rubric_files) if tasks else {}
    all_rubrics = (
        [] if tasks else [*rubrics, *(t for f in rubric_files for t in read_rubric_file(f))]
    )
    report = run_import(
        env.store(),
        sources,
        doc_type=doc_type,
        category=category,
        rubrics=all_rubrics,
        tasks=by_task,
        ocr=ocr,
        split_threads=split_threads,
        workers=workers,
        progress=show_progress(),
        keep_going=keep_going,
        keep=kept,
        selection=Selection.of(
            channels=channels,
            since=since,
            until=until,
            min_replies=min_replies,
            per_channel=per_channel,
        ),
    )
    for message in report.warnings():
        warn(message)
    for message in report.errors():
        error_line(message)
    return report
