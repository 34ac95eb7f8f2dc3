"""The Actiance XML compliance export: `actiance_export.xml`, a `FileDump` of one
`Conversation` per channel (server/enterprise/message_export/actiance_export/
actiance_export.go and its testdata/actiance*.tmpl).

A conversation has its `Perspective` (the channel's display name), `RoomID` ("TYPE - NAME -
ID"), `StartTimeUTC` and `EndTimeUTC` of the window, then in order `ParticipantEntered`,
`Message` (`MessageId`, `LoginName`, `UserType`, `DateTimeUTC`, `UpdatedType`,
`UpdatedDateTimeUTC`, `EditedNewMsgId`, `Content`, `PreviewsPost`), `FileTransferStarted`
and `FileTransferEnded` (`LoginName`, `UserFileName`, `FileName`: the file's path, under
which the zip holds it) and `ParticipantLeft`. People are known by login and e-mail only
(`LoginName`, `CorporateEmailID`): a user's id is made from the login, the username is the
login's part before the @. Messages carry no thread: the conversation is the channel.
Who was in the channel when the window opened (entered at its start) or still was when
it closed (left at its end) is bookkeeping, not an event.

Parsed with defusedxml: a DTD (and so any entity, the billion-laughs kind included) is
refused, as no export has one.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree  # its types and ParseError: defusedxml parses
from collections.abc import Callable
from dataclasses import replace

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from curator.errors import CuratorError
from curator.ingest.chat_ids import mattermost_id
from curator.ingest.compliance_rows import DELETED, DELETED_PREFIX, Channel, Gathered, Person, Row

MEMBER = "actiance_export.xml"
ROOT = "FileDump"
CHANNEL_TYPES = {"public": "O", "private": "P", "direct": "D", "group": "G"}
FILE_DELETED = "FileDeleted"
# A time below this is in seconds (the Go structs' comments say seconds): in milliseconds
# it would be before March 1973.
SECONDS_BELOW = 100_000_000_000
# (zip path, where) -> (size, base64 of a text file or None for metadata only)
Files = Callable[[str, str], tuple[int, str | None]]


def no_files(path: str, where: str) -> tuple[int, str | None]:
    """An actiance_export.xml alone: its files are named, not held."""
    return 0, None


def is_actiance(data: bytes) -> bool:
    """Whether the document's root is a FileDump (looked for, not parsed)."""
    return b"<" + ROOT.encode() in data[:4096]


def read_actiance(data: bytes, where: str, gathered: Gathered, files: Files = no_files) -> None:
    """Every conversation of `data` (an actiance_export.xml named `where`) into `gathered`."""
    try:
        root = fromstring(data, forbid_dtd=True)
    except ElementTree.ParseError as error:
        line, column = error.position
        reason = str(error).split(":", 1)[0]  # expat's words ("mismatched tag"), no input
        raise CuratorError(f"{where}:{line}:{column}: not well-formed XML ({reason})") from None
    except DefusedXmlException:
        raise CuratorError(f"{where}: holds a DTD or entities, which no export has") from None
    if root.tag != ROOT:
        raise CuratorError(f"{where}: the root element is not {ROOT}: not an Actiance export")
    for number, conversation in enumerate(root.findall("Conversation"), start=1):
        _Conversation(conversation, f"{where}: conversation {number}", gathered, files).read()


