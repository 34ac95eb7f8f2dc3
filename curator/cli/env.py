"""The object every command gets: which store to open.

Kept free of curator imports beyond the type checker's, so `curator --help` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from curator.store import Store


class Env:
    # A plain class: `curator --help` loads no dataclasses otherwise.
    def __init__(self, store_path: str | None) -> None:
        self.store_path = store_path

    def store(self) -> Store:
        """The store named by --store / $CURATOR_STORE, else the nearest one upward."""
        from curator.store import Store

        return Store.open(Path(self.store_path) if self.store_path else None)


# A command decorated with it gets the Env as its first argument.
pass_env = click.make_pass_decorator(Env)
