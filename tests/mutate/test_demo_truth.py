"""The demo's mutation step (scripts/demo.d/30-mutate.sh), run as `make demo` runs it on a
copy of the sample store: every variant it writes has a truth that agrees with its text,
and every truth it prints agrees with the text it prints beside it."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys

import pytest

from curator.labels import truth_problems
from curator.normalise import same_value
from curator.store import Store
from tests.conftest import REPO, run_cli

pytestmark = pytest.mark.slow
PRINTED = re.compile(
    r"^  (\S+)\s+(\S+)\s+('(?:[^'\\]|\\.)*'|\"[^\"]*\")\s+text at span: "
    r"('(?:[^'\\]|\\.)*'|\"[^\"]*\")(.*)$"
)


def test_the_demo_mutation_step_writes_and_prints_only_true_truths(tmp_path):
    demo = tmp_path / "demo"
    demo.mkdir()
    shutil.copy(REPO / "curator.toml", demo)
    for folder in ("goldens", "adversarial"):
        shutil.copytree(REPO / folder, demo / folder)
    shim = tmp_path / "bin"
    shim.mkdir()
    (shim / "curator").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m curator "$@"\n')
    (shim / "curator").chmod(0o755)
    (shim / "python").symlink_to(sys.executable)
    env = {
        **os.environ,
        "PATH": f"{shim}{os.pathsep}{os.environ['PATH']}",
        "CURATOR_STORE": str(demo),
        "REPO": str(REPO),
        "DEMO": str(demo),
        "SOURCE_DATE_EPOCH": "1767225600",
        "PYTHONPATH": str(REPO),
    }
    before = set(Store(demo).ids())

    done = subprocess.run(
        ["bash", str(REPO / "scripts" / "demo.d" / "30-mutate.sh")],
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )

    assert done.returncode == 0, done.stderr[-2000:]
    store = Store(demo)
    written = [store.load(i) for i in store.ids() if i not in before]
    assert len(written) >= 6 and all(r.fixture.lineage for r in written)
    for record in [store.load(i) for i in store.ids()]:
        assert truth_problems(record.content, record.labels) == [], record.fixture.id
    assert run_cli("validate", store=demo).exit_code == 0
    printed = [PRINTED.match(line) for line in done.stdout.splitlines() if "text at span:" in line]
    assert printed and all(printed), [
        line for line in done.stdout.splitlines() if "text at span:" in line
    ][:3]
    for match in printed:
        fixture_id, field, value, text, note = match.groups()
        value, text = ast.literal_eval(value), ast.literal_eval(text)  # the reprs the demo printed
        field_type = (
            store.load(next(i for i in store.ids() if i.startswith(fixture_id)))
            .labels.fields[field]
            .type
        )
        assert (
            same_value(text, value, field_type) or repr(text) in note or "unanswerable" in note
        ), match.group(0)
