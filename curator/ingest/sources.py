"""What a source is and what it holds: a file, a folder or an export told apart by its
suffix and its content, read and checked (`read_checked`), then parsed into the
fixtures-to-be it yields (`parse`). An export may come zipped or unzipped (its folder is one
source, `expand`). A Mattermost bulk export is not read whole: its lines are checked here
(`BulkExport.survey`) and its threads read as they are imported.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from curator.errors import CuratorError
from curator.ingest.archive import (
    Archive,
    FolderArchive,
    ZipArchive,
    folder_source,
    read_folder,
)
from curator.ingest.chat_jsonl import parse_chat_jsonl
from curator.ingest.compliance import KINDS as COMPLIANCE
from curator.ingest.compliance import MEMBERS as COMPLIANCE_MEMBERS
from curator.ingest.compliance import archive_kind as compliance_archive_kind
from curator.ingest.compliance import file_kind as compliance_file_kind
from curator.ingest.compliance import parse_compliance_export
from curator.ingest.conversations import (
    is_conversation,
    is_conversation_lines,
    parse_conversation_file,
    parse_conversation_lines,
)
from curator.ingest.documents import check_document, parse_documents
from curator.ingest.image import SUFFIXES as IMAGE_SUFFIXES
from curator.ingest.mattermost_bulk import LINES, BulkExport, is_bulk_lines, parse_bulk_export
from curator.ingest.report import Outcomes
from curator.ingest.selection import Selection
from curator.ingest.slack import is_slack_archive, parse_slack_export
from curator.ingest.source import Parsed, RawSource, StreamedSource, read_source, stream_source
from curator.ingest.threads import check_export_shape, load_json, parse_thread_export
from curator.model import LimitSettings

SUFFIXES = {
    ".json": "thread",
    ".jsonl": "chat",
    ".csv": "compliance",
    ".xml": "compliance",
    ".zip": "archive",
    ".pdf": "document",
} | dict.fromkeys(IMAGE_SUFFIXES, "document")
KNOWN = ".json, .jsonl, .csv, .xml, .zip, .pdf, .png, .jpg or .tif"
# What a compliance export batch holds beside its posts (no source of its own).
EXPORT_NOTES = frozenset({"metadata.json"})
# Workspace exports, told apart by content: they share suffixes with other kinds.
WORKSPACE = ("mattermost-bulk", "slack", *COMPLIANCE)
Source = RawSource | StreamedSource
# A source's fixtures-to-be: parsed whole, or a bulk export's threads as they are read.
Items = list[Parsed] | BulkExport


def expand(sources: Sequence[str | Path]) -> list[Path]:
    """Every source file; a folder means the importable files under it, or the folder
    itself when it is an unzipped export: Slack's (users.json and channels.json at its top),
    Mattermost's bulk or compliance export (`_is_mattermost_folder`)."""
    if not sources:
        raise CuratorError("no sources given")
    found: list[Path] = []
    for source in sources:
        path = Path(source)
        if path.is_dir() and (_is_slack_folder(path) or _is_mattermost_folder(path)):
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


def _is_slack_folder(path: Path) -> bool:
    return (path / "users.json").is_file() and (path / "channels.json").is_file()


def _is_mattermost_folder(path: Path) -> bool:
    """A Mattermost bulk export (import.jsonl) or compliance export batch (posts.csv,
    actiance_export.xml) unzipped: one source, its attachments with it. A folder that also
    holds other sources at its top (zips, PDFs, threads) is a folder of sources."""
    members = {LINES, *COMPLIANCE_MEMBERS.values()}
    top = [entry for entry in path.iterdir() if entry.is_file()]
    return any(entry.name in members for entry in top) and all(
        entry.name in members or entry.name in EXPORT_NOTES or entry.suffix.lower() not in SUFFIXES
        for entry in top
    )


def kind_of(path: Path) -> str:
    if path.suffix.lower() in SUFFIXES:
        return SUFFIXES[path.suffix.lower()]
    if not path.exists():
        raise CuratorError(f"{path}: no such file")
    raise CuratorError(f"{path}: unknown source type (expected {KNOWN})")


