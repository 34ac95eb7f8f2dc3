"""Every command that writes more than one file lands whole or not at all (issue 32, item 2).

Each command is killed (SIGKILL) at each of its renames into the store in turn: the child
stops just before the Nth rename whose target is inside the store (the fault-injection
technique of test_store.py), is killed there, and the next command (`curator validate`,
which takes the store lock) must leave the store exactly as before the command or exactly
as an uninterrupted run leaves it: fixtures and vault byte for byte. The points run from the
first rename to one past the last, where the command finishes unstopped.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from curator.store import Store
from tests.conftest import CURATOR, subprocess_env
from tests.factories import LEASE_TEXT, add_lease, add_thread
from tests.hostile.conftest import tree
from tests.promote.promote_helpers import lease_failure

pytestmark = pytest.mark.slow

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

STALL_AT_RENAME = """
import os, sys, time
from pathlib import Path
store, marker, at = os.environ["STALL_STORE"], Path(os.environ["STALL_MARKER"]), int(
    os.environ["STALL_AT"]
)
seen = [0]
def stalled(real):
    def rename(src, dst, *args, **kwargs):
        # Fault injection: stop before the Nth rename into the store.
        if os.fspath(dst).startswith(store + os.sep):
            seen[0] += 1
            if seen[0] == at:
                marker.write_text("in the middle")
                time.sleep(60)
        return real(src, dst, *args, **kwargs)
    return rename
os.replace, os.rename = stalled(os.replace), stalled(os.rename)
from curator.cli import main
main(sys.argv[1:])
"""


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


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A store with three leases, a thread and a vault; the ids of the leases and the paths
    of three chats to import."""
    folder = tmp_path_factory.mktemp("base")
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


@pytest.mark.parametrize("command", list(COMMANDS))
def test_killed_at_any_rename_the_command_lands_whole_or_not_at_all(base, tmp_path, command):
    root, ids = base
    args = [a.format(**ids) for a in COMMANDS[command]]
    before = state(root)
    whole = copy(root, tmp_path / "whole")
    done = cli(whole, *args)
    assert done.returncode == EXIT.get(command, 0), done.stdout + done.stderr
    after = state(whole)
    assert after != before
    # validate finds the same with none as with all (the stale variant of `base`), no more
    sound = {cli(folder, "validate").stdout for folder in (root, whole)}
    outcomes = []
    for at in range(1, 100):
        store = copy(root, tmp_path / f"at-{at}")
        marker = tmp_path / f"marker-{at}"
        child = subprocess.Popen(
            [sys.executable, "-c", STALL_AT_RENAME, "--store", str(store), *args],
            env=subprocess_env(
                **ENV, STALL_STORE=str(store), STALL_MARKER=str(marker), STALL_AT=str(at)
            ),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        if not stopped_at_marker(child, marker):
            assert child.returncode == EXIT.get(command, 0), child.stderr
            assert state(store) == after
            break
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        checked = cli(store, "validate")
        assert checked.stdout in sound, checked.stdout + checked.stderr
        found = state(store)
        assert found in (before, after), f"killed before rename {at}: half done"
        assert not any((store / ".curator" / "staging").iterdir())
        outcomes.append(found == after)
    # Killed before its first rename nothing landed; once its journal was in place, all did.
    assert outcomes[0] is False and outcomes[-1] is True, outcomes
    assert outcomes == sorted(outcomes)


def stopped_at_marker(child: subprocess.Popen[bytes], marker: Path) -> bool:
    """True once the child wrote `marker`; False when it exited first."""
    deadline = time.monotonic() + 120
    while not marker.exists():
        if child.poll() is not None:
            return marker.exists()
        assert time.monotonic() < deadline, "the child neither stopped nor finished"
        time.sleep(0.05)
    return True
