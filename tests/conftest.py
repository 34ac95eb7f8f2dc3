"""Shared test helpers: a fresh store, and running the real CLI entry point."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from curator.cli import main
from curator.store import Store

REPO = Path(__file__).resolve().parent.parent


@dataclass
class Run:
    exit_code: int
    stdout: str
    stderr: str


def run_cli(*args: str, store: Path | None = None) -> Run:
    """Run `curator ARGS` in-process through main(), exactly as the console script does."""
    argv = (["--store", str(store)] if store else []) + [str(a) for a in args]
    runner = CliRunner()
    with runner.isolation() as (out, err, _):
        try:
            main(argv)
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 2)
        stdout = out.getvalue().decode()
        stderr = err.getvalue().decode() if err is not None else ""
    return Run(code, stdout, stderr)


def subprocess_env(**extra: str) -> dict[str, str]:
    """Environment for running `python -m curator` in a child process from this checkout."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.update(extra)
    return env


CURATOR = [sys.executable, "-m", "curator"]


def start_until_marker(script: str, marker: Path, *args: str) -> subprocess.Popen:
    """Run `python -c SCRIPT ARGS` and return once it has written `marker`: a child stopped
    at the point a fault-injection test wants to kill it (or hold it) at."""
    child = subprocess.Popen([CURATOR[0], "-c", script, *args], env=subprocess_env())
    deadline = time.monotonic() + 60
    while not marker.exists():
        assert child.poll() is None, "the child exited before reaching the marked point"
        assert time.monotonic() < deadline
        time.sleep(0.05)
    return child


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.init(tmp_path / "store")


def secrets_left_in(root: Path, secrets: Iterable[str]) -> list[str]:
    """Each of `secrets` found, as a whole word in any case, in a file under `root` other than
    the vault (which holds them by design): "path: secret" for each."""
    words = [
        (secret, re.compile(rf"(?<!\w){re.escape(secret)}(?!\w)", re.IGNORECASE))
        for secret in secrets
    ]
    found = []
    for file in sorted(root.rglob("*")):
        if file.is_file() and file.name != "vault.json":
            text = file.read_bytes().decode("utf-8", errors="replace")
            found += [
                f"{file.relative_to(root)}: {secret}" for secret, word in words if word.search(text)
            ]
    return found


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under a store except .curator/ (lock and staging churn): for 'unchanged'
    checks."""
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".curator" not in p.relative_to(root).parts
    }


def copy_sample_store(target: Path) -> Store:
    """A working copy of the sample store shipped in this repo (goldens, adversarial, config)."""
    target.mkdir(parents=True)
    shutil.copyfile(REPO / "curator.toml", target / "curator.toml")
    for folder in ("goldens", "adversarial"):
        shutil.copytree(REPO / folder, target / folder)
    return Store.open(target)


@pytest.fixture(scope="session")
def sample_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """bundles/1.0.0 of a copy of the sample store (fixtures.jsonl and Mattermost files)."""
    from curator.bundle.build import build_bundle

    store = copy_sample_store(tmp_path_factory.mktemp("sample") / "store")
    return build_bundle(store, "1.0.0", formats="jsonl,mattermost").path
