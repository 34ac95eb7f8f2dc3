"""A failure record's input as curator content, through the importers' own parsers.

`{"thread": export}`, `{"conversation": {"messages": ...}}` and `{"pdf": path}` /
`{"pdf_base64": ...}` go through curator.ingest exactly as `curator import` reads them
(same validation, text layer, OCR fallback, language); `{"text": ...}` becomes a one-page
document. A path is relative to the record file's folder.
Any reason the input cannot be read is a CuratorError, which rejects that one record.
"""

from __future__ import annotations

import base64
import binascii
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from curator.errors import CuratorError
from curator.model import Content, DocumentContent, FailureInput, Page


@dataclass
class ReadInput:
    content: Content
    warnings: list[str] = field(default_factory=list)


def read_input(given: FailureInput, base: Path, *, ocr: str = "auto") -> ReadInput:
    if given.text is not None:
        return ReadInput(text_document(given.text))
    if given.thread is not None:
        return _thread(given.thread)
    if given.conversation is not None:
        return _conversation(given.conversation)
    if given.pdf is not None:
        path = Path(given.pdf).expanduser()
        return _pdf(path if path.is_absolute() else base / path, ocr)
    return _pdf_bytes(given.pdf_base64 or "", ocr)


def text_document(text: str) -> DocumentContent:
    from curator.ingest.language import detect_language

    if not text.strip():
        raise CuratorError("input text is empty")
    return DocumentContent(
        pages=[Page(number=1, text=text, origin="text-layer", language=detect_language(text))]
    )


def _thread(raw: dict) -> ReadInput:
    from curator.ingest.threads import check_export_shape, from_export, validate_export

    name = "input.thread"
    export = validate_export(check_export_shape(raw, name), name)
    parsed = from_export(raw, export, "promote", name, split_threads=False)[0]
    return ReadInput(parsed.content, parsed.warnings)


def _conversation(raw: dict) -> ReadInput:
    from curator.ingest.conversations import read_conversation

    content, _, warnings = read_conversation(raw, "input.conversation")
    return ReadInput(content, warnings)


def _pdf(path: Path, ocr: str) -> ReadInput:
    from curator.ingest.documents import parse_document
    from curator.ingest.source import read_source

    parsed = parse_document(read_source(path), ocr=ocr)
    return ReadInput(parsed.content, parsed.warnings)


def _pdf_bytes(encoded: str, ocr: str) -> ReadInput:
    try:
        data = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise CuratorError("input.pdf_base64 is not valid base64") from None
    if not data:
        raise CuratorError("input.pdf_base64 is empty")
    # OCR renders pages from a file, so the bytes go to a private temporary file that is
    # deleted at once; it never lives inside the store.
    with tempfile.TemporaryDirectory(prefix="curator-promote-") as folder:
        path = Path(folder) / "input.pdf"
        path.write_bytes(data)
        return _pdf(path, ocr)
