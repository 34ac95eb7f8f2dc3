"""curator import."""

from __future__ import annotations

import click

from curator.cli.common import emit, json_option, show_progress, warn


@click.command("import")
@click.argument("sources", nargs=-1, required=True, metavar="SOURCE...")
@click.option("--doc-type", help="Document type of the PDFs (default: guessed from label phrases).")
@click.option("--category", default="clean", show_default=True, help="Fixture category.")
@click.option("--rubric", "rubrics", multiple=True, metavar="TEXT", help="A rubric statement (repeatable).")
@click.option("--rubrics", "rubric_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="A file of rubric statements, one per line.")
@click.option("--ocr", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
              help="OCR pages without a usable text layer (auto), every page, or none.")
@click.option("--split-threads", is_flag=True, help="One fixture per thread of a channel export.")
@click.option("--workers", type=click.IntRange(min=1), help="OCR processes (default: one per core).")
@json_option
@click.pass_obj
def import_sources(env, sources: tuple[str, ...], doc_type: str | None, category: str,  # noqa: ANN001
                   rubrics: tuple[str, ...], rubric_file: str | None, ocr: str, split_threads: bool,
                   workers: int | None, as_json: bool) -> None:
    """Import Mattermost thread exports (.json), chat logs (.jsonl) and PDFs as draft fixtures.

    Everything is anonymised before it is written. A folder imports the files in it;
    a source imported before is skipped.

    Example: curator import examples/threads --split-threads --rubric "The answer cites the lease"
    """
    from curator.ingest import import_sources as run_import
    from curator.ingest import read_rubric_file

    all_rubrics = list(rubrics) + (read_rubric_file(rubric_file) if rubric_file else [])
    report = run_import(env.store(), sources, doc_type=doc_type, category=category, rubrics=all_rubrics,
                        ocr=ocr, split_threads=split_threads, workers=workers, progress=show_progress())
    if not as_json:
        for item in report.created:
            for message in item["warnings"]:
                warn(f"{item['id']}: {message}")

    def text() -> str:
        lines = []
        for item in report.created:
            what = item["doc_type"] or item["kind"]
            extra = f", suggested {', '.join(item['suggested_fields'])}" if item["suggested_fields"] else ""
            lines.append(f"created {item['id']} ({what} from {item['source']}{extra})")
        for item in report.skipped:
            lines.append(f"skipped {item['source']}: already imported as {item['already_imported_as']}")
        lines.append(f"{len(report.created)} fixture(s) created, {len(report.skipped)} source(s) already imported")
        return "\n".join(lines)

    emit(as_json, report.as_dict(), text)
