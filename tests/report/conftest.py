"""The sample store's real bundle, two gate runs over it (scripts/make_predictions.py, as
`make demo` does) and two eval runs written through curator.model.EvalLine."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from curator.bundle import load
from curator.bundle.manifest import read_manifest
from curator.model import EvalLine
from tests.conftest import REPO, run_cli

TIME = "2026-01-01T00:00:00Z"


def _unit(*parts: str) -> float:
    digest = hashlib.sha256("\x1f".join(parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def eval_lines(bundle: Path, *, quality: str) -> list[EvalLine]:
    """One line per field or rubric of every fixture. `good` passes nearly all; `regressed`
    fails a third of the adversarial items, repeats threads twice (one flaky) and has a judge
    error: what a worse release's evals.jsonl looks like."""
    sha = {entry.id: entry.line_sha256 for entry in read_manifest(bundle).fixtures}
    lines = []
    for item in load(bundle):
        fixture, labels = item.fixture, item.labels
        if labels is None:
            continue
        checks = [
            (f"{name} = {label.value}", name, label.value) for name, label in labels.fields.items()
        ]
        checks += [(rubric.text, None, None) for rubric in labels.rubrics]
        repetitions = 2 if fixture.kind == "thread" else 1
        for rubric, field, expected in checks:
            for run_number in range(repetitions):
                roll = _unit(fixture.id, rubric, quality)
                passed = (
                    roll > (0.33 if fixture.adversarial else 0.05)
                    if quality == "regressed"
                    else roll > 0.02
                )
                if quality == "regressed" and repetitions == 2 and run_number == 1 and roll > 0.5:
                    passed = not passed  # a thread rubric that flips between repetitions: flaky
                error = "judge timed out" if quality == "regressed" and 0.40 < roll < 0.42 else None
                output = (expected or "the summary") if passed else "Northwind Holdings Ltd"
                if not passed and 0.05 < roll < 0.15:
                    output = (
                        "data:text/plain;base64," + "QUJD" * 120
                    )  # one long token: it must wrap, not widen the page
                lines.append(
                    EvalLine.model_validate(
                        {
                            "name": fixture.id,
                            "timestamp": TIME,
                            "run_number": run_number,
                            "rubric": rubric,
                            "output": output,
                            "reasoning": "matches the truth"
                            if passed
                            else "not what the document says",
                            "score": 1.0 if passed else 0.0,
                            "pass": passed and error is None,
                            "error": error,
                            "fixture_id": fixture.id,
                            "bundle_version": "1.0.0",
                            "fixture_sha256": sha[fixture.id],
                            "kind": "field" if field else "rubric",
                            "field": field,
                            "expected": expected,
                            "category": fixture.category,
                            "adversarial": fixture.adversarial,
                            "mutations": [s.name for s in fixture.lineage.mutations]
                            if fixture.lineage
                            else [],
                            "parent": fixture.lineage.parent if fixture.lineage else None,
                            "judge": "rules",
                        }
                    )
                )
    return lines


def write_evals(path: Path, lines: list[EvalLine]) -> Path:
    path.write_text(
        "".join(line.model_dump_json(by_alias=True, exclude_none=True) + "\n" for line in lines)
    )
    return path


@pytest.fixture(scope="session")
def sample_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """bundle, good and regressed gate reports, good and regressed evals.jsonl."""
    root = tmp_path_factory.mktemp("report")
    store = root / "store"
    store.mkdir()
    for name in ("goldens", "adversarial"):
        shutil.copytree(REPO / name, store / name)
    shutil.copyfile(REPO / "curator.toml", store / "curator.toml")
    (store / ".curator").mkdir()
    assert run_cli("bundle", "build", "1.0.0", store=store).exit_code == 0
    bundle = store / "bundles" / "1.0.0"
    paths = {"bundle": bundle}
    for quality in ("good", "regressed"):
        predictions = root / f"{quality}.jsonl"
        subprocess.run(
            [
                sys.executable,
                str(REPO / "scripts" / "make_predictions.py"),
                str(bundle),
                "--quality",
                quality,
                "--out",
                str(predictions),
            ],
            check=True,
        )
        baseline = (
            ["--baseline", str(root / "good" / "report.json")] if quality == "regressed" else []
        )
        run_cli(
            "gate",
            "--bundle",
            str(bundle),
            "--predictions",
            str(predictions),
            "--out",
            str(root / quality),
            *baseline,
        )
        paths[f"gate_{quality}"] = root / quality / "report.json"
        paths[f"evals_{quality}"] = write_evals(
            root / f"evals-{quality}.jsonl", eval_lines(bundle, quality=quality)
        )
    return paths
