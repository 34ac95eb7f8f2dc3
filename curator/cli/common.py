"""What the command modules share: the Result they return, shared options, stderr notes.

Every command returns a Result and is decorated with `prints_result`, the one place that
prints command output (its text, or its JSON form with --json) and sets the exit code.
A library call that reports something returns a Result itself; where it returns plain
data, the command wraps it in a small Result class next to it.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

import click
from pydantic import BaseModel

from curator.model import Kind, Status
from curator.spill import Spill

STATUSES = [status.value for status in Status]
KINDS = [kind.value for kind in Kind]


class Result(Protocol):
    @property
    def exit_code(self) -> int:
        """0 done, 1 a check found problems, 2 some input was refused (promote's rejected lines;
        bad input that stops a command is raised as CuratorError instead)."""
        ...

    def render(self) -> str | Iterable[str]:
        """The human text, whole or a line at a time (a report of any length)."""
        ...

    def as_json(self) -> object:
        """The --json document: JSON data, or a pydantic model (serialised by pydantic); a
        member of a dict may be a Spill, written a record at a time."""
        ...


def prints_result(command: Callable[..., Result]) -> Callable[..., None]:
    """Give `command` a --json option; print the Result it returns and exit with its code.

    Put it under the options and over `pass_env`, so --json is listed last.
    """

    @functools.wraps(command)
    def run(*args: Any, as_json: bool, **kwargs: Any) -> None:
        result = command(*args, **kwargs)
        if as_json:
            for chunk in json_chunks(result.as_json()):
                click.echo(chunk, nl=False)
        elif isinstance(text := result.render(), str):
            if text:
                click.echo(text)
        else:
            for line in text:
                click.echo(line)
        click.get_current_context().exit(result.exit_code)

    return click.option(
        "--json", "as_json", is_flag=True, help="Print one JSON document on stdout."
    )(run)


def json_chunks(data: object) -> Iterator[str]:
    """`data` as one indented JSON document, in pieces: a dict's Spill members a record at a
    time, as `json.dumps` would have written them as lists."""
    if isinstance(data, BaseModel):
        # pydantic's serialiser: the stdlib's pure-Python indenting encoder is far slower.
        yield data.model_dump_json(indent=2) + "\n"
    elif isinstance(data, dict) and any(isinstance(v, Spill) for v in data.values()):
        yield "{"
        for number, (key, value) in enumerate(data.items()):
            yield ("," if number else "") + f"\n  {_json(key)}: "
            if isinstance(value, Spill):
                yield from _json_list(value)
            else:
                yield _json(value).replace("\n", "\n  ")
        yield "\n}\n"
    else:
        yield _json(data) + "\n"


def _json_list(records: Spill) -> Iterator[str]:
    if not len(records):
        yield "[]"
        return
    for number, record in enumerate(records):
        yield ("," if number else "[") + "\n    " + _json(record).replace("\n", "\n    ")
    yield "\n  ]"


def _json(data: object) -> str:
    # json.dumps writes a newline inside a string as "\n": every newline it writes is its own
    return json.dumps(data, indent=2, ensure_ascii=False, default=str)


def warn(message: str) -> None:
    click.echo(f"curator: warning: {message}", err=True)


def error_line(message: str) -> None:
    """One refused input among others the command went on with (it then exits 2)."""
    click.echo(f"curator: error: {message}", err=True)


def show_progress() -> bool:
    """Progress bars only on a terminal; pipes and CI stay quiet."""
    return sys.stderr.isatty()
