"""Reading JSON and JSONL that came from outside: every reader of input JSON goes through here.

Thread exports, chat logs, failure records, predictions, eval runs, Label Studio exports,
bundle manifests and lines, and the store's own files (which a `git pull` can change).
What a hostile file can do to Python's json module (a traceback on deep nesting, a
5,001-digit number or a lone surrogate, all the memory on a huge file or on millions of
tiny values) becomes one line naming the file and line (`JsonInputError`, exit 2) under
the limits of `curator.model.LimitSettings`. No error line quotes the input: it may be
personal data.

Two parsers, one contract: `parse` (the json module, with every limit) for free-form
input; `parse_model` (pydantic's own parser, which has its own depth and number limits)
for curator's formats, where speed matters (a bundle build reads every fixture file).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import IO, Any, TypeVar

from pydantic import BaseModel, ValidationError

from curator.errors import CuratorError, first_problem
from curator.limits import DEFAULT, hint, too_big
from curator.model import LimitSettings

ModelT = TypeVar("ModelT", bound=BaseModel)

# A lone surrogate can only come from a \uD800-\uDFFF escape: UTF-8 cannot encode one.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
# A JSON string, unrolled and possessive: linear on any input, never backtracking.
_STRING = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"')


class JsonInputError(CuratorError):
    """Input JSON that cannot be used: where (file, file:line) and why, never the value."""

    def __init__(self, where: str, reason: str, line: int | None = None) -> None:
        super().__init__(f"{where}: {reason}")
        self.where = where
        self.reason = reason
        self.line = line  # where in the document the parser stopped, when it knows


class _Refused(ValueError):
    """Raised inside the json module's hooks; becomes a JsonInputError."""


def parse(data: bytes | str, where: str, limits: LimitSettings = DEFAULT) -> Any:
    """One JSON document, within `limits`."""
    return _parse(data, where, limits, 0)[0]


def parse_lines(
    data: bytes, where: str, limits: LimitSettings = DEFAULT
) -> Iterator[tuple[int, Any]]:
    """(line number, value) of every non-blank JSONL line; the first bad line raises. The
    values of all lines together count against [limits] max_json_values."""
    values = 0
    for number, raw in lines(data):
        value, values = _parse(raw, f"{where}:{number}", limits, values)
        yield number, value


def parse_each(
    numbered: Iterable[tuple[int, bytes]], where: str, limits: LimitSettings = DEFAULT
) -> Iterator[tuple[int, Any]]:
    """(line number, value) of lines read as they come (`read_lines`): each line is one
    document within `limits` on its own, so a file of any length can be read in memory
    that does not grow with it."""
    for number, raw in numbered:
        yield number, _parse(raw, f"{where}:{number}", limits, 0)[0]


def _parse(data: bytes | str, where: str, limits: LimitSettings, values: int) -> tuple[Any, int]:
    """The document, and `values` plus the number of values in it."""
    if len(data) > limits.json_bytes:
        raise JsonInputError(where, too_big(len(data), limits.json_bytes, "max_json_mb"))
    text = _text(data, where)
    values += _count_values(text)
    if values > limits.max_json_values:
        # Counted before parsing: a million tiny objects cost far more memory than their text.
        raise JsonInputError(
            where, f"more than {limits.max_json_values:,} values ({hint('max_json_values')})"
        )
    digits = limits.max_json_number_digits
    # The hooks cost a call per number: only used when some run of number characters is
    # longer than the limit (a long number, or a long digit run inside a string).
    long_run = re.search(f"[0-9eE.+-]{{{digits + 1},}}", text) is not None

    def number(kind: type) -> Any:
        def convert(token: str) -> Any:
            if len(token) > digits:
                raise _Refused(
                    f"a number of more than {digits} digits ({hint('max_json_number_digits')})"
                )
            return kind(token)

        return convert

    def constant(token: str) -> Any:
        raise _Refused(f"{token} is not JSON")

    try:
        if long_run:
            value = json.loads(
                text, parse_int=number(int), parse_float=number(float), parse_constant=constant
            )
        else:
            value = json.loads(text, parse_constant=constant)
    except json.JSONDecodeError as error:
        raise JsonInputError(
            where,
            f"not valid JSON (line {error.lineno} column {error.colno}: {error.msg})",
            error.lineno,
        ) from None
    except RecursionError:
        raise JsonInputError(where, _too_deep(limits)) from None
    except _Refused as error:
        raise JsonInputError(where, str(error)) from None
    _check_shape(value, where, limits, strings=bool(_SURROGATE_ESCAPE.search(text)))
    return value, values


