"""The gate command is registered and its modules stay light to import."""

from __future__ import annotations

import subprocess

from tests.conftest import CURATOR, subprocess_env


def test_gate_modules_import_no_heavy_library():
    code = (
        "import sys, curator.cli.gate, curator.score.gate, curator.score.markdown, "
        "curator.score.junit, curator.score.plot, curator.score.source\n"
        "heavy = {'matplotlib', 'pandas', 'datasets', 'pyarrow'} & set(sys.modules)\n"
        "assert not heavy, heavy"
    )
    subprocess.run([CURATOR[0], "-c", code], check=True, env=subprocess_env())


def test_help_lists_gate():
    done = subprocess.run(
        [*CURATOR, "gate", "--help"],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        check=True,
    )
    assert "--predictions FILE" in done.stdout and "--baseline REPORT.json" in done.stdout
