"""Gate checks, the report as the next baseline, and the Markdown / JUnit / PNG writers."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from curator.errors import CuratorError
from curator.model import CalibrationRecord, FloorsFile, PredictionMetrics, RubricVerdict, RunStats
from curator.score.gate import build_report, load_floors, write_outputs
from curator.score.junit import render_junit
from curator.score.markdown import render_markdown
from curator.score.report import load_baseline, render_json
from tests.score.score_builders import all_right, document_case, prediction, thread_case

GOLD = "lease-a-0000000a"
ADV = "lease-b-0000000b"
THREAD = "ready-c-0000000c"
CASES = [
    document_case(GOLD),
    document_case(ADV, category="truncated", mutations=("truncate",)),
    thread_case(THREAD, ("mentions @ana",)),
]


def predictions(
    adv_wrong: int = 0, faithfulness: float = 0.9, confidence: float = 0.9, thread: bool = True
):
    adv_fields = all_right(confidence)
    for name in list(adv_fields)[:adv_wrong]:
        adv_fields[name] = ("Samuel Price", confidence)  # a hallucination
    found = {
        GOLD: prediction(GOLD, metrics={"faithfulness": faithfulness}, **all_right(confidence)),
        ADV: prediction(ADV, metrics={"faithfulness": faithfulness}, **adv_fields),
    }
    if thread:
        found[THREAD] = prediction(THREAD, rubrics=[{"rubric": "mentions @ana", "pass": True}])
    return found


def floors(**values) -> FloorsFile:
    return FloorsFile.model_validate({"floors": values})


def gates(report) -> dict[str, str]:
    return {check.name: check.status for check in report.gates}


def test_all_right_passes_every_measurable_gate():
    report = build_report(CASES, predictions())
    assert report.passed
    assert gates(report) == {
        "overall_accuracy": "pass",
        "adversarial_accuracy": "pass",
        "brier": "pass",
        "faithfulness_drop": "skip",
        "pass_rate": "skip",
        "flaky_share": "skip",
        "judge_calibration": "skip",
    }
    assert (report.fixtures_passed, report.fixtures_total) == (3, 3)
    # 12 fields right at 0.9: Brier 0.01.
    assert report.calibration["brier"] == pytest.approx(0.01)


def test_adversarial_floor_fails_while_overall_holds():
    # 2 of 6 adversarial fields wrong: overall 11/13 = 0.846, adversarial 4/6 = 0.667.
    report = build_report(
        CASES,
        predictions(adv_wrong=2),
        floors=floors(overall_accuracy=0.8, adversarial_accuracy=0.7),
    )
    assert not report.passed
    assert gates(report)["overall_accuracy"] == "pass"
    assert gates(report)["adversarial_accuracy"] == "fail"
    check = report.gates[1]
    assert check.value == pytest.approx(4 / 6) and check.detail == "4/6 = 0.667 < 0.7"


def test_floor_met_exactly_passes():
    report = build_report(
        CASES[:2], predictions(adv_wrong=1), floors=floors(overall_accuracy=11 / 12)
    )
    assert report.accuracy["overall"]["right"] == 11
    assert gates(report)["overall_accuracy"] == "pass"
    report = build_report(
        CASES[:2], predictions(adv_wrong=2), floors=floors(overall_accuracy=11 / 12)
    )
    assert gates(report)["overall_accuracy"] == "fail"


def test_missing_fixture_counts_wrong_and_is_listed():
    report = build_report(CASES, predictions(thread=False))
    assert report.missing_fixtures == [THREAD]
    assert report.accuracy["overall"] == {"right": 12, "total": 13, "accuracy": 12 / 13}
    assert report.fixtures_passed == 2 and report.failure_classes["missing"] == 1


def test_brier_floor():
    # Every answer right at confidence 0.6: Brier 0.16.
    report = build_report(CASES, predictions(confidence=0.6), floors=floors(max_brier=0.15))
    assert gates(report)["brier"] == "fail"
    assert report.gates[2].detail == "Brier 0.1600 > 0.15"


def test_faithfulness_drop_against_the_baseline():
    baseline = build_report(CASES, predictions(faithfulness=0.95))
    same_drop = build_report(CASES, predictions(faithfulness=0.90), baseline=baseline)
    assert gates(same_drop)["faithfulness_drop"] == "pass"  # exactly 0.05 is allowed
    worse = build_report(CASES, predictions(faithfulness=0.85), baseline=baseline)
    check = worse.gates[3]
    assert (check.status, check.value) == ("fail", pytest.approx(0.10))
    assert "drop 0.100 > 0.05" in check.detail and not worse.passed


def test_faithfulness_missing_now_fails_when_the_baseline_had_it():
    baseline = build_report(CASES, predictions())
    now = predictions()
    for found in now.values():
        found.metrics = None
    assert gates(build_report(CASES, now, baseline=baseline))["faithfulness_drop"] == "fail"


def test_regressions_against_the_baseline():
    baseline = build_report(CASES, predictions())
    report = build_report(
        CASES,
        predictions(adv_wrong=1, thread=False),
        baseline=baseline,
        baseline_name="report.json",
    )
    assert [(r.id, r.before, r.after, r.classes) for r in report.regressions] == [
        (ADV, "6/6", "5/6", ["hallucination", "confidence_mismatch"]),
        (THREAD, "1/1", "0/1", ["missing"]),
    ]


def test_report_round_trips_as_a_baseline(tmp_path):
    report = build_report(CASES, predictions(adv_wrong=1), bundle_name="1.0.0")
    path = tmp_path / "report.json"
    path.write_text(render_json(report))
    assert load_baseline(path) == report


def test_bad_baseline_and_floors(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something-else"}')
    with pytest.raises(CuratorError, match="not a gate report"):
        load_baseline(bad)
    toml = tmp_path / "floors.toml"
    toml.write_text("[floors]\noverall_accuracy = 1.5\n")
    with pytest.raises(CuratorError, match="floors.overall_accuracy"):
        load_floors(toml)
    toml.write_text("[floors]\novreall_accuracy = 0.5\n")
    with pytest.raises(CuratorError, match="Extra inputs"):
        load_floors(toml)


def test_floors_file_overrides_defaults(tmp_path):
    toml = tmp_path / "floors.toml"
    toml.write_text("[floors]\noverall_accuracy = 0.946\n\n[weights]\nfaithfulness = 1.0\n")
    loaded = load_floors(toml)
    assert loaded.floors.overall_accuracy == 0.946 and loaded.floors.max_brier == 0.2
    assert loaded.weights.faithfulness == 1.0 and loaded.weights.context_recall == 0.35


def test_floors_file_weights_drive_the_composite():
    found = predictions()
    found[GOLD].metrics = found[ADV].metrics = None
    found[GOLD] = found[GOLD].model_copy(
        update={
            "metrics": PredictionMetrics(context_recall=1.0, faithfulness=0.5, answer_relevancy=0.0)
        }
    )
    weights = FloorsFile.model_validate(
        {"weights": {"context_recall": 1, "faithfulness": 1, "answer_relevancy": 0}}
    )
    assert build_report(CASES, found).quality["composite"] == pytest.approx(0.35 + 0.2)
    assert build_report(CASES, found, floors=weights).quality["composite"] == pytest.approx(0.75)


def test_markdown_summary():
    baseline = build_report(CASES, predictions(), bundle_name="1.0.0")
    report = build_report(
        CASES,
        predictions(adv_wrong=2, thread=False),
        bundle_name="1.0.0",
        predictions_name="regressed.jsonl",
        baseline=baseline,
        baseline_name="good.json",
        floors=floors(overall_accuracy=0.9, adversarial_accuracy=0.7),
    )
    text = render_markdown(report)
    assert text.startswith("## curator gate ❌ failed\n")
    assert "| overall_accuracy | ❌ fail | 0.7692 | ≥ 0.9 | 10/13 = 0.769 < 0.9 |" in text
    assert "| faithfulness_drop | ✅ pass |" in text
    assert "| truncated | 4 | 6 | 66.7% |" in text and "| clean | 6 | 7 | 85.7% |" in text
    assert "### Regressed against the baseline (2)" in text
    assert f"| `{ADV}` | 6/6 | 4/6 | hallucination, confidence_mismatch |" in text
    assert f"- `{THREAD}`" in text  # no prediction


def test_junit_has_one_testcase_per_fixture():
    report = build_report(CASES, predictions(adv_wrong=1, thread=False))
    root = ET.fromstring(render_junit(report))
    fixtures, gate_suite = root.findall("testsuite")
    cases = {case.get("name"): case for case in fixtures.findall("testcase")}
    assert list(cases) == [GOLD, ADV, THREAD]
    assert (fixtures.get("tests"), fixtures.get("failures")) == ("3", "2")
    assert cases[GOLD].find("failure") is None
    failure = cases[ADV].find("failure")
    assert failure.get("message") == "1 of 6 items wrong: hallucination, confidence_mismatch"
    assert "landlord: expected 'Maria Jensen', got 'Samuel Price' (confidence 0.9)" in failure.text
    assert cases[THREAD].find("failure").get("message") == "no prediction for this fixture"
    assert [case.get("name") for case in gate_suite] == [
        "overall_accuracy",
        "adversarial_accuracy",
        "brier",
        "faithfulness_drop",
        "pass_rate",
        "flaky_share",
        "judge_calibration",
    ]
    assert gate_suite[3].find("skipped") is not None and gate_suite.get("skipped") == "4"


def test_outputs_written_with_reliability_png(tmp_path):
    report = build_report(CASES, predictions(adv_wrong=1))
    written = write_outputs(report, tmp_path / "out", plot=True)
    assert [p.name for p in written] == [
        "report.json",
        "summary.md",
        "junit.xml",
        "reliability.png",
    ]
    png = (tmp_path / "out" / "reliability.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    # Deterministic: the same report draws the same bytes.
    write_outputs(report, tmp_path / "again", plot=True)
    assert (tmp_path / "again" / "reliability.png").read_bytes() == png


def _with_runs(found, passed: dict[str, int], repetitions: int = 4):
    return {
        fid: p.model_copy(update={"runs": RunStats(repetitions=repetitions, passed=passed[fid])})
        for fid, p in found.items()
    }


def test_repeated_runs_gate_on_mean_pass_rate_and_flaky_share():
    steady = build_report(CASES, _with_runs(predictions(), {GOLD: 4, ADV: 4, THREAD: 4}))
    assert gates(steady)["pass_rate"] == "pass" and gates(steady)["flaky_share"] == "pass"
    shaky = build_report(CASES, _with_runs(predictions(), {GOLD: 4, ADV: 2, THREAD: 1}))
    assert gates(shaky)["flaky_share"] == "fail"  # 2 of 3 flaky > 0.1
    assert gates(shaky)["pass_rate"] == "fail"  # (1 + 0.5 + 0.25) / 3 = 0.583 < 0.8
    assert shaky.repetitions["flaky"] == [ADV, THREAD]
    flaky = {f.id: f for f in shaky.fixtures}
    assert flaky[ADV].flaky and "flaky" in flaky[ADV].classes and flaky[ADV].pass_rate == 0.5
    assert not flaky[GOLD].flaky and flaky[GOLD].pass_rate == 1.0
    assert "### Repeated runs" in render_markdown(shaky)


def test_verdicts_of_a_curator_judge_need_its_calibration_on_the_bundle():
    judged = predictions()
    verdict = RubricVerdict.model_validate(
        {"rubric": "mentions @ana", "pass": True, "judge": "openai:m", "prompt_version": "v1"}
    )
    judged[THREAD] = judged[THREAD].model_copy(update={"rubrics": [verdict]})
    missing = build_report(CASES, judged, calibrations={("openai:m", "v1"): None})
    check = next(c for c in missing.gates if c.name == "judge_calibration")
    assert check.status == "fail" and "has no calibration" in check.detail and not missing.passed

    def gate_on(record: CalibrationRecord):
        report = build_report(CASES, judged, calibrations={("openai:m", "v1"): record})
        return next(c for c in report.gates if c.name == "judge_calibration"), report

    check, _ = gate_on(calibration(known_bad=40, passed_bad=40, reference=8))
    assert check.status == "fail" and "accuracy 0.167 < 0.9" in check.detail
    assert "rubric false-pass 40/40 = 1.000 (95% CI 0.912-1.000)" in check.detail
    # A judge that failed three known-bad answers has shown little: 0/3 may still be 56 %.
    check, _ = gate_on(calibration(known_bad=3, passed_bad=0, reference=5))
    assert check.status == "fail"
    assert "rubric false-pass 0/3 = 0.000 (95% CI 0.000-0.561): upper bound > 0.1" in check.detail
    check, trusted = gate_on(calibration(known_bad=40, passed_bad=0, reference=8))
    assert check.status == "pass" and trusted.passed
    assert check.detail == "openai:m accuracy 1.000, false-pass rate at most 0.088"


def calibration(known_bad: int, passed_bad: int, reference: int) -> CalibrationRecord:
    """A record as calibrations before derived known-bad answers wrote it (no kind, no
    rates): the gate recomputes the rates from its judgements."""
    results = [
        {
            "fixture_id": THREAD,
            "rubric": "mentions @ana",
            "answer": "known-bad",
            "expected_pass": False,
            "passed": i < passed_bad,
        }
        for i in range(known_bad)
    ] + [
        {
            "fixture_id": THREAD,
            "rubric": "mentions @ana",
            "answer": "reference",
            "expected_pass": True,
            "passed": True,
        }
        for _ in range(reference)
    ]
    cases = known_bad + reference
    return CalibrationRecord.model_validate(
        {
            "format": "curator-judge-calibration",
            "schema_version": 1,
            "bundle_version": "1.0.0",
            "bundle_content_sha256": "0" * 64,
            "judge": "openai:m",
            "prompt_version": "v1",
            "calibrated_at": "2026-01-01T00:00:00Z",
            "cases": cases,
            "known_bad": known_bad,
            "reference": reference,
            "errors": 0,
            "accuracy": (cases - passed_bad) / cases,
            "false_pass_rate": passed_bad / known_bad,
            "by_rubric": [],
            "results": results,
        }
    )
