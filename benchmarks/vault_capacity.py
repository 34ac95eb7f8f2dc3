"""How many people one store's vault holds: a chat log of 100,000 distinct people imported
into one store, and the draw it replaced, which runs out.

Data: synthetic people (tests/anonymise/synth.py `people`, seed 28): a given and a family
name of one Faker locale, drawn from the name lists of every locale Faker ships, Latin script
or not. No real person; the hardest case for a vault, since its originals are the very
names pseudonyms are drawn from. Each person writes one message naming themselves
(`chat_log`, threads of 50), and the log is imported with `split_threads`, as
`curator import --split-threads` does, with a fixed vault key so that two runs print the
same sha256.

    python benchmarks/vault_capacity.py                     # 100,000 people: hours
    python benchmarks/vault_capacity.py --imported 2000     # the vault alone with 100,000

Prints, for the import: vault entries, distinct originals and pseudonyms, fixtures, time,
peak memory and the sha256 of the vault's table; then the vault alone with every person
(reserved, then drawn, as an import does); then the old draw on the same people
(rng.choice of the en_US lists, 2000 attempts), which refuses, and where.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import random
import resource
import sys
import tempfile
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from curator.anonymise import Vault  # noqa: E402
from curator.errors import CuratorError  # noqa: E402
from curator.ingest.api import import_sources  # noqa: E402
from curator.store import Store  # noqa: E402
from tests.anonymise.synth import chat_log, people  # noqa: E402

KEY = hashlib.sha256(b"curator vault capacity benchmark").digest()
OLD_MAX_ATTEMPTS = 2000  # the old draw's limit, after which it refused the import


class OldDrawVault(Vault):
    """The draw before issue 28: each attempt a fresh keyed rng's choice of the locale's
    Faker list (about 700 given and 1000 family names), refused after 2000 attempts."""

    def _candidates(self, original: str, kind: str) -> Iterator[str]:
        lists = _old_lists()
        if kind not in lists:
            return super()._candidates(original, kind)
        return (
            _old_draw(kind, original, self.rng(kind, original, attempt), lists)
            for attempt in range(OLD_MAX_ATTEMPTS)
        )


def _old_lists() -> dict[str, tuple[str, ...]]:
    from faker.providers.person.en_US import Provider

    def plain(names: object) -> tuple[str, ...]:
        return tuple(sorted({n for n in names if n.isalpha() and n.isascii() and len(n) >= 3}))  # type: ignore[attr-defined]

    female, male = plain(Provider.first_names_female), plain(Provider.first_names_male)
    return {
        "first_name": female + male,
        "last_name": plain(Provider.last_names),
        "nickname": female + male,
    }


def _old_draw(
    kind: str, original: str, rng: random.Random, lists: dict[str, tuple[str, ...]]
) -> str:
    name = rng.choice(lists[kind])
    if kind == "nickname" and len(original) <= 4:
        return name[: max(3, min(len(name), len(original) + 1))]
    return name


def old_draw(names: list[str]) -> str:
    """Where the old draw refuses: every person reserved first, as an import does."""
    vault = OldDrawVault(KEY)
    for name in names:
        vault.reserve(name, "person")
    for number, name in enumerate(names, 1):
        try:
            vault.pseudonym(name, "person")
        except CuratorError as error:
            where = f"person {number:,} of {len(names):,}, {len(vault):,} vault entries"
            return f"refused at {where}: {error}"
    return f"held all {len(names):,} people ({len(vault):,} vault entries)"


def normal(text: str) -> str:
    """The vault's key of a value: case, accents and runs of whitespace do not matter."""
    decomposed = unicodedata.normalize("NFKD", " ".join(text.casefold().split()))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def import_log(names: list[str], folder: Path) -> None:
    log = folder / "people.jsonl"
    log.write_bytes(chat_log(names))
    os.environ["CURATOR_VAULT_KEY"] = base64.b64encode(KEY).decode()
    store = Store.init(folder / "store")
    start = time.perf_counter()
    report = import_sources(store, [log], split_threads=True)
    seconds = time.perf_counter() - start
    vault = Vault.load(store)
    assert vault is not None
    entries = vault.entries()
    table = json.dumps([[e.kind, e.original, e.pseudonym] for e in entries], ensure_ascii=False)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"people               {len(names):,}")
    print(f"fixtures             {len(report.created):,} (refused: {len(report.failed)})")
    print(f"vault entries        {len(entries):,}")
    owners: dict[str, set[str]] = {}
    for entry in entries:
        owners.setdefault(normal(entry.pseudonym), set()).add(normal(entry.original))
    print(f"distinct originals   {len({normal(e.original) for e in entries}):,}")
    print(
        f"distinct pseudonyms  {len(owners):,} (shared by two originals: "
        f"{sum(len(o) > 1 for o in owners.values())})"
    )
    print(f"import time          {seconds:,.0f} s ({seconds / len(names) * 1000:.1f} ms a person)")
    print(f"peak memory          {peak_mb:,.0f} MB (the whole process)")
    print(f"vault sha256         {hashlib.sha256(table.encode()).hexdigest()[:16]}")


def fill_vault(names: list[str]) -> None:
    """The vault alone, as an import drives it: every person reserved, then each drawn."""
    vault = Vault(KEY)
    start = time.perf_counter()
    for name in names:
        vault.reserve(name, "person")
    drawn = [vault.pseudonym(name, "person") for name in names]
    seconds = time.perf_counter() - start
    print(
        f"vault alone          {len(names):,} people, {len(vault):,} entries, "
        f"{len({normal(p) for p in drawn}):,} distinct person pseudonyms, {seconds:,.1f} s"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=100_000)
    parser.add_argument(
        "--imported", type=int, help="people in the chat log imported end to end (--people)"
    )
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args()
    names = people(args.people, args.seed)
    print(f"people: {len(names):,} distinct (Faker name lists of every locale, seed {args.seed})")
    with tempfile.TemporaryDirectory(prefix="curator-capacity-") as folder:
        import_log(names[: args.imported or len(names)], Path(folder))
    fill_vault(names)
    print(f"old draw             {old_draw(names)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
