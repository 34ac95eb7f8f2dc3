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
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from curator import clock
from curator.config import doc_type as lookup_doc_type
from curator.config import value_locale
from curator.errors import CuratorError
from curator.ingest.archive import Archive, read_folder
from curator.ingest.chat_jsonl import parse_chat_jsonl
from curator.ingest.compliance import KINDS as COMPLIANCE
from curator.ingest.compliance import archive_kind as compliance_archive_kind
from curator.ingest.compliance import file_kind as compliance_file_kind
from curator.ingest.compliance import parse_compliance_export
from curator.ingest.conversations import (
    is_conversation,
    is_conversation_lines,
    parse_conversation_file,
    parse_conversation_lines,
)
from curator.ingest.documents import OCR_MODES, check_document, parse_documents
from curator.ingest.image import SUFFIXES as IMAGE_SUFFIXES
from curator.ingest.mattermost_bulk import LINES, BulkExport, is_bulk_lines, parse_bulk_export
from curator.ingest.privacy import anonymise_one
from curator.ingest.report import ImportReport
from curator.ingest.report import summary as fixture_summary
from curator.ingest.selection import EVERYTHING, Selection
from curator.ingest.slack import is_slack_archive, parse_slack_export
from curator.ingest.source import Parsed, RawSource, StreamedSource, read_source, stream_source
from curator.ingest.suggest import guess_doc_type, no_type_guessed, suggest_revision
from curator.ingest.threads import (
    anonymised_warnings,
    check_export_shape,
    load_json,
    parse_thread_export,
)
from curator.labels import default_author, revise
from curator.model import (
    Content,
    ConversationContent,
    DocumentContent,
    Fixture,
    Kind,
    LabelRevision,
    LimitSettings,
    Provenance,
    ThreadContent,
)
from curator.reading import recorded_locale
from curator.spill import Spill
from curator.store import Store, Transaction, fixture_id

if TYPE_CHECKING:
    from curator.anonymise import Keep, Vault

SUFFIXES = {
    ".json": "thread",
    ".jsonl": "chat",
    ".csv": "compliance",
    ".xml": "compliance",
    ".zip": "archive",
    ".pdf": "document",
} | dict.fromkeys(IMAGE_SUFFIXES, "document")
KNOWN = ".json, .jsonl, .csv, .xml, .zip, .pdf, .png, .jpg or .tif"
# Workspace exports, told apart by content: they share suffixes with other kinds.
WORKSPACE = ("mattermost-bulk", "slack", *COMPLIANCE)
T = TypeVar("T")
Source = RawSource | StreamedSource
# A source's fixtures-to-be: parsed whole, or a bulk export's threads as they are read.
Items = list[Parsed] | BulkExport


