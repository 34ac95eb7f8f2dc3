"""curator.anonymise is the one door to the anonymiser: ruff's banned-api rule (TID251) bans
every one of its submodules outside the package, so a module added to it cannot be imported
around the door. Exempt: the package itself and tests/anonymise/, which unit-test internals.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "curator" / "anonymise"
EXEMPT = {"curator/anonymise/**", "tests/anonymise/**"}


def _lint() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"][
        "lint"
    ]


def submodules() -> list[str]:
    """Every module and subpackage of curator.anonymise, the package itself left out."""
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return [name for name in names if name != "curator.anonymise"]


def banned() -> set[str]:
    return set(_lint()["flake8-tidy-imports"]["banned-api"])


def unbanned(modules: list[str], bans: set[str]) -> list[str]:
    """The modules no ban covers: ruff bans a module and, with it, its submodules."""
    return [m for m in modules if not any(m == ban or m.startswith(ban + ".") for ban in bans)]


def test_every_submodule_of_the_anonymiser_is_banned_outside_it():
    lint = _lint()
    assert "TID251" in lint["select"]
    assert unbanned(submodules(), banned()) == []
    assert {path for path, rules in lint["per-file-ignores"].items() if "TID251" in rules} == EXEMPT


def test_the_check_fails_when_a_module_is_missing():
    modules, bans = submodules(), banned()
    assert "curator.anonymise.finders.names" in modules and "curator.anonymise.vault" in modules
    for ban in bans:
        assert unbanned(modules, bans - {ban}), ban
    assert unbanned([*modules, "curator.anonymise.new_module"], bans) == [
        "curator.anonymise.new_module"
    ]


def test_ruff_reports_an_import_of_every_submodule_outside_the_package():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed")
    modules = submodules()
    probe = (
        "".join(f"import {module}\n" for module in modules)
        + "from curator.anonymise import Vault\n"
    )
    done = subprocess.run(
        [
            ruff,
            "check",
            "--select",
            "TID251",
            "--output-format",
            "concise",
            "--no-cache",
            "--stdin-filename",
            "benchmarks/probe.py",
            "-",
        ],
        input=probe,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    reported = [line for line in done.stdout.splitlines() if "TID251" in line]
    assert len(reported) == len(modules), done.stdout + done.stderr
