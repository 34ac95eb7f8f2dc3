"""The leak gate: nothing is bundled that contains an original from the pseudonym vault.

The audit (curator.anonymise) owns detection; this only feeds it every text a bundle is
about to write. A store without a vault has nothing to leak from it, so the gate passes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from curator.bundle.serialise import Serialised
from curator.errors import CuratorError
from curator.store import Store


def texts(items: list[Serialised], extra: dict[str, str]) -> Iterator[tuple[str, str]]:
    """(location, text) for every string a bundle will hold, JSON-decoded so escapes hide nothing."""
    for item in items:
        yield from _strings(json.loads(item.line), f"fixtures.jsonl:{item.id}")
        if item.thread is not None:
            yield f"mattermost/{item.id}.json", item.thread
    yield from extra.items()


def _strings(value: Any, where: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, dict):
        for key, inner in value.items():
            yield from _strings(key, f"{where}/{key}")
            yield from _strings(inner, f"{where}/{key}")
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _strings(inner, f"{where}/{index}")


def check(store: Store, items: list[Serialised], extra: dict[str, str]) -> None:
    """Raise (nothing written) when any text about to be bundled holds a vault original."""
    try:
        from curator.anonymise import Vault, find_leaks
    except ImportError:  # the anonymiser is not installed in this checkout
        return
    vault = Vault.load(store)
    if vault is None:
        return
    leaks = find_leaks(texts(items, extra), vault)
    if leaks:
        where = sorted({str(getattr(leak, "location", leak)) for leak in leaks})
        shown = ", ".join(where[:5]) + (f" and {len(where) - 5} more" if len(where) > 5 else "")
        raise CuratorError(f"refusing to bundle: {len(leaks)} leak(s) of vault originals in {shown} (run `curator audit`)")
