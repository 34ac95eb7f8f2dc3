"""Every command that writes more than one file lands whole or not at all (issue 32, item 2).

Each command is killed (SIGKILL) at each of its renames into the store in turn: the child
stops just before the Nth rename whose target is inside the store (the fault-injection
technique of test_store.py), is killed there, and the next command (`curator validate`,
which takes the store lock) must leave the store exactly as before the command or exactly
as an uninterrupted run leaves it: fixtures and vault byte for byte. The points run from the
first rename to one past the last, where the command finishes unstopped.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import subprocess_env
from tests.foundation.busy_store import COMMANDS, ENV, EXIT, busy_store, cli, copy, state

pytestmark = pytest.mark.slow

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


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    return busy_store(tmp_path_factory.mktemp("base"))


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
