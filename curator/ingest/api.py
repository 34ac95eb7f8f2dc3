"""`import_sources`: raw production inputs in, anonymised draft fixtures out.

Every source is read, validated and parsed (OCR included) before anything is written;
then all fixtures are anonymised and created in one store transaction, so a bad source
anywhere leaves the store as it was. With `keep_going` a bad source is reported (its file
and reason) and left out instead, and the good ones are imported. A source already
imported (same sha256) is skipped.

A Mattermost bulk export is never read whole: its lines are checked in a first pass, then
its threads are parsed, anonymised and written to the transaction's staging area on disk
one at a time (`Transaction.stage_fixture`), and the commit renames them all into place.
Memory holds a thread, not the export.

sources.py says what each source is and parses it; fixtures.py makes each fixture-to-be a
fixture and stages it; report.py holds what the import says.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from curator.config import doc_type as lookup_doc_type
from curator.errors import CuratorError
from curator.ingest.documents import OCR_MODES
from curator.ingest.fixtures import Builder
from curator.ingest.mattermost_bulk import BulkExport
from curator.ingest.report import ImportReport, Outcomes
from curator.ingest.selection import EVERYTHING, Selection
from curator.ingest.source import read_source
from curator.ingest.sources import Source, expand, parse, read_checked
from curator.labels import default_author
from curator.store import Store


def import_sources(
    store: Store,
    sources: Sequence[str | Path],
    *,
    doc_type: str | None = None,
    category: str = "clean",
    rubrics: Sequence[str] = (),
    tasks: Mapping[str, Sequence[str]] | None = None,
    ocr: str = "auto",
    split_threads: bool = False,
    workers: int | None = None,
    progress: bool = False,
    author: str | None = None,
    keep_going: bool = False,
    keep: Sequence[str] = (),
    selection: Selection = EVERYTHING,
) -> ImportReport:
    """Import threads (.json), chat logs (.jsonl), LLM conversations in OpenAI's chat format
    or request/response logs (.jsonl, one per line, or .json), Mattermost bulk exports (.zip,
    folder, .jsonl), Mattermost compliance exports (.zip, folder, .csv, Actiance .xml), Slack
    exports (.zip or folder), PDFs and scanned images (.png, .jpg, .tif) as anonymised draft
    fixtures.

    `selection`: which threads of a workspace export, one fixture per thread or per channel.

    `keep`: terms kept as written for this run, on top of `[anonymise] keep` in curator.toml.

    `tasks`: task name -> its rubrics, for inputs a system is asked several things of (a
    thread's summary, its action items); `rubrics` are then not given.

    Example: import_sources(store, ["thread.json", "lease.pdf"], doc_type="lease", keep=["Linn"])
    """
    if tasks and rubrics:
        raise CuratorError("give rubrics to a task, or to the default task, not both")
    by_task: dict[str | None, list[str]] = (
        {name: list(texts) for name, texts in tasks.items()}
        if tasks
        else ({None: list(rubrics)} if rubrics else {})
    )
    _check_options(store, doc_type, category, [t for ts in by_task.values() for t in ts], ocr)
    limits = store.limits
    report = ImportReport()
    outcomes = Outcomes(report, keep_going)
    raws: list[tuple[Source, str]] = []
    for path in expand(sources):
        # Every source is read and checked before the slow work starts.
        read = outcomes.attempt(
            path.name,
            lambda path=path: read_checked(path, limits, stream=not selection.per_channel),  # type: ignore[misc]
        )
        if read is not None:
            raws.append(read)
    todo = _new_sources(store, raws, report)
    parsed = parse(
        todo,
        outcomes,
        limits,
        ocr=ocr,
        split_threads=split_threads,
        workers=workers,
        progress=progress,
        selection=selection,
    )
    if not parsed:
        return report
    from curator.anonymise import Keep, Vault, reserve_people, reserve_users

    build = Builder(
        store,
        doc_type=doc_type,
        category=category,
        rubrics=by_task,
        author=author or default_author(),
        keep=Keep.of(store.config.anonymise, keep),
    )
    # The vault is read, extended and saved under the store lock, so two imports running at
    # once never lose each other's pseudonyms; a source the other one imported meanwhile is skipped.
    with store.transaction() as txn:
        vault = Vault.open(store)
        raced = store.find_by_sources(raw.sha256 for raw, _ in parsed)
        reserve_people(
            [item.content for _, items in parsed if isinstance(items, list) for item in items],
            vault,
        )
        for _, items in parsed:
            if isinstance(items, BulkExport):
                reserve_users(items.people(), vault)
        for raw, items in parsed:
            if raw.sha256 in raced:
                report.skipped.append(
                    {
                        "source": raw.name,
                        "sha256": raw.sha256,
                        "already_imported_as": raced[raw.sha256],
                    }
                )
                continue
            made = outcomes.attempt(
                raw.name,
                lambda raw=raw, items=items: build.source(txn, raw, items, vault),  # type: ignore[misc]
            )
            report.created.extend(made or [])
        if report.created:
            vault.save()  # before the fixtures land: a pseudonym is never used but unrecorded
    return report


def _new_sources(
    store: Store,
    raws: list[tuple[Source, str]],
    report: ImportReport,
) -> list[tuple[Source, str]]:
    """The sources not imported before (into the store, or earlier in this run)."""
    in_store = store.find_by_sources(raw.sha256 for raw, _ in raws) if raws else {}
    todo: list[tuple[Source, str]] = []
    seen: dict[str, str] = {}
    for raw, kind in raws:
        # A source seen earlier in this run is named by its file, one in the store by its fixture.
        earlier = in_store.get(raw.sha256) or seen.get(raw.sha256)
        if earlier:
            report.skipped.append(
                {"source": raw.name, "sha256": raw.sha256, "already_imported_as": earlier}
            )
            continue
        seen[raw.sha256] = raw.name
        todo.append((raw, kind))
    return todo


def read_rubric_file(path: str | Path) -> list[str]:
    """Rubrics, one per line; blank lines and lines starting with # are skipped."""
    raw = read_source(Path(path))
    try:
        text = raw.data.decode("utf-8")
    except UnicodeDecodeError:
        raise CuratorError(f"{raw.name}: rubric file is not UTF-8 text") from None
    return [
        line.strip()
        for line in text.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]


def task_rubrics(
    tasks: Sequence[str], texts: Sequence[str], files: Sequence[str | Path]
) -> dict[str, list[str]]:
    """`--task NAME` with the rubrics given for it: one task takes every `--rubric` and
    `--rubrics FILE`; several take one file each, in the order given."""
    if len(set(tasks)) != len(tasks):
        raise CuratorError("a task is named twice with --task")
    if len(tasks) == 1:
        every = [*texts, *(t for f in files for t in read_rubric_file(f))]
        if not every:
            raise CuratorError(f"task {tasks[0]}: give its rubrics (--rubrics FILE or --rubric)")
        return {tasks[0]: every}
    if texts or len(files) != len(tasks):
        raise CuratorError(
            f"{len(tasks)} tasks need {len(tasks)} rubric files (--task NAME --rubrics FILE "
            "for each, in order) and no --rubric"
        )
    given = {task: read_rubric_file(file) for task, file in zip(tasks, files, strict=True)}
    empty = [task for task, texts in given.items() if not texts]
    if empty:
        raise CuratorError(f"task {empty[0]}: its rubric file holds no rubric")
    return given


def _check_options(
    store: Store, doc_type: str | None, category: str, rubrics: Sequence[str], ocr: str
) -> None:
    config = store.config
    if doc_type is not None:
        lookup_doc_type(config, doc_type)
    if config.store.categories and category not in config.store.categories:
        raise CuratorError(
            f"unknown category {category!r} (known: {', '.join(config.store.categories)})"
        )
    if ocr not in OCR_MODES:
        raise CuratorError(f"--ocr must be one of {', '.join(OCR_MODES)}, got {ocr!r}")
    if any(not text.strip() for text in rubrics):
        raise CuratorError("a rubric cannot be empty")
