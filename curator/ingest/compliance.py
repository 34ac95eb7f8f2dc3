"""Mattermost's compliance export (Enterprise: System Console > Compliance > Compliance
Export, or `mmctl compliance-export`), in its CSV and its Actiance XML format.

Each export batch is a zip: `posts.csv` (compliance_csv) with the files under `files/`,
or `actiance_export.xml` (compliance_xml) with the files under their server paths; the
System Console's download is a zip of such batch zips (`batch001-START-END.zip`), read as
one export in name order. Compliance Monitoring's report is a zip of a `posts.csv` too,
with other columns (compliance_report). A posts.csv or actiance_export.xml alone imports
too (its files are then metadata only). Every channel becomes a thread export as
Mattermost's API writes it (compliance_rows) and is cut into fixtures by selection: one per
thread for the CSV, whose reply-to column keeps the threads; one per conversation for
Actiance, which has none. Formats: server/enterprise/message_export/ (csv_export,
actiance_export, shared) and server/public/model/compliance_post.go of
github.com/mattermost/mattermost, and docs.mattermost.com "Compliance export".
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from curator.errors import CuratorError
from curator.ingest.archive import Archive, ZipArchive
from curator.ingest.compliance_csv import MEMBER as CSV_MEMBER
from curator.ingest.compliance_csv import is_compliance_csv, read_csv
from curator.ingest.compliance_rows import Gathered
from curator.ingest.compliance_xml import MEMBER as XML_MEMBER
from curator.ingest.compliance_xml import is_actiance, read_actiance
from curator.ingest.mattermost_bulk import TEXT_EXTENSIONS
from curator.ingest.selection import Selection, channel_fixtures, conversation_fixtures
from curator.ingest.source import Parsed, RawSource, StreamedSource
from curator.limits import DEFAULT, too_big
from curator.model import LimitSettings

CSV = "mattermost-compliance-csv"
ACTIANCE = "mattermost-actiance"
KINDS = (CSV, ACTIANCE)
MEMBERS = {CSV: CSV_MEMBER, ACTIANCE: XML_MEMBER}


def file_kind(raw: RawSource) -> str:
    """The kind of a posts.csv or actiance_export.xml on its own, told by its content."""
    if is_compliance_csv(raw.data):
        return CSV
    if is_actiance(raw.data):
        return ACTIANCE
    raise CuratorError(
        f"{raw.name}: neither a Mattermost compliance export's {CSV_MEMBER} (its header "
        f"names 'Post Creation Time' and 'Post Id') nor an Actiance export (a FileDump)"
    )


def archive_kind(archive: Archive, limits: LimitSettings = DEFAULT) -> str | None:
    """The kind of a compliance export zip (a batch, or a zip of batches); None for another zip."""
    for kind, member in MEMBERS.items():
        if archive.find(member) is not None:
            return kind
    batches = _batch_names(archive)
    if not batches:
        return None
    first = _nested(archive, batches[0], limits)
    return next((kind for kind, member in MEMBERS.items() if first.find(member)), None)


def parse_compliance_export(
    source: RawSource | StreamedSource,
    kind: str,
    *,
    selection: Selection,
    limits: LimitSettings = DEFAULT,
    archive: Archive | None = None,
) -> list[Parsed]:
    """The fixtures-to-be of a compliance export of `kind` (a zip when `archive` is given)."""
    gathered = Gathered()
    member = MEMBERS[kind]
    if archive is None:
        assert isinstance(source, RawSource)  # a file alone is read whole
        # parsed whole, as a JSON input is: within the same limit
        if len(source.data) > limits.json_bytes:
            too = too_big(len(source.data), limits.json_bytes, "max_json_mb")
            raise CuratorError(f"{source.name}: {too}")
        _read(kind, source.data, source.name, gathered, None, ".")
    else:
        for batch, where in _batches(archive, source.name, member, limits):
            found = batch.find(member)
            if found is None:
                raise CuratorError(f"{where}: no {member} in the archive")
            data = batch.read(found)  # parsed whole, as a JSON member is
            root = str(PurePosixPath(found).parent)
            _read(kind, data, f"{where}: {found}", gathered, batch, root)
    exports = gathered.exports()
    if not exports:
        raise CuratorError(f"{source.name}: the export has no posts")
    if kind == CSV:
        return channel_fixtures(exports, CSV, source.name, selection)
    return conversation_fixtures(exports, ACTIANCE, source.name, selection)


def _read(
    kind: str, data: bytes, where: str, gathered: Gathered, archive: Archive | None, root: str
) -> None:
    def file(path: str, where: str) -> tuple[int, str | None]:
        """A file's size and, for a text file, its base64, by its path in the zip; a file
        the zip lacks (Mattermost lists those in warning.txt) keeps its metadata only."""
        name = path.lstrip("/") if root == "." else f"{root}/{path.lstrip('/')}"
        if archive is None or not archive.has(name):
            return 0, None
        extension = PurePosixPath(name).suffix.lstrip(".").lower()
        if extension not in TEXT_EXTENSIONS:
            return archive.size(name), None
        return archive.size(name), base64.b64encode(archive.read(name)).decode("ascii")

    if kind == CSV:
        read_csv(data, where, gathered, lambda path, name, where: file(path, where))
    else:
        read_actiance(data, where, gathered, file)


def _batch_names(archive: Archive) -> list[str]:
    return [name for name in archive.names() if name.lower().endswith(".zip")]


def _nested(archive: Archive, name: str, limits: LimitSettings) -> Archive:
    data = archive.read(name, json=False)
    return ZipArchive(RawSource(Path(f"{archive.name}: {PurePosixPath(name).name}"), data), limits)


def _batches(
    archive: Archive, name: str, member: str, limits: LimitSettings
) -> Iterator[tuple[Archive, str]]:
    """The export's batches: the zip itself, or each batch zip in it, in name order."""
    if archive.find(member) is not None:
        yield archive, name
        return
    for batch in _batch_names(archive):
        nested = _nested(archive, batch, limits)
        yield nested, nested.name
