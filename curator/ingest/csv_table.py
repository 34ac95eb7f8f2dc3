"""A CSV file that came from outside, read as a table: its header, then its rows by column
name, each named by the line it starts on. A row that is not well-formed (a quote left
open), or has more fields than the header, or too few for the required columns, is one
error line naming the file and line; no error line quotes the input."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

from curator.errors import CuratorError


class Fields:
    """One row's fields by header name; a row may lack the last (optional) ones."""

    def __init__(self, columns: dict[str, int], fields: list[str], where: str) -> None:
        self.columns = columns
        self.fields = fields
        self.where = where

    def get(self, name: str) -> str:
        index = self.columns.get(name)
        return self.fields[index] if index is not None and index < len(self.fields) else ""

    def required(self, name: str) -> str:
        text = self.get(name).strip()
        if not text:
            raise CuratorError(f"{self.where}: '{name}' is empty")
        return text


def header_of(data: bytes) -> str:
    """The first line, as far as the first 4 KiB go (looked at, not parsed)."""
    return data[:4096].decode("utf-8", errors="replace").lstrip("\ufeff").split("\n", 1)[0]


def read_table(
    data: bytes, where: str, required: tuple[str, ...], what: str
) -> tuple[set[str], Iterator[Fields]]:
    """The header's column names and the rows of `data` (UTF-8, a byte-order mark allowed);
    a header without every `required` column is not `what`."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CuratorError(f"{where}: not UTF-8 text") from None
    rows = _rows(csv.reader(io.StringIO(text, newline=""), strict=True), where)
    first = next(rows, None)
    if first is None:
        raise CuratorError(f"{where}: empty file")
    header = first[1]
    columns = {name.strip(): index for index, name in enumerate(header)}
    missing = [name for name in required if name not in columns]
    if missing:
        raise CuratorError(f"{where}: no '{missing[0]}' column: not {what}")
    need = max(columns[name] for name in required) + 1

    def table() -> Iterator[Fields]:
        for number, fields in rows:
            at = f"{where}:{number}"
            if not need <= len(fields) <= len(header):
                raise CuratorError(
                    f"{at}: {len(fields)} fields, the header has {len(header)}: a malformed row"
                )
            yield Fields(columns, fields, at)

    return set(columns), table()


def _rows(reader: Any, where: str) -> Iterator[tuple[int, list[str]]]:
    """(line the row starts on, its fields) of every non-blank row."""
    while True:
        start = reader.line_num + 1
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise CuratorError(f"{where}:{start}: not a well-formed CSV row ({error})") from None
        if fields:
            yield start, fields
