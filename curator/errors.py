"""Errors the CLI turns into exit codes, and turning an error into one line.

Kept free of heavy imports so --help stays fast: pydantic is named only for type checking.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import ValidationError


class CuratorError(Exception):
    """Bad usage or bad input: the CLI prints one line and exits 2, the store is unchanged."""

    exit_code = 2


class StoreNotFound(CuratorError):
    """No curator.toml in the given folder or any folder above it."""


class FixtureNotFound(CuratorError):
    """An id that names no fixture in the store."""


def first_problem(error: ValidationError) -> str:
    """One line out of a pydantic error: where and what, enough to fix the file."""
    problem = error.errors()[0]
    where = ".".join(str(part) for part in problem["loc"]) or "top level"
    more = f" (and {error.error_count() - 1} more)" if error.error_count() > 1 else ""
    return f"{where}: {problem['msg']}{more}"