class _Conversation:
    def __init__(
        self, element: ElementTree.Element, where: str, gathered: Gathered, files: Files
    ) -> None:
        self.element = element
        self.where = where
        self.gathered = gathered
        self.files = files
        self.channel = self._channel()
        self.start = _maybe_ms(element, "StartTimeUTC", where)
        self.end = _maybe_ms(element, "EndTimeUTC", where)
        self.last_post: dict[str, Row] = {}  # login -> their latest message: its files follow it

    def _channel(self) -> Channel:
        room = _text(self.element, "RoomID", self.where, required=True)
        kind, _, rest = room.partition(" - ")
        name, _, channel_id = rest.rpartition(" - ")
        if kind not in CHANNEL_TYPES or not channel_id.strip():
            raise CuratorError(f"{self.where}: RoomID is not 'TYPE - NAME - ID'")
        return Channel(
            id=channel_id.strip(),
            name=name,
            display_name=self.element.get("Perspective") or name,
            type=CHANNEL_TYPES[kind],
        )

    def read(self) -> None:
        counts: dict[str, int] = {}
        for child in self.element:
            counts[child.tag] = counts.get(child.tag, 0) + 1
            where = f"{self.where}, {child.tag} {counts[child.tag]}"
            if child.tag == "Message":
                self._message(child, where)
            elif child.tag in ("ParticipantEntered", "ParticipantLeft"):
                self._participant(child, where, joined=child.tag == "ParticipantEntered")
            elif child.tag == "FileTransferStarted":
                self._file(child, where)

    def _person(self, element: ElementTree.Element, where: str) -> Person:
        login = _text(element, "LoginName", where, required=True)
        email = _text(element, "CorporateEmailID", where) or login
        return Person(
            id=mattermost_id("actiance-user", login.casefold()),
            username=login.partition("@")[0],
            email=email,
            is_bot=_text(element, "UserType", where) == "bot",
        )

    def _participant(self, element: ElementTree.Element, where: str, *, joined: bool) -> None:
        person = self._person(element, where)
        at = _ms(element, "DateTimeUTC", where)
        bounds = self.start if joined else self.end
        if bounds is not None and at == bounds:
            return  # in the channel when the window opened, or still when it closed
        verb = "joined" if joined else "left"
        self.gathered.event(
            self.channel,
            person,
            at,
            joined=joined,
            message=f"@{person.username} {verb} the channel.",
        )

    def _message(self, element: ElementTree.Element, where: str) -> None:
        person = self._person(element, where)
        created = _ms(element, "DateTimeUTC", where)
        kind = _text(element, "UpdatedType", where)
        updated = _maybe_ms(element, "UpdatedDateTimeUTC", where) or created
        row = Row(
            channel=self.channel,
            person=person,
            post_id=_text(element, "MessageId", where, required=True),
            created=created,
            updated=updated,
            update_type=kind,
            edited_by=_text(element, "EditedNewMsgId", where),
            message=_text(element, "Content", where),
            previews=_text(element, "PreviewsPost", where),
        )
        if kind == FILE_DELETED:
            # "delete PATH": the file of that path was deleted; the post's text stands
            path = row.message.removeprefix(DELETED_PREFIX)
            self._attach(row, path, "", where, deleted_at=updated)
            return
        if kind == DELETED:
            row = replace(row, message=row.message.removeprefix(DELETED_PREFIX))
        self.gathered.post(row)
        self.last_post[person.email.casefold()] = replace(row, post_id=row.edited_by or row.post_id)

    def _file(self, element: ElementTree.Element, where: str) -> None:
        person = self._person(element, where)
        path = _text(element, "FileName", where, required=True)
        row = self.last_post.get(person.email.casefold())
        if row is None:
            raise CuratorError(f"{where}: a file transfer with no message of its sender before it")
        self._attach(row, path, _text(element, "UserFileName", where), where)

    def _attach(self, row: Row, path: str, name: str, where: str, *, deleted_at: int = 0) -> None:
        size, data = self.files(path, where) if not deleted_at else (0, None)
        self.gathered.attach(
            row,
            mattermost_id("actiance-file", row.post_id, path),
            name or path.rsplit("/", 1)[-1],
            size=size,
            data=data,
            deleted_at=deleted_at,
        )


def _text(element: ElementTree.Element, tag: str, where: str, *, required: bool = False) -> str:
    found = element.find(tag)
    text = (found.text or "") if found is not None else ""
    if required and not text.strip():
        raise CuratorError(f"{where}: no {tag}")
    return text.strip() if tag != "Content" else text


def _maybe_ms(element: ElementTree.Element, tag: str, where: str) -> int | None:
    return _ms(element, tag, where) if _text(element, tag, where) else None


def _ms(element: ElementTree.Element, tag: str, where: str) -> int:
    text = _text(element, tag, where, required=True)
    if not text.isdigit():
        raise CuratorError(f"{where}: {tag} must be a UTC time in milliseconds")
    value = int(text)
    return value * 1000 if 0 < value < SECONDS_BELOW else value