class _Outcomes:
    """Runs a step per source: its failure stops the import, or with keep_going is reported
    in the report and the source is left out."""

    def __init__(self, report: ImportReport, keep_going: bool) -> None:
        self.report = report
        self.keep_going = keep_going

    def attempt(self, name: str, step: Callable[[], T]) -> T | None:
        try:
            return step()
        except CuratorError as error:
            if not self.keep_going:
                raise
            self.failed(name, error)
            return None

    def failed(self, name: str, error: CuratorError) -> None:
        self.report.failed.append({"source": name, "reason": str(error)})


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
    .jsonl), Mattermost compliance exports (.zip, .csv, Actiance .xml), Slack exports (.zip
    or folder), PDFs and scanned images (.png, .jpg, .tif) as anonymised draft fixtures.

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
    outcomes = _Outcomes(report, keep_going)
    raws: list[tuple[Source, str]] = []
    for path in expand(sources):
        # Every source is read and checked before the slow work starts.
        read = outcomes.attempt(
            path.name,
            lambda path=path: _read_checked(path, limits, stream=not selection.per_channel),  # type: ignore[misc]
        )
        if read is not None:
            raws.append(read)
    todo = _new_sources(store, raws, report)
    parsed = _parse(
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

    build = _Builder(
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


class _Builder:
    """Anonymises each fixture-to-be of a source, stages it in the transaction and gives
    its summary: nothing of a fixture stays in memory once it is staged."""

    def __init__(
        self,
        store: Store,
        *,
        doc_type: str | None,
        category: str,
        rubrics: Mapping[str | None, Sequence[str]],
        author: str,
        keep: Keep,
    ) -> None:
        self.store = store
        self.doc_type = doc_type
        self.category = category
        self.rubrics = rubrics
        self.author = author
        self.keep = keep

    def source(self, txn: Transaction, raw: Source, items: Items, vault: Vault) -> Spill:
        """The summaries of `raw`'s fixtures, all staged; on a failure none is."""
        point = txn.savepoint()
        summaries = Spill()
        try:
            for item in items.threads() if isinstance(items, BulkExport) else items:
                fixture, content, revisions = _build(
                    self.store,
                    raw,
                    item,
                    vault,
                    doc_type=self.doc_type,
                    category=self.category,
                    rubrics=self.rubrics,
                    author=self.author,
                    keep=self.keep,
                )
                txn.stage_fixture(fixture, content, revisions)
                # the user's own file name
                summaries.append(self._summary(raw.name, fixture, content, revisions))
        except CuratorError:
            txn.rollback_to(point)  # with keep_going the source is left out whole
            raise
        return summaries

    def _summary(
        self, source_name: str, fixture: Fixture, content: Content, revisions: list[LabelRevision]
    ) -> dict[str, Any]:
        summary = fixture_summary(source_name, fixture, content, revisions)
        if isinstance(content, DocumentContent) and fixture.doc_type is None:
            summary["warnings"] = [
                *summary["warnings"],
                f"{source_name}: " + no_type_guessed(content, self.store.config, fixture.id),
            ]
        return summary


def _read_checked(path: Path, limits: LimitSettings, *, stream: bool = True) -> tuple[Source, str]:
    """The source and its kind; with `stream`, a Mattermost bulk export is not read whole
    but left to be read as it is imported."""
    if path.is_dir():  # expand gives a folder only when it is a Slack export
        raw = read_folder(path, limits)
        return raw, _archive_kind(raw, limits)
    kind = _kind_of(path)
    if stream and kind in ("archive", "chat"):
        streamed = stream_source(path)
        if kind == "chat" and is_bulk_lines(streamed.head):
            return streamed, "mattermost-bulk"
        if kind == "archive" and Archive(streamed, limits).find(LINES) is not None:
            return streamed, "mattermost-bulk"
    json_kind = kind in ("thread", "chat")
    raw = read_source(
        path,
        limits.json_bytes if json_kind else limits.file_bytes,
        "max_json_mb" if json_kind else "max_file_mb",
    )
    if kind == "document":
        check_document(raw, limits)
    elif kind == "thread":
        data = load_json(raw, limits)
        if is_conversation(data):
            kind = "conversation"
        else:
            check_export_shape(data, raw.name)
    elif kind == "archive":
        kind = _archive_kind(raw, limits)
    elif kind == "compliance":
        kind = compliance_file_kind(raw)
    elif is_bulk_lines(raw.data):
        kind = "mattermost-bulk"
    elif is_conversation_lines(raw.data, limits):
        kind = "conversations"
    return raw, kind


def _archive_kind(raw: RawSource, limits: LimitSettings) -> str:
    archive = Archive(raw, limits)
    if archive.find(LINES) is not None:
        return "mattermost-bulk"
    if is_slack_archive(archive):
        return "slack"
    compliance = compliance_archive_kind(archive, limits)
    if compliance is not None:
        return compliance
    raise CuratorError(
        f"{raw.name}: neither a Mattermost bulk export ({LINES}) or compliance export "
        "(posts.csv, actiance_export.xml) nor a Slack export (users.json, channels.json)"
    )


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


def _parse(
    todo: list[tuple[Source, str]],
    outcomes: _Outcomes,
    limits: LimitSettings,
    *,
    ocr: str,
    split_threads: bool,
    workers: int | None,
    progress: bool,
    selection: Selection,
) -> list[tuple[Source, Items]]:
    """Each source with the fixtures-to-be it yields, in order; failures as `outcomes` says.
    A bulk export read as it goes is checked whole here; its threads come at import."""
    # Documents are read together so their OCR pages share one pool of workers.
    documents = [raw for raw, kind in todo if kind == "document" and isinstance(raw, RawSource)]
    read = dict(
        zip(
            [id(raw) for raw in documents],
            parse_documents(
                documents,
                ocr=ocr,
                workers=workers,
                progress=progress,
                limits=limits,
                keep_going=outcomes.keep_going,
            ),
            strict=True,
        )
    )
    parsed: list[tuple[Source, Items]] = []
    for raw, kind in todo:
        items: Items | None
        if isinstance(raw, StreamedSource):
            items = outcomes.attempt(
                raw.name,
                lambda raw=raw: _surveyed(raw, selection, limits),  # type: ignore[misc]
            )
        elif kind == "document":
            result = read[id(raw)]
            if isinstance(result, CuratorError):
                outcomes.failed(raw.name, result)
                continue
            items = [result]
        elif kind in WORKSPACE:
            items = outcomes.attempt(
                raw.name,
                lambda raw=raw, kind=kind: _workspace(raw, kind, selection, limits),  # type: ignore[misc]
            )
        elif kind in ("conversation", "conversations"):
            reader = parse_conversation_file if kind == "conversation" else parse_conversation_lines
            items = outcomes.attempt(
                raw.name,
                lambda raw=raw, reader=reader: reader(raw, limits),  # type: ignore[misc]
            )
        elif kind == "chat":
            items = outcomes.attempt(
                raw.name,
                lambda raw=raw: parse_chat_jsonl(  # type: ignore[misc]
                    raw, split_threads=split_threads, limits=limits
                ),
            )
        else:
            items = outcomes.attempt(
                raw.name,
                lambda raw=raw: parse_thread_export(  # type: ignore[misc]
                    raw, split_threads=split_threads, limits=limits
                ),
            )
        if items:
            parsed.append((raw, items))
    return parsed


def _surveyed(source: StreamedSource, selection: Selection, limits: LimitSettings) -> BulkExport:
    """A bulk export read as it goes, its first pass done: every line checked."""
    archive = Archive(source, limits) if source.path.suffix.lower() == ".zip" else None
    export = BulkExport(source, selection=selection, limits=limits, archive=archive)
    export.survey()
    return export


def _workspace(raw: Source, kind: str, selection: Selection, limits: LimitSettings) -> list[Parsed]:
    """The fixtures-to-be of a Mattermost bulk or compliance export or a Slack export, all
    at once."""
    if isinstance(raw, StreamedSource):
        return list(_surveyed(raw, selection, limits).threads())
    if kind == "slack":
        return parse_slack_export(
            raw, selection=selection, archive=Archive(raw, limits), limits=limits
        )
    archive = Archive(raw, limits) if raw.path.suffix.lower() == ".zip" else None
    if kind in COMPLIANCE:
        return parse_compliance_export(
            raw, kind, selection=selection, limits=limits, archive=archive
        )
    return parse_bulk_export(raw, selection=selection, limits=limits, archive=archive)


def expand(sources: Sequence[str | Path]) -> list[Path]:
    """Every source file; a folder means the importable files under it, or the folder
    itself when it is a Slack export (users.json and channels.json at its top)."""
    if not sources:
        raise CuratorError("no sources given")
    found: list[Path] = []
    for source in sources:
        path = Path(source)
        if path.is_dir() and (path / "users.json").is_file() and (path / "channels.json").is_file():
            found.append(path)
        elif path.is_dir():
            files = sorted(
                p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES
            )
            if not files:
                raise CuratorError(f"{path}: no {KNOWN} files in this folder")
            found.extend(files)
        else:
            found.append(path)
    return found


def _kind_of(path: Path) -> str:
    if path.suffix.lower() in SUFFIXES:
        return SUFFIXES[path.suffix.lower()]
    if not path.exists():
        raise CuratorError(f"{path}: no such file")
    raise CuratorError(f"{path}: unknown source type (expected {KNOWN})")


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


def _build(
    store: Store,
    raw: Source,
    item: Parsed,
    vault: Vault,
    *,
    doc_type: str | None,
    category: str,
    rubrics: Mapping[str | None, Sequence[str]],
    author: str,
    keep: Keep,
) -> tuple[Fixture, Content, list[LabelRevision]]:
    from curator.anonymise import anonymise_file_name

    config = store.config
    content = item.content
    revisions: list[LabelRevision] = []
    chosen = None
    spec = None
    if isinstance(
        content, DocumentContent
    ):  # doc types and their suggested fields are documents' alone
        chosen = doc_type or guess_doc_type(content, config)
        if chosen:
            spec = config.doc_types[chosen]
            locale = recorded_locale(value_locale(config, chosen))
            suggestion = suggest_revision(content, spec, locale)
            if suggestion:
                revisions.append(suggestion)
    elif isinstance(content, ConversationContent):
        chosen = doc_type  # its fields are the user's to label: none is suggested
    if rubrics:
        previous = revisions[-1] if revisions else None
        given = previous
        for task, texts in rubrics.items():
            given = revise(
                config,
                chosen,
                content,
                given,
                add_rubrics=texts,
                task=task,
                author=author,
                source="manual",
                reason="rubrics given at import",
            )
        assert given is not None
        # one revision holds every task's rubrics given at import
        revisions.append(given.model_copy(update={"rev": previous.rev + 1 if previous else 1}))
    anonymised = anonymise_one(raw.name, content, revisions, vault, spec, keep)
    source_name = anonymise_file_name(raw.name, vault, keep=keep)
    content, revisions = anonymised.content, list(anonymised.revisions)
    title = _title(content, chosen)
    warnings = anonymised_warnings(content, item.warnings)
    fixture = Fixture(
        id=fixture_id(title, f"{raw.sha256}:{item.part}".encode()),
        kind=Kind(content.kind),
        doc_type=chosen,
        category=category,
        title=title,
        created_at=clock.now_iso(),
        # The base name only, and through the anonymiser: file names can name people too.
        provenance=Provenance(
            source_sha256=raw.sha256,
            source_name=source_name,
            # a thread's file keeps this name in a bundle: say whether it is the source's own
            source_name_anonymised=source_name != raw.name
            if isinstance(content, ThreadContent)
            else None,
            importer=item.importer,
            imported_at=clock.now_iso(),
            vault_id=vault.fingerprint,
            vault_entries=len(vault),
            kept=sorted(anonymised.kept.terms),
            kept_hosts=sorted(anonymised.kept.hosts),
        ),
        warnings=warnings,
    )
    return fixture, content, revisions


def _title(content: Content, doc_type: str | None) -> str:
    """A readable title from the anonymised content (never from the raw source)."""
    # a document's first line of words; a conversation's first user message; a thread's
    # root post, else its channel
    if isinstance(content, ConversationContent):
        asked = [m.content for m in content.messages if m.role == "user" and m.content]
        lines = (asked[0] if asked else "").strip().splitlines()
        return (lines[0] if lines else "conversation")[:80]
    if isinstance(content, DocumentContent):
        for page in content.pages:
            for line in page.text.splitlines():
                if sum(ch.isalpha() for ch in line) >= 3:
                    return line.strip()[:80]
        return doc_type or "document"
    export = content.export
    # System posts ("joined the channel") are not conversation roots.
    roots = [
        p for p in export.ordered_posts() if not p.root_id and not p.type.startswith("system_")
    ]
    channel = str(export.channel.get("display_name") or export.channel.get("name") or "channel")
    if len(roots) == 1 and not content.orphan_post_ids:
        lines = roots[0].message.strip().splitlines()
        return (lines[0] if lines else f"{channel} thread")[:80]
    if not roots:
        return f"{channel} orphan replies"
    return f"{channel} channel"