def read_checked(path: Path, limits: LimitSettings, *, stream: bool = True) -> tuple[Source, str]:
    """The source and its kind; with `stream`, a Mattermost bulk export is not read whole
    but left to be read as it is imported."""
    if path.is_dir() and _is_slack_folder(path):
        # packed, as it always was: the same folder keeps the key it was imported under
        raw = read_folder(path, limits)
        return raw, archive_kind(ZipArchive(raw, limits))
    if path.is_dir():  # a Mattermost export unzipped, read where it lies
        return folder_source(path), archive_kind(FolderArchive(path, limits))
    kind = kind_of(path)
    if stream and kind in ("archive", "chat"):
        streamed = stream_source(path)
        if kind == "chat" and is_bulk_lines(streamed.head):
            return streamed, "mattermost-bulk"
        if kind == "archive" and ZipArchive(streamed, limits).find(LINES) is not None:
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
        kind = archive_kind(ZipArchive(raw, limits))
    elif kind == "compliance":
        kind = compliance_file_kind(raw)
    elif is_bulk_lines(raw.data):
        kind = "mattermost-bulk"
    elif is_conversation_lines(raw.data, limits):
        kind = "conversations"
    return raw, kind


def archive_kind(archive: Archive) -> str:
    if archive.find(LINES) is not None:
        return "mattermost-bulk"
    if is_slack_archive(archive):
        return "slack"
    compliance = compliance_archive_kind(archive, archive.limits)
    if compliance is not None:
        return compliance
    raise CuratorError(
        f"{archive.name}: neither a Mattermost bulk export ({LINES}) or compliance export "
        "(posts.csv, actiance_export.xml) nor a Slack export (users.json, channels.json)"
    )


def archive_of(source: Source, limits: LimitSettings) -> Archive | None:
    """The members of a source of many files: a zip's or an unzipped export's (a Slack
    folder comes packed in memory); None for a file alone."""
    if isinstance(source, StreamedSource) and source.path.is_dir():
        return FolderArchive(source.path, limits)
    if source.path.suffix.lower() == ".zip" or source.path.is_dir():
        return ZipArchive(source, limits)
    return None


def parse(
    todo: list[tuple[Source, str]],
    outcomes: Outcomes,
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
        if streams(raw, kind, selection):
            items = outcomes.attempt(
                raw.name,
                lambda raw=raw: surveyed(raw, selection, limits),  # type: ignore[misc]
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
                lambda raw=raw, kind=kind: workspace(raw, kind, selection, limits),  # type: ignore[misc]
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


def streams(raw: Source, kind: str, selection: Selection) -> bool:
    """Whether a source is read a thread at a time as it is imported: a bulk export not
    read whole (as one fixture per channel needs it)."""
    return (
        kind == "mattermost-bulk" and isinstance(raw, StreamedSource) and not selection.per_channel
    )


def surveyed(source: StreamedSource, selection: Selection, limits: LimitSettings) -> BulkExport:
    """A bulk export read as it goes, its first pass done: every line checked."""
    export = BulkExport(
        source, selection=selection, limits=limits, archive=archive_of(source, limits)
    )
    export.survey()
    return export


def workspace(raw: Source, kind: str, selection: Selection, limits: LimitSettings) -> list[Parsed]:
    """The fixtures-to-be of a Mattermost bulk or compliance export or a Slack export, all
    at once."""
    if streams(raw, kind, selection):
        assert isinstance(raw, StreamedSource)
        return list(surveyed(raw, selection, limits).threads())
    archive = archive_of(raw, limits)
    if kind == "slack":
        assert archive is not None and isinstance(raw, RawSource)
        return parse_slack_export(raw, selection=selection, archive=archive, limits=limits)
    if kind in COMPLIANCE:
        return parse_compliance_export(
            raw, kind, selection=selection, limits=limits, archive=archive
        )
    return parse_bulk_export(raw, selection=selection, limits=limits, archive=archive)
