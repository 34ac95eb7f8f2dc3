"""Shared option decorators and output helpers for the command modules."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import click

from curator.model import Status

STATUSES = [status.value for status in Status]

json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON document on stdout.")


def emit(as_json: bool, data: Any, text: str | Callable[[], str]) -> None:
    """Print `data` as JSON with --json, else the human text."""
    if as_json:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))
    else:
        rendered = text() if callable(text) else text
        if rendered:
            click.echo(rendered)


def warn(message: str) -> None:
    click.echo(f"curator: warning: {message}", err=True)


def show_progress() -> bool:
    """Progress bars only on a terminal; pipes and CI stay quiet."""
    return sys.stderr.isatty()


def exit_with(ctx: click.Context, code: int) -> None:
    if code:
        ctx.exit(code)
