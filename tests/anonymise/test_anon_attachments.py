"""Attachments in any base64 variant and text encoding: decoded, rewritten, written back the same
way."""

from __future__ import annotations

import base64
import copy
import zlib

import pytest

from curator.anonymise import anonymise, find_leaks
from curator.anonymise.attachments import read_attachment
from curator.anonymise.json_strings import texts_of, undecodable_attachments
from curator.errors import CuratorError
from curator.model import ThreadContent

TEXT = "Handover from Renée Dufresne to Oskar Lindqvist.\nCall Renée on +47 912 48 306.\n"


def _wrap(encoded: str, width: int = 76, newline: str = "\n") -> str:
    return newline.join(encoded[i : i + width] for i in range(0, len(encoded), width))


VARIANTS = {
    "padded": lambda raw: base64.b64encode(raw).decode(),
    "unpadded": lambda raw: base64.b64encode(raw).decode().rstrip("="),
    "wrapped at 76": lambda raw: _wrap(base64.b64encode(raw).decode()),
    "wrapped with CRLF": lambda raw: _wrap(base64.b64encode(raw).decode(), newline="\r\n"),
    "URL-safe": lambda raw: base64.urlsafe_b64encode(raw).decode(),
}
ENCODINGS = {
    "UTF-8": lambda text: text.encode("utf-8"),
    "UTF-8 with BOM": lambda text: b"\xef\xbb\xbf" + text.encode("utf-8"),
    "UTF-16 LE with BOM": lambda text: b"\xff\xfe" + text.encode("utf-16-le"),
    "UTF-16 BE with BOM": lambda text: b"\xfe\xff" + text.encode("utf-16-be"),
    "UTF-16 LE without BOM": lambda text: text.encode("utf-16-le"),
    "Latin-1": lambda text: text.encode("latin-1"),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_every_variant_decodes_and_writes_back_byte_for_byte(variant, encoding):
    payload = VARIANTS[variant](ENCODINGS[encoding](TEXT))
    attachment = read_attachment(payload)
    assert attachment is not None and attachment.text == TEXT
    assert attachment.encode(TEXT) == payload


def _png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            len(data).to_bytes(4, "big") + kind + data + zlib.crc32(kind + data).to_bytes(4, "big")
        )

    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", bytes([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]))
        + chunk(b"tEXt", b"Author\x00Renee Dufresne")
        + chunk(b"IEND", b"")
    )


@pytest.mark.parametrize(
    "payload",
    [
        base64.b64encode(_png()).decode(),
        base64.b64encode(bytes(range(256))).decode(),
        "not base64 at all!",
    ],
)
def test_bytes_that_are_no_text_are_not_read_as_text(payload):
    assert read_attachment(payload) is None
    assert list(undecodable_attachments({"files": {"f1": payload}}, "content.json")) == [
        "content.json.files.f1"
    ]


def _thread(export: dict, payload: str) -> ThreadContent:
    export = copy.deepcopy(export)
    file_id = next(iter(export["files"]))
    export["files"][file_id] = payload
    return ThreadContent.model_validate({"kind": "thread", "export": export})


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("encoding", ["UTF-8", "UTF-16 LE with BOM", "Latin-1"])
def test_attachment_text_is_rewritten_and_stored_in_the_variant_it_came_in(
    vault, export, variant, encoding
):
    result = anonymise(_thread(export, VARIANTS[variant](ENCODINGS[encoding](TEXT))), vault)
    assert result.leaks == []
    [payload] = result.content.export.files.values()
    stored = read_attachment(payload)
    assert stored is not None
    assert (
        "Renée" not in stored.text
        and "Lindqvist" not in stored.text
        and "912 48 306" not in stored.text
    )
    assert stored.text.startswith("Handover from ")
    came_in = variant
    if variant == "unpadded" and len(ENCODINGS[encoding](TEXT)) % 3 == 0:
        came_in = "padded"  # it needed no padding: nothing told it from a padded one
    assert payload == VARIANTS[came_in](ENCODINGS[encoding](stored.text))


def test_the_audit_reads_names_planted_in_any_variant(vault):
    vault.pseudonym("Renée Dufresne", "person")
    for variant in VARIANTS.values():
        for encoding in ENCODINGS.values():
            texts = texts_of({"files": {"f1": variant(encoding(TEXT))}}, "content.json")
            assert {leak.location for leak in find_leaks(texts, vault)} == {
                "content.json.files.f1(decoded)"
            }


def test_a_binary_attachment_is_refused_never_kept(vault, export):
    with pytest.raises(CuratorError, match="is not text in any encoding"):
        anonymise(_thread(export, base64.b64encode(_png()).decode()), vault)
