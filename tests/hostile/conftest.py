"""The hostile-input suite: curator run as a real child process against inputs made to hurt it.

Every refused case must hold the same promises (`assert_refused`): exit 2, one line on
stderr starting `curator: error:`, no traceback, the store byte-identical (`.curator/`,
vault and lock included: `tree` snapshots every entry, folders and links too), nothing
written outside the store (the child runs in an empty working folder with an empty
TMPDIR), and a peak memory under the documented bound, measured in the child itself
(ru_maxrss from os.wait4: its own peak, or its largest waited-for descendant's; through
tests/hostile/peak_rss.py, so that pytest's own size does not count).
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from curator.limits import REFUSAL_MEMORY_MB
from curator.store import Store
from tests.conftest import REPO, copy_sample_store

PEAK_RSS = Path(__file__).with_name("peak_rss.py")


@dataclass
class ChildRun:
    exit_code: int
    stdout: str
    stderr: str
    peak_mb: float  # the child's peak resident memory (ru_maxrss)


@dataclass
class Sandbox:
    """Where a child runs: an empty working folder and TMPDIR, and a folder of inputs."""

    cwd: Path
    tmp: Path
    inputs: Path

    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("CURATOR_STORE",)}
        env.update(PYTHONPATH=str(REPO), TMPDIR=str(self.tmp), PYTHONDONTWRITEBYTECODE="1")
        env.update(extra)
        return env

    def outside(self) -> dict[str, tuple]:
        """Everything the child could have written to outside the store."""
        return {"cwd": tree(self.cwd), "tmp": tree(self.tmp), "inputs": tree(self.inputs)}


@pytest.fixture
def sandbox(tmp_path: Path) -> Sandbox:
    folders = [tmp_path / name for name in ("cwd", "tmp", "inputs")]
    for folder in folders:
        folder.mkdir()
    return Sandbox(*folders)


@pytest.fixture
def fresh_store(tmp_path: Path) -> Store:
    """A store as a fresh clone has it: no .curator/ at all (it is never committed)."""
    store = Store.init(tmp_path / "store")
    os.rmdir(store.root / ".curator")
    return store


@pytest.fixture
def sample(tmp_path: Path) -> Store:
    return copy_sample_store(tmp_path / "sample")


def run(
    sandbox: Sandbox, *args: str | Path, store: Store | None = None, fault: str = "", **env: str
) -> ChildRun:
    """`python -m curator ARGS` in the sandbox; its exit code, output and peak memory.

    `fault`: Python run in the child first, to inject a fault (the only mocking here).
    """
    start = (
        ["-c", f"import sys\n{fault}\nfrom curator.cli import main\nmain(sys.argv[1:])"]
        if fault
        else ["-m", "curator"]
    )
    argv = [sys.executable, *start] + (["--store", str(store.root)] if store else [])
    argv += [str(a) for a in args]
    return measured(argv, sandbox.cwd, sandbox.env(**env))


def measured(argv: list[str], cwd: Path, env: dict[str, str]) -> ChildRun:
    """Run `argv` through peak_rss.py (see there why) and return what it did."""
    with tempfile.TemporaryDirectory(prefix="curator-peak-") as folder:
        peak = Path(folder) / "peak"
        done = subprocess.run(
            [sys.executable, str(PEAK_RSS), str(peak), *argv],
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
        )
        return ChildRun(
            done.returncode,
            done.stdout.decode("utf-8", "replace"),
            done.stderr.decode("utf-8", "replace"),
            int(peak.read_text()) / 1024,
        )


def tree(root: Path) -> dict[str, tuple]:
    """Every entry under `root` (hidden ones too): a file's mode and bytes, a link's target,
    a folder's mode. Equal trees mean a byte-identical store."""
    found: dict[str, tuple] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            info = os.lstat(path)
            key = str(path.relative_to(root))
            if stat.S_ISLNK(info.st_mode):
                found[key] = ("link", os.readlink(path))
            elif stat.S_ISDIR(info.st_mode):
                found[key] = ("dir", stat.S_IMODE(info.st_mode))
            elif stat.S_ISREG(info.st_mode):
                found[key] = (
                    "file",
                    stat.S_IMODE(info.st_mode),
                    info.st_size,
                    _head(path, info.st_size),
                )
            else:
                found[key] = ("other", info.st_mode)
    return found


def _head(path: Path, size: int) -> bytes:
    """A file's bytes; a large (sparse) input is compared by its first and last MB."""
    with open(path, "rb") as handle:
        if size <= 4 << 20:
            return handle.read()
        first = handle.read(1 << 20)
        handle.seek(size - (1 << 20))
        return first + handle.read()


def assert_refused(
    result: ChildRun,
    *,
    says: str = "",
    store: Store | None = None,
    store_before: dict | None = None,
    sandbox: Sandbox | None = None,
    outside_before: dict | None = None,
    exit_code: int = 2,
) -> None:
    """The promises of every refused case (see the module doc)."""
    assert result.exit_code == exit_code, result
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("curator: error: "), result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert says in lines[0], lines[0]
    if store is not None and store_before is not None:
        assert tree(store.root) == store_before, "the store changed"
    if sandbox is not None and outside_before is not None:
        assert sandbox.outside() == outside_before, "something was written outside the store"
    assert result.peak_mb < REFUSAL_MEMORY_MB, f"peak memory {result.peak_mb:.0f} MB"
