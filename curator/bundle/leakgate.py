"""The leak gate: nothing is bundled that contains an original from the pseudonym vault.

The audit (curator.anonymise) owns detection; this only feeds it every text a bundle is
about to write, JSON-decoded so escapes hide nothing. The HF and parquet files hold the
same strings as fixtures.jsonl, so the lines stand for them. A store without a vault has
had nothing anonymised into it and no originals to leak, but pattern PII is still checked.
Values curator's own mutations made up (recorded in lineage) are no leak.

What refuses a bundle: any vault original (certain: it is personal data we replaced) and
any hit of a precise pattern (emails, checksummed cards and IBANs, SSNs, national ids,
IPs). Fuzzier hits are warnings unless `strict` asks otherwise: name guesses (person,
organisation, address), which in hand-made synthetic fixtures such as the shipped sample
store are not vault pseudonyms, and URLs and phone numbers, which OCR noise imitates
("RENT.Rent", "A.pt").
"""

from __future__ import annotations

import json
import re
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


# Kinds whose hits are likely, not certain, personal data.
GUESSES = frozenset({"person", "organisation", "address", "url", "phone"})


def check(store: Store, items: list[Serialised], extra: dict[str, str], *, strict: bool = False) -> list[str]:
    """Raise (so nothing is written) when anything about to be bundled leaks; return warnings."""
    from curator.anonymise import Vault, find_leaks
    from curator.anonymise.audit import synthetic_values

    # Without a vault (a store cloned from git) names cannot be judged, but pattern PII can.
    leaks = find_leaks(texts(items, extra), Vault.load(store), synthetic=synthetic_values(store))
    blocking = [leak for leak in leaks if strict or leak.kind not in GUESSES]
    if blocking:
        raise CuratorError(
            f"refusing to bundle: {len(blocking)} leak(s) of personal data in {_where(blocking)} "
            "(run `curator audit`)"
        )
    if leaks:
        return [f"{len(leaks)} possible personal data hit(s) not from the vault in {_where(leaks)} (run `curator audit`)"]
    return []


# "fixtures.jsonl:<id>.input.pages[0].text" -> "fixtures.jsonl:<id>"; same for thread files.
_FILE = re.compile(r"^(fixtures\.jsonl:[^.\[#]+|mattermost/[^/]+?\.json|[^:]*?\.md)")


def _file_of(location: str) -> str:
    match = _FILE.match(location)
    return match.group(1) if match else location


def _where(leaks: list) -> str:
    where = sorted({_file_of(leak.location) for leak in leaks})
    return ", ".join(where[:3]) + (f" and {len(where) - 3} more" if len(where) > 3 else "")
