"""A small store with a vault, and the multi-file commands issue 32 makes all or nothing:
shared by the kill tests (test_all_or_nothing.py) and the full-disk tests (test_full_disk.py).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from curator.store import Store
from tests.conftest import CURATOR, subprocess_env
from tests.factories import LEASE_TEXT, add_lease, add_thread
from tests.hostile.conftest import tree
from tests.promote.promote_helpers import lease_failure

EXIT = {"import --keep-going": 2}
# Synthetic chats (invented people), one per source of the imports below.
CHATS = [
    [
        ("Mira Castellanos", "The lift on floor {n} is stuck again."),
        ("Otto Brandvold", "Calling it in."),
    ],
    [("Ines Haaland", "Invoice {n} went to the wrong team."), ("Pavel Kowalczyk", "Fixing it.")],
    [("Ruth Okonkwo", "Room {n} needs a new projector."), ("Sven Aalto", "Ordered one.")],
]


def leases(store: Store) -> list[str]:
    return [add_lease(store, LEASE_TEXT + f"Unit: {n}\n") for n in range(3)]


COMMANDS = {
    "status --where": ["status", "--to", "retired", "--where", "category=clean"],
    "import of three sources": ["import", "{chat0}", "{chat1}", "{chat2}"],
    # One source fails (exit 2); the two others land together or not at all.
    "import --keep-going": ["import", "--keep-going", "{chat0}", "{bad}", "{chat2}"],
    "vault add": ["vault", "add", "Oakridge Holdings", "--kind", "organisation"],
    "vault forget": ["vault", "forget", "Springfield"],
    "mutate --refresh": ["mutate", "--refresh"],
    "promote of a batch": ["promote", "{batch}"],
    "mutate of several": ["mutate", "{lease0}", "{lease1}", "--truncate", "0.5", "--seed", "3"],
    "label set": [
        "label",
        "set",
        "{lease2}",
        "tenant=Dana Whitfield",
        "monthly_rent=$1,300.00",
        "--no-evidence",
        "test",
        "--author",
        "Ana Silva",
    ],
}


def busy_store(folder: Path) -> tuple[Path, dict[str, str]]:
    """A store with three leases, a thread, a stale variant and a vault; the ids of the leases
    and the paths of the inputs COMMANDS name."""
    store = Store.init(folder / "store")
    ids = {f"lease{n}": fixture_id for n, fixture_id in enumerate(leases(store))}
    for n, chat in enumerate(CHATS):
        ids[f"chat{n}"] = str(folder / f"chat{n}.jsonl")
        Path(ids[f"chat{n}"]).write_text(
            "".join(
                json.dumps(
                    {
                        "author": who,
                        "text": text.format(n=n + 2),
                        "time": f"2024-05-0{n + 1}T0{i}:00:00Z",
                        "thread": "1",
                        "id": str(i),
                    }
                )
                + "\n"
                for i, (who, text) in enumerate(chat, start=1)
            )
        )
    ids["bad"] = str(folder / "bad.jsonl")
    Path(ids["bad"]).write_text("not json\n")
    ids["batch"] = str(folder / "batch.jsonl")
    Path(ids["batch"]).write_text(
        "".join(json.dumps(lease_failure(seed, f"trace-{seed}")[0]) + "\n" for seed in (31, 32))
    )
    add_thread(store)
    for setup in (
        ["vault", "add", "Dana Whitfield", "--kind", "person"],
        # a variant made stale by newer labels of its parent, for `mutate --refresh`
        ["mutate", ids["lease1"], "--truncate", "0.5", "--seed", "1"],
        ["label", "set", ids["lease1"], "monthly_rent=$1,275.00", "--no-evidence", "test"],
    ):
        done = cli(store.root, *setup)
        assert done.returncode == 0, done.stdout + done.stderr
    return store.root, ids


def cli(root: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CURATOR, "--store", str(root), *args],
        env=subprocess_env(**ENV, **env),
        capture_output=True,
        text=True,
    )


ENV = {"SOURCE_DATE_EPOCH": "1767225600", "CURATOR_AUTHOR": "tester"}


def state(root: Path) -> dict[str, tuple]:
    """What all or nothing is about: the fixtures and the vault, byte for byte."""
    found = {}
    for part in ("goldens", "adversarial"):
        found.update({f"{part}/{k}": v for k, v in tree(root / part).items()})
    vault = root / ".curator" / "vault.json"
    found["vault"] = (vault.stat().st_mode & 0o777, vault.read_bytes())
    return found


def copy(root: Path, target: Path) -> Path:
    shutil.copytree(root, target, symlinks=True)
    return target