def _count_values(text: str) -> int:
    """Values in a JSON text (an array's elements, an object's members, the top one), plus
    one per empty array or object: counted on the text with its strings taken out, at C
    speed (a comma ends a value, a bracket starts one)."""
    bare = _STRING.sub("", text) if '"' in text else text
    return bare.count(",") + bare.count("[") + bare.count("{") + 1


def lines(data: bytes) -> Iterator[tuple[int, bytes]]:
    """(line number, bytes) of every non-blank line of JSONL.

    Split on newlines only: JSON strings may hold U+2028 and other characters that
    str.splitlines() would break a line at.
    """
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if raw.strip():
            yield number, raw.rstrip(b"\r")


def read_lines(handle: IO[bytes], where: str, max_bytes: int) -> Iterator[tuple[int, bytes]]:
    """(line number, bytes) of every non-blank line of a JSONL stream, as `lines` gives them
    but one at a time; a line longer than `max_bytes` is refused before it is read whole."""
    number = 0
    while raw := handle.readline(max_bytes + 1):
        number += 1
        if len(raw) > max_bytes:
            raise JsonInputError(f"{where}:{number}", too_big(len(raw), max_bytes, "max_json_mb"))
        if raw.strip():
            yield number, raw.rstrip(b"\n").rstrip(b"\r")


def parse_model(
    model: type[ModelT], data: bytes | str, where: str, limits: LimitSettings = DEFAULT
) -> ModelT:
    """One document of a curator format, through pydantic's parser; problems are one line."""
    if len(data) > limits.json_bytes:
        raise JsonInputError(where, too_big(len(data), limits.json_bytes, "max_json_mb"))
    try:
        return model.model_validate_json(data)
    except ValidationError as error:
        raise JsonInputError(where, first_problem(error)) from None


def _text(data: bytes | str, where: str) -> str:
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise JsonInputError(where, "not UTF-8 text") from None


def _too_deep(limits: LimitSettings) -> str:
    return f"nested deeper than {limits.max_json_depth} levels ({hint('max_json_depth')})"


def _check_shape(value: Any, where: str, limits: LimitSettings, *, strings: bool) -> None:
    """Nesting within the limit, and (when the text has surrogate escapes) no lone surrogate.

    One walk without recursion, so no input can overflow the stack here either.
    """
    deepest = limits.max_json_depth
    level: list[Any] = [value] if isinstance(value, (dict, list)) else []
    depth = 0
    while level:
        depth += 1
        if depth > deepest:
            raise JsonInputError(where, _too_deep(limits))
        below: list[Any] = []
        for item in level:
            children = list(item.values()) if isinstance(item, dict) else item
            below.extend(child for child in children if isinstance(child, (dict, list)))
            if strings:
                _check_texts(item, children, where)
        level = below
    if strings and isinstance(value, str):
        _check_texts(None, [value], where)


def _check_texts(item: Any, children: list[Any], where: str) -> None:
    texts = [*item.keys()] if isinstance(item, dict) else []
    texts += [child for child in children if isinstance(child, str)]
    for text in texts:
        _check_text(text, where)


def _check_text(text: str, where: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise JsonInputError(
            where,
            "a string holds a lone surrogate (half of a \\u escape pair): not valid Unicode text",
        ) from None
