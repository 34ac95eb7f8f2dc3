"""Attachment bytes as text and back, in whatever base64 and text encoding they came.

Mattermost exports carry attachments as base64 (Go writes it padded; other tools strip the
padding, wrap it at 76 characters as MIME does, or use the URL-safe alphabet), and the text
inside may be UTF-8, UTF-16 with or without a byte-order mark, or Latin-1/Windows-1252.
`read_attachment` finds the text and remembers how it was written, so `encode` writes the
rewritten text back the same way. Bytes that are no text in any of these (an image, a PDF)
give None: the anonymiser cannot rewrite them and refuses them, never keeps them raw.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")
BASE64_URL = re.compile(r"[A-Za-z0-9_-]*={0,2}")
BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))
# Control characters no text file holds (tab, newlines and form feed are text)
NOT_TEXT = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


@dataclass(frozen=True)
class TextAttachment:
    """An attachment's text and how its bytes were written."""

    text: str
    codec: str  # utf-8, utf-16-le, utf-16-be, cp1252, latin-1
    bom: bytes = b""
    url_safe: bool = False
    padded: bool = True
    wrap: int = 0  # line length of wrapped base64, 0 for one line
    newline: str = "\n"

    def encode(self, text: str) -> str:
        """`text` as base64 written like this attachment was."""
        raw = self.bom + text.encode(self.codec)
        encoded = (
            base64.urlsafe_b64encode(raw) if self.url_safe else base64.b64encode(raw)
        ).decode("ascii")
        if not self.padded:
            encoded = encoded.rstrip("=")
        if self.wrap:
            encoded = self.newline.join(
                encoded[i : i + self.wrap] for i in range(0, len(encoded), self.wrap)
            )
        return encoded


def read_attachment(payload: object) -> TextAttachment | None:
    """The text a base64 payload holds and how it was written; None for anything else."""
    if not isinstance(payload, str):
        return None
    lines = payload.strip().splitlines()
    compact = "".join(line.strip() for line in lines)
    url_safe = bool(re.search(r"[-_]", compact))
    if not (BASE64_URL if url_safe else BASE64).fullmatch(compact):
        return None
    wrap = len(lines[0].strip()) if len(lines) > 1 else 0
    newline = "\r\n" if "\r\n" in payload else "\n"
    padded = "=" in compact or len(compact) % 4 == 0
    try:
        raw = base64.b64decode(
            compact.rstrip("=") + "=" * (-len(compact.rstrip("=")) % 4),
            altchars=b"-_" if url_safe else None,
            validate=True,
        )
    except (binascii.Error, ValueError):
        return None
    decoded = _text(raw)
    if decoded is None:
        return None
    text, codec, bom = decoded
    return TextAttachment(text, codec, bom, url_safe, padded, wrap, newline)


def decoded_text(payload: object) -> str | None:
    """The text of a base64 attachment, or None when it is not text."""
    attachment = read_attachment(payload)
    return None if attachment is None else attachment.text


def _text(raw: bytes) -> tuple[str, str, bytes] | None:
    for bom, codec in BOMS:
        if raw.startswith(bom):
            return _decoded(raw[len(bom) :], codec, bom)
    found = _decoded(raw, "utf-8")
    if found is not None:
        return found
    # UTF-16 without a byte-order mark: mostly-Latin text has a zero in every other byte
    if len(raw) % 2 == 0 and raw:
        odd, even = raw[1::2].count(0), raw[0::2].count(0)
        if max(odd, even) >= len(raw) // 4:
            found = _decoded(raw, "utf-16-le" if odd > even else "utf-16-be")
            if found is not None:
                return found
    if any(b >= 0x80 for b in raw):
        return _decoded(raw, "cp1252") or _decoded(raw, "latin-1", c1_allowed=False)
    return None


def _decoded(
    raw: bytes, codec: str, bom: bytes = b"", *, c1_allowed: bool = True
) -> tuple[str, str, bytes] | None:
    try:
        text = raw.decode(codec)
    except UnicodeDecodeError:
        return None
    if NOT_TEXT.search(text) or (not c1_allowed and re.search(r"[\x80-\x9f]", text)):
        return None
    return text, codec, bom
