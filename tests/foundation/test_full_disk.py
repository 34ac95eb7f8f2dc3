"""A full disk changes nothing (issue 32, item 3).

The store lives on a small tmpfs mounted for the test (root only: skipped with the reason
elsewhere), filled up to leave less and less room: with each amount of free space a command
either succeeds or exits 2 with one line and leaves the store byte-identical, vault and
staging included. Only .curator/cache/ may gain what was computed before the disk ran out (a
build's audit of its lines): it makes the next build faster and is never the store's
content. The free space steps up from nothing until the command succeeds, so the disk runs
out at several points of its writes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.foundation.busy_store import COMMANDS, busy_store, cli, copy
from tests.hostile.conftest import tree

pytestmark = pytest.mark.slow

DISK_BYTES = 8 * 1024 * 1024
FREE_STEPS = [0, 4096, 16384, 65536, 262144, 1048576]  # bytes left free for the command
CASES = {
    "import": COMMANDS["import of three sources"],
    "mutate": COMMANDS["mutate of several"],
    "label set": COMMANDS["label set"],
    "bundle build": ["bundle", "build", "1.0.0", "--archive"],
}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    return busy_store(tmp_path_factory.mktemp("base"))


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    """A DISK_BYTES tmpfs at tmp_path/disk, unmounted afterwards."""
    mount_point = tmp_path / "disk"
    mount_point.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root and mount(8)")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={DISK_BYTES}", "tmpfs", str(mount_point)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], check=False)


def fill(disk: Path, leave: int) -> None:
    """Fill the disk until only `leave` bytes are free."""
    filler = disk / "filler"
    free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
    with open(filler, "ab") as handle:
        handle.write(b"\0" * max(0, free - leave))
    while os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize > leave:
        with open(filler, "ab") as handle:
            handle.write(b"\0" * 4096)


def stored(root: Path) -> dict[str, tuple]:
    return {k: v for k, v in tree(root).items() if not k.startswith(".curator/cache")}


@pytest.mark.parametrize("case", list(CASES))
def test_a_full_disk_exits_2_and_changes_nothing(base, disk, case):
    root, ids = base
    args = [a.format(**ids) for a in CASES[case]]
    failures = 0
    for leave in FREE_STEPS:
        store = copy(root, disk / f"store-{leave}")
        fill(disk, leave)
        before = stored(store)
        done = cli(store, *args)
        if done.returncode == 0:
            break
        assert done.returncode == 2, done.stdout + done.stderr
        [line] = done.stderr.splitlines()
        assert line.startswith("curator: error: No space left on device"), line
        assert stored(store) == before, f"{leave} bytes free: the store changed"
        failures += 1
        shutil.rmtree(store)
        (disk / "filler").unlink()
    else:
        pytest.fail(f"{case} never had room enough on a {DISK_BYTES}-byte disk")
    assert failures >= 2, f"the disk ran out only {failures} time(s): steps too coarse"
