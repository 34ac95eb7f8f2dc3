"""The leak gate: nothing is bundled that contains an original from the pseudonym vault.

The audit (curator.anonymise) owns detection; this only feeds it every text a bundle is
about to write, JSON-decoded so escapes hide nothing. The HF and parquet files hold the
same strings as fixtures.jsonl, so the lines stand for them. A store without a vault has
had nothing anonymised into it and no originals to leak, so the gate passes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from curator.bundle.serialise import Serialised
from curator.errors import CuratorError
from curator.store import Store


def texts(items: list[Serialised], extra: dict[str, str]) -> Iterator[tuple[str, str]]:
    """(location, text) of every string the bundle will hold."""
    from curator.anonymise.audit import strings_of

    for item in items:
        yield from strings_of(json.loads(item.line), f"fixtures.jsonl:{item.id}")
        if item.thread is not None:
            yield from strings_of(json.loads(item.thread), f"mattermost/{item.id}.json")
    yield from extra.items()


def check(store: Store, items: list[Serialised], extra: dict[str, str]) -> None:
    """Raise (so nothing is written) when anything about to be bundled leaks."""
    from curator.anonymise import Vault, find_leaks
    from curator.anonymise.audit import synthetic_values

    # Without a vault (a store cloned from git) names cannot be judged, but pattern PII can.
    leaks = find_leaks(texts(items, extra), Vault.load(store), synthetic=synthetic_values(store))
    if leaks:
        where = sorted({leak.location for leak in leaks})
        shown = ", ".join(where[:3]) + (f" and {len(where) - 3} more" if len(where) > 3 else "")
        raise CuratorError(
            f"refusing to bundle: {len(leaks)} leak(s) of personal data in {shown} (run `curator audit`)"
        )
