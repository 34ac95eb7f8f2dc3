"""Errors the CLI turns into exit codes; kept free of heavy imports so --help stays fast."""


class CuratorError(Exception):
    """Bad usage or bad input: the CLI prints one line and exits 2, the store is unchanged."""

    exit_code = 2


class StoreNotFound(CuratorError):
    """No curator.toml in the given folder or any folder above it."""


class FixtureNotFound(CuratorError):
    """An id that names no fixture in the store."""
