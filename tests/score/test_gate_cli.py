"""`curator gate` end to end on a real built bundle, with scripts/make_predictions.py output."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from tests.conftest import CURATOR, REPO, run_cli, subprocess_env

MAKE_PREDICTIONS = REPO / "scripts" / "make_predictions.py"


@pytest.fixture(autouse=True)
def _pinned_clock(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")


def make_predictions(bundle, quality, out):
    subprocess.run(
        [
            sys.executable,
            str(MAKE_PREDICTIONS),
            str(bundle),
            "--quality",
            quality,
            "--out",
            str(out),
        ],
        check=True,
        env=subprocess_env(),
    )
    return out


@pytest.fixture(scope="module")
def good(built_bundle, tmp_path_factory):
    return make_predictions(built_bundle, "good", tmp_path_factory.mktemp("p") / "good.jsonl")


@pytest.fixture(scope="module")
def regressed(built_bundle, tmp_path_factory):
    return make_predictions(
        built_bundle, "regressed", tmp_path_factory.mktemp("p") / "regressed.jsonl"
    )


def gate(bundle, predictions, out, *extra):
    return run_cli("gate", "--bundle", bundle, "--predictions", predictions, "--out", out, *extra)


def test_good_predictions_pass(built_bundle, good, tmp_path):
    run = gate(built_bundle, good, tmp_path / "out", "--plot", "--json")
    assert run.exit_code == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["passed"] and report["fixtures_passed"] == report["fixtures_total"] == 7
    # 6 leases x 5 fields + 2 rubrics.
    assert report["accuracy"]["overall"] == {"right": 32, "total": 32, "accuracy": 1.0}
    assert report["accuracy"]["adversarial"]["total"] == 15
    assert set(report["accuracy"]["by_mutation"]) == {"bilingual", "none", "ocr-noise", "truncate"}
    assert report["calibration"]["confidences"] == 30 and report["calibration"]["brier"] < 0.02
    assert report["quality"]["composite"] is not None
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "junit.xml",
        "reliability.png",
        "report.json",
        "summary.md",
    ]
    assert json.loads((tmp_path / "out" / "report.json").read_text()) == report


def test_regressed_predictions_fail_against_the_good_baseline(
    built_bundle, good, regressed, tmp_path
):
    assert gate(built_bundle, good, tmp_path / "good").exit_code == 0
    run = gate(
        built_bundle, regressed, tmp_path / "bad", "--baseline", tmp_path / "good" / "report.json"
    )
    assert run.exit_code == 1
    assert (
        "curator: gate failed: overall_accuracy, adversarial_accuracy, brier, faithfulness_drop"
        in run.stderr
    )
    assert "FAIL  adversarial_accuracy" in run.stdout
    report = json.loads((tmp_path / "bad" / "report.json").read_text())
    assert len(report["missing_fixtures"]) == 1
    classes = report["failure_classes"]
    for name in (
        "hallucination",
        "field_targeting",
        "truncation_artifact",
        "omission",
        "confidence_mismatch",
        "rubric_failed",
        "missing",
    ):
        assert classes[name] > 0, name
    regressed_ids = {r["id"] for r in report["regressions"]}
    # The 3 adversarial leases, every second golden lease, the thread, the skipped fixture.
    assert len(regressed_ids) == 6
    summary = (tmp_path / "bad" / "summary.md").read_text()
    assert (
        "## curator gate ❌ failed" in summary
        and "### Regressed against the baseline (6)" in summary
    )
    suite = ET.parse(tmp_path / "bad" / "junit.xml").getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("failures")) == ("7", "6")


def test_output_is_deterministic(built_bundle, regressed, tmp_path):
    (tmp_path / "again").mkdir()
    again = make_predictions(built_bundle, "regressed", tmp_path / "again" / "regressed.jsonl")
    assert again.read_bytes() == regressed.read_bytes()
    gate(built_bundle, regressed, tmp_path / "a", "--plot")
    gate(built_bundle, again, tmp_path / "b", "--plot")
    for name in ("report.json", "summary.md", "junit.xml", "reliability.png"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"fixture_id": ', ":2: not valid JSON"),
        ('{"fixture_id": "ghost-0000000f"}', ":2: fixture 'ghost-0000000f' is not in the bundle"),
        ("CONFIDENCE", ":2: fields.tenant.confidence: Input should be less than or equal to 1"),
    ],
)
def test_bad_predictions_exit_2_naming_the_line(built_bundle, good, tmp_path, line, message):
    first = good.read_text().splitlines()[0]
    if line == "CONFIDENCE":
        data = json.loads(good.read_text().splitlines()[1])
        data["fields"]["tenant"]["confidence"] = 1.2
        line = json.dumps(data)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(f"{first}\n{line}\n")
    run = gate(built_bundle, bad, tmp_path / "out")
    assert run.exit_code == 2
    assert run.stderr.startswith(f"curator: error: {bad}{message}")
    assert not (tmp_path / "out").exists()  # bad input writes nothing


def test_bad_floors_and_bundle_exit_2(built_bundle, good, tmp_path):
    floors = tmp_path / "floors.toml"
    floors.write_text("[floors]\nmax_brier = -1\n")
    run = run_cli("gate", "--bundle", built_bundle, "--predictions", good, "--floors", floors)
    assert run.exit_code == 2 and "floors.max_brier" in run.stderr
    run = run_cli("gate", "--bundle", tmp_path / "nope", "--predictions", good)
    assert run.exit_code == 2 and "no such bundle" in run.stderr


def test_strict_floors_fail_good_predictions_as_a_subprocess(built_bundle, good, tmp_path):
    floors = tmp_path / "floors.toml"
    floors.write_text("[floors]\nmax_brier = 0.001\n")
    done = subprocess.run(
        [
            *CURATOR,
            "gate",
            "--bundle",
            str(built_bundle),
            "--predictions",
            str(good),
            "--floors",
            str(floors),
            "--out",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        env=subprocess_env(),
    )
    assert done.returncode == 1
    assert done.stderr.strip() == "curator: gate failed: brier"


def test_bundle_archive_scores_like_its_directory(built_bundle, good, tmp_path):
    import tarfile

    archive = tmp_path / "1.0.0.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(built_bundle, arcname="1.0.0")
    from_dir = json.loads(gate(built_bundle, good, tmp_path / "d", "--json").stdout)
    from_archive = json.loads(gate(archive, good, tmp_path / "a", "--json").stdout)
    assert from_archive["fixtures"] == from_dir["fixtures"] and from_archive["passed"]


@pytest.mark.parametrize("text", ["", "\n\n", " \n\t\n"])
def test_an_empty_or_blank_predictions_file_is_no_results_not_a_pass(built_bundle, tmp_path, text):
    empty = tmp_path / "predictions.jsonl"
    empty.write_text(text)
    run = gate(built_bundle, empty, tmp_path / "out")
    assert (run.exit_code, run.stdout) == (2, "")
    assert run.stderr == (
        f"curator: error: {empty}: no results were recorded (the file has no prediction)\n"
    )
    assert not (tmp_path / "out").exists()
