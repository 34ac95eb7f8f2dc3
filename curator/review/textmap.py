"""A document's pages as the one text Label Studio shows, and offsets between the two.

Label Studio marks spans in one `Text`, so pages are joined with a blank line and a table
records where each page starts. Its offsets are JavaScript string indices (UTF-16 code
units), so a character outside the Basic Multilingual Plane counts twice there and once in
Python; every offset crossing the boundary goes through this module.
"""

from __future__ import annotations

from dataclasses import dataclass

from curator.model import DocumentContent

PAGE_SEPARATOR = "\n\n"


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def to_utf16(text: str, index: int) -> int:
    """UTF-16 offset of Python index `index` in `text`."""
    return utf16_len(text[:index])


def from_utf16(text: str, offset: int) -> int | None:
    """Python index of UTF-16 offset `offset`, or None when it splits a surrogate pair or is out of
    range."""
    units = 0
    for index, char in enumerate(text):
        if units == offset:
            return index
        if units > offset:
            return None
        units += 2 if ord(char) > 0xFFFF else 1
    return len(text) if units == offset else None


@dataclass(frozen=True)
class PageText:
    number: int
    start: int  # Python index of the page's first character in the joined text
    end: int


@dataclass(frozen=True)
class JoinedDocument:
    text: str
    pages: tuple[PageText, ...]

    def span_to_utf16(self, page: int, start: int, end: int) -> tuple[int, int]:
        base = self.pages[page - 1].start
        return to_utf16(self.text, base + start), to_utf16(self.text, base + end)

    def span_from_utf16(self, start: int, end: int) -> tuple[int, int, int] | None:
        """(page, start, end) within one page, or None when the span is not inside one page."""
        first, last = from_utf16(self.text, start), from_utf16(self.text, end)
        if first is None or last is None or last < first:
            return None
        for page in self.pages:
            if page.start <= first and last <= page.end:
                return page.number, first - page.start, last - page.start
        return None


def join_pages(content: DocumentContent) -> JoinedDocument:
    pieces: list[str] = []
    pages: list[PageText] = []
    cursor = 0
    for number, page in enumerate(content.pages, start=1):
        if pieces:
            pieces.append(PAGE_SEPARATOR)
            cursor += len(PAGE_SEPARATOR)
        pieces.append(page.text)
        pages.append(PageText(number, cursor, cursor + len(page.text)))
        cursor += len(page.text)
    return JoinedDocument("".join(pieces), tuple(pages))
