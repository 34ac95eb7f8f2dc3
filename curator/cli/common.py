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
from collections.abc import Callable
from typing import Any, Protocol

import click
from pydantic import BaseModel

from curator.model import Kind, Status

STATUSES = [status.value for status in Status]
KINDS = [kind.value for kind in Kind]


class Result(Protocol):
    @property
    def exit_code(self) -> int:
        """0 done, 1 a check found problems, 2 some input was refused (promote's rejected lines;
        bad input that stops a command is raised as CuratorError instead)."""
        ...

    def render(self) -> str:
        """The human text."""
        ...

    def as_json(self) -> object:
        """The --json document: JSON data, or a pydantic model (serialised by pydantic)."""
        ...


def prints_result(command: Callable[..., Result]) -> Callable[..., None]:
    """Give `command` a --json option; print the Result it returns and exit with its code.

    Put it under the options and over `pass_env`, so --json is listed last.
    """

    @functools.wraps(command)
    def run(*args: Any, as_json: bool, **kwargs: Any) -> None:
        result = command(*args, **kwargs)
        if as_json:
            click.echo(json_document(result.as_json()), nl=False)
        elif text := result.render():
            click.echo(text)
        click.get_current_context().exit(result.exit_code)

    return click.option(
        "--json", "as_json", is_flag=True, help="Print one JSON document on stdout."
    )(run)


def json_document(data: object) -> str:
    if isinstance(data, BaseModel):
        # pydantic's serialiser: the stdlib's pure-Python indenting encoder is far slower.
        return data.model_dump_json(indent=2) + "\n"
    return json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n"


def warn(message: str) -> None:
    click.echo(f"curator: warning: {message}", err=True)


def error_line(message: str) -> None:
    """One refused input among others the command went on with (it then exits 2)."""
    click.echo(f"curator: error: {message}", err=True)


def show_progress() -> bool:
    """Progress bars only on a terminal; pipes and CI stay quiet."""
    return sys.stderr.isatty()
