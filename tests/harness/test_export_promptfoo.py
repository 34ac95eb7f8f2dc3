"""promptfoo 0.121.20 runs `curator export --to promptfoo` as exported: every test has
assertions (a curator field assertion per field, an llm-rubric per rubric statement), and
curator's assertion gives the per-field verdicts `curator gate` gives on the same answers
(echo provider, echo grader: no network). `curator gate` reads promptfoo's results JSON."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import yaml

from curator.bundle import load
from tests.conftest import run_cli
from tests.harness.conftest import (
    answers_for,
    gate_outcomes,
    loader_block,
    predictions_jsonl,
    run_promptfoo,
)


def export(bundle: Path, tmp_path: Path) -> Path:
    done = run_cli("export", str(bundle), "--to", "promptfoo", "--out", str(tmp_path / "x"))
    assert done.exit_code == 0, done.stderr
    return tmp_path / "x" / "promptfoo"


def check_tests(results: list[dict], bundle: Path) -> None:
    """One result per fixture; each test with its input, its traceable metadata and
    assertions: one curator assertion per answerable field, one llm-rubric per rubric."""
    items = {item.id: item for item in load(bundle)}
    assert len(results) == len(items)
    for result in results:
        test = result["testCase"]
        item = items[test["metadata"]["fixture_id"]]
        assert test["vars"]["input"], item.id
        assert test["metadata"]["category"] == item.fixture.category
        assert test["metadata"]["adversarial"] == item.fixture.adversarial
        assert test["metadata"]["fixture_sha256"].startswith("sha256:")  # not [REDACTED]
        assert test["assert"], item.id
        labels = item.labels
        rubrics = [a["value"] for a in test["assert"] if a["type"] == "llm-rubric"]
        assert rubrics == [r.text for r in (labels.rubrics if labels else [])]
        fields = [a["config"]["field"] for a in test["assert"] if a["type"] == "python"]
        assert fields == [
            n for n, f in (labels.fields if labels else {}).items() if not f.unanswerable
        ]
        assert "No assertions" not in json.dumps(result["gradingResult"])


def test_the_docs_command_runs_the_export_as_written(built_bundle, tmp_path):
    # The small bundle: promptfoo starts one Python per field assertion, and the sample
    # store's export runs in full in the test below.
    export(built_bundle, tmp_path)
    words = shlex.split(loader_block("promptfoo"))  # docs/guide/export.md's command
    assert words[:3] == ["npx", "promptfoo@0.121.20", "eval"]
    config = words[words.index("-c") + 1].replace("exports/", "x/", 1)
    run_promptfoo(tmp_path / config, tmp_path / "results.json", tmp_path)
    check_tests(
        json.loads((tmp_path / "results.json").read_text())["results"]["results"], built_bundle
    )


def test_the_curator_assertion_in_promptfoo_gives_the_gates_field_verdicts(any_bundle, tmp_path):
    folder = export(any_bundle, tmp_path)
    answers = answers_for(any_bundle)
    # The exported tests, each given the answer the echo provider will say back.
    tests = yaml.safe_load((folder / "tests.yaml").read_text())
    for test in tests:
        test["vars"]["answer"] = json.dumps(answers[test["metadata"]["fixture_id"]])
    (folder / "answered.yaml").write_text(yaml.safe_dump(tests))
    config = yaml.safe_load((folder / "promptfooconfig.yaml").read_text())
    config.update(prompts=["{{answer}}"], tests="file://answered.yaml")
    (folder / "answered-config.yaml").write_text(yaml.safe_dump(config))
    results_file = tmp_path / "results.json"
    run_promptfoo(folder / "answered-config.yaml", results_file, tmp_path)

    in_promptfoo = {}
    results = json.loads(results_file.read_text())["results"]["results"]
    check_tests(results, any_bundle)  # the exported tests, as loaded and run by promptfoo
    for result in results:
        fixture_id = result["testCase"]["metadata"]["fixture_id"]
        for component in result["gradingResult"]["componentResults"]:
            if component["assertion"]["type"] == "python":
                name = component["assertion"]["config"]["field"]
                outcome = component["reason"].split(": ", 1)[1].split(" ", 1)[0]
                assert component["pass"] == (outcome == "right")
                in_promptfoo[(fixture_id, name)] = outcome
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text(predictions_jsonl(answers))
    gated = run_cli(
        "gate", "--bundle", any_bundle, "--predictions", predictions, "--out", tmp_path / "g"
    )
    assert gated.exit_code in (0, 1), gated.stderr
    by_gate = gate_outcomes(tmp_path / "g" / "report.json")
    fields_by_gate = {key: outcome for key, outcome in by_gate.items() if key in in_promptfoo}
    assert in_promptfoo == fields_by_gate
    assert len(in_promptfoo) == sum(1 for _ in fields_by_gate) > 0
    assert {"right", "wrong", "omitted"} <= set(in_promptfoo.values())

    # promptfoo's results as predictions: the same field verdicts; rubrics are its llm-rubric's.
    from_results = run_cli(
        "gate", "--bundle", any_bundle, "--predictions", results_file, "--out", tmp_path / "g2"
    )
    assert from_results.exit_code in (0, 1), from_results.stderr
    again = gate_outcomes(tmp_path / "g2" / "report.json")
    assert {key: again[key] for key in in_promptfoo} == in_promptfoo
    assert set(again) == set(by_gate)
