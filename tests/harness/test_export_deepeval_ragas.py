"""DeepEval 4.3.1 and Ragas 0.4.3 load `curator export` with their own loaders (no glue) and
evaluate it with curator's non-LLM field metric, whose scores are the gate's per fixture."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curator.bundle import load
from tests.conftest import run_cli
from tests.harness.conftest import HERE, answers_for, predictions_jsonl, run_harness_python


def gate_shares(bundle: Path, answers: dict, tmp_path: Path) -> dict[str, float | None]:
    """fixture id -> share of its items right, by `curator gate` (None: no item)."""
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text(predictions_jsonl(answers))
    done = run_cli(
        "gate", "--bundle", bundle, "--predictions", predictions, "--out", tmp_path / "g"
    )
    assert done.exit_code in (0, 1), done.stderr
    report = json.loads((tmp_path / "g" / "report.json").read_text())
    return {f["id"]: f["right"] / f["total"] if f["total"] else None for f in report["fixtures"]}


@pytest.mark.parametrize("harness", ["deepeval", "ragas"])
def test_the_harness_loads_the_export_and_scores_it_as_the_gate(harness, sample_bundle, tmp_path):
    done = run_cli("export", str(sample_bundle), "--to", harness, "--out", str(tmp_path / "x"))
    assert done.exit_code == 0, done.stderr
    answers = answers_for(sample_bundle)
    answers_file = tmp_path / "answers.json"
    answers_file.write_text(json.dumps({k: json.dumps(v) for k, v in answers.items()}))
    run = run_harness_python(
        HERE / f"run_{harness}.py", str(tmp_path / "x" / harness), str(answers_file), tmp=tmp_path
    )
    loaded = json.loads(run.stdout.strip().splitlines()[-1])
    items = {item.id: item for item in load(sample_bundle)}
    rows = loaded["goldens"] if harness == "deepeval" else loaded["samples"]
    assert len(rows) == len(items)
    for row in rows:
        text = row["input"] if harness == "deepeval" else row["user_input"]
        target = row["expected_output"] if harness == "deepeval" else row["reference"]
        assert text and target
    if harness == "deepeval":
        for row in rows:
            item = items[row["name"]]
            assert row["metadata"]["category"] == item.fixture.category
            assert row["metadata"]["adversarial"] == item.fixture.adversarial
    shares = gate_shares(sample_bundle, answers, tmp_path)
    expected = {k: (0.0 if v is None and harness == "deepeval" else v) for k, v in shares.items()}
    assert loaded["scores"] == pytest.approx(expected)
    assert len(set(loaded["scores"].values())) > 2  # the answers are not all right or all wrong
