"""The gate's schemas are committed, and its modules stay light to import."""

from __future__ import annotations

import subprocess

import pytest

from curator import schemas
from tests.conftest import CURATOR, REPO, subprocess_env


@pytest.mark.parametrize("name", ["predictions.schema.json", "floors-toml.schema.json",
                                  "gate-report.schema.json"])
def test_committed_schema_matches_the_model(name):
    assert (REPO / "schemas" / name).read_text() == schemas.render(schemas.generate()[name])


def test_gate_modules_import_no_heavy_library():
    code = ("import sys, curator.cli.gate, curator.score.gate, curator.score.markdown, "
            "curator.score.junit, curator.score.plot, curator.score.source\n"
            "heavy = {'matplotlib', 'pandas', 'datasets', 'pyarrow'} & set(sys.modules)\n"
            "assert not heavy, heavy")
    subprocess.run([CURATOR[0], "-c", code], check=True, env=subprocess_env())


def test_help_lists_gate():
    done = subprocess.run([*CURATOR, "gate", "--help"], capture_output=True, text=True,
                          env=subprocess_env(), check=True)
    assert "--predictions FILE" in done.stdout and "--baseline REPORT.json" in done.stdout
