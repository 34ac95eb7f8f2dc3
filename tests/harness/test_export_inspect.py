"""inspect_ai 0.3.285 loads `curator export --to inspect` with `json_dataset` alone, and
curator's scorer inside it gives the per-item verdicts `curator gate` gives on the same
answers; `curator gate` reads the eval log as predictions with the same verdicts."""

from __future__ import annotations

import json
from pathlib import Path

from curator.bundle import load
from tests.conftest import run_cli
from tests.harness.conftest import (
    HERE,
    answers_for,
    gate_outcomes,
    predictions_jsonl,
    run_harness_python,
)


def run_inspect(
    bundle: Path, tmp_path: Path, log_format: str = "json"
) -> tuple[dict, dict[str, dict]]:
    exported = run_cli("export", str(bundle), "--to", "inspect", "--out", str(tmp_path / "x"))
    assert exported.exit_code == 0, exported.stderr
    answers = answers_for(bundle)
    answers_file = tmp_path / "answers.json"
    answers_file.write_text(json.dumps({k: json.dumps(v) for k, v in answers.items()}))
    done = run_harness_python(
        HERE / "run_inspect.py",
        str(tmp_path / "x" / "inspect"),
        str(answers_file),
        str(tmp_path / "logs"),
        log_format,
        tmp=tmp_path,
    )
    return json.loads(done.stdout.strip().splitlines()[-1]), answers


def test_inspect_loads_every_fixture_with_input_target_and_category(sample_bundle, tmp_path):
    run, answers = run_inspect(sample_bundle, tmp_path, log_format="eval")
    items = {item.id: item for item in load(sample_bundle)}
    samples = {sample["id"]: sample for sample in run["samples"]}
    assert run["status"] == "success"
    assert len(run["samples"]) == len(items) == len(samples)
    for fixture_id, item in items.items():
        sample = samples[fixture_id]
        assert sample["input"] and all(sample["input"]), fixture_id
        if item.labels is not None:
            assert sample["target"], fixture_id  # inspect turns a None target into ""
        metadata = sample["metadata"]
        assert metadata["category"] == item.fixture.category
        assert metadata["adversarial"] == item.fixture.adversarial
        assert metadata["fixture_sha256"].startswith("sha256:")
        if item.fixture.lineage:
            assert metadata["parent"] == item.fixture.lineage.parent
    assert any(s["metadata"]["adversarial"] for s in run["samples"])

    # The default .eval archive is read as predictions too.
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text(predictions_jsonl(answers))
    by_jsonl = run_cli(
        "gate", "--bundle", sample_bundle, "--predictions", predictions, "--out", tmp_path / "a"
    )
    by_log = run_cli(
        "gate", "--bundle", sample_bundle, "--predictions", run["log"], "--out", tmp_path / "b"
    )
    assert by_log.exit_code == by_jsonl.exit_code, by_log.stderr
    assert gate_outcomes(tmp_path / "b" / "report.json") == gate_outcomes(
        tmp_path / "a" / "report.json"
    )


def test_the_curator_scorer_in_inspect_gives_the_gates_verdicts(any_bundle, tmp_path):
    run, answers = run_inspect(any_bundle, tmp_path)
    log = json.loads(Path(run["log"]).read_text())
    in_inspect = {
        (sample["id"], item["name"]): item["outcome"]
        for sample in log["samples"]
        for item in sample["scores"]["curator_scorer"]["metadata"]["items"]
    }
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text(predictions_jsonl(answers))
    gated = run_cli(
        "gate", "--bundle", any_bundle, "--predictions", predictions, "--out", tmp_path / "g"
    )
    assert gated.exit_code in (0, 1), gated.stderr
    by_gate = gate_outcomes(tmp_path / "g" / "report.json")
    assert in_inspect == by_gate
    # The answers reach every verdict, so equal verdicts are no accident of all-right answers.
    assert {"right", "wrong", "omitted"} <= set(by_gate.values())

    from_log = run_cli(
        "gate", "--bundle", any_bundle, "--predictions", run["log"], "--out", tmp_path / "g2"
    )
    assert from_log.exit_code == gated.exit_code, from_log.stderr
    assert gate_outcomes(tmp_path / "g2" / "report.json") == by_gate
