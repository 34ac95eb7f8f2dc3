"""Judges: the OpenAI-compatible client against scripted verdicts, the rules judge, evidence
checks, the verdict cache, calibration, and a key that never leaves the Authorization header."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from curator.judge.cache import CachedJudge, VerdictCache
from curator.judge.openai import OpenAIJudge
from curator.judge.rules import RulesJudge, checks
from curator.judge.verdict import EvidenceRule, RubricCase, quoted_in
from curator.model import CalibrationRecord, JudgeSettings
from tests.conftest import run_cli
from tests.eval.conftest import PLANTED_KEY
from tests.eval.judge_server import POLICIES

SOURCE = (
    "@ana: The new monthly rent is $2,050.00, starting on March 1, 2025.\n"
    "@ben: I will send the letter."
)
CASE = RubricCase(
    "rent-a-0000000a",
    "a" * 64,
    "States the new monthly rent of $2,050.00.",
    "The rent rises to $2,050.00 from March 1, 2025.",
    SOURCE,
)
FAST = JudgeSettings(timeout=0.5, max_retries=2, backoff=0.01, concurrency=2)


@pytest.fixture
def http_judge(judge_server, monkeypatch):
    def make(policy: str) -> tuple[OpenAIJudge, object]:
        server = judge_server(policy)
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("OPENAI_API_KEY", PLANTED_KEY)
        return OpenAIJudge("m", FAST), server

    return make


@pytest.mark.parametrize(
    ("policy", "passed", "verified", "failure_class", "error", "calls"),
    [
        ("good", True, True, None, None, 1),
        ("failing", False, True, "omission", None, 1),
        ("unverified", False, False, "unverified", None, 1),  # a quote from nowhere never passes
        ("one_letter", False, False, "unverified", None, 1),  # "e" is in every text
        ("elided", False, False, "unverified", None, 1),  # "a ... e": each part too short
        ("malformed", True, True, None, None, 1),  # repaired once by json-repair
        ("garbage", False, False, "judge_error", "not a JSON object", 1),
        ("error500", False, False, "judge_error", "answered 500 (after 2 retries)", 3),
        ("flaky500", True, True, None, None, 2),  # the retry succeeds
        ("slow", False, False, "judge_error", "did not answer within 0.5s", 3),
        # A total deadline: a reply one byte at a time is cut off, every attempt.
        ("trickle", False, False, "judge_error", "did not answer within 0.5s (after 2 retries)", 3),
        ("huge", False, False, "judge_error", "reply is over the cap of 1.0 MiB", 1),
        (
            "huge_declared",
            False,
            False,
            "judge_error",
            "reply is 50.0 MiB, over the cap of 1.0 MiB",
            1,
        ),
        (
            "echo401",
            False,
            False,
            "judge_error",
            'answered 401: {"error": {"message": "Incorrect API key: Bearer [key]',
            1,
        ),
    ],
)
def test_scripted_verdicts(http_judge, policy, passed, verified, failure_class, error, calls):
    judge, server = http_judge(policy)
    verdict = judge.judge(CASE)
    assert (verdict.passed, verdict.verified, verdict.failure_class) == (
        passed,
        verified,
        failure_class,
    )
    assert verdict.passes(0.6) is passed
    assert (error is None and verdict.error is None) or error in verdict.error
    assert server.calls == calls and server.authorized == calls
    if verdict.error is None:
        assert verdict.prompt_tokens and verdict.completion_tokens and verdict.latency_ms > 0


def test_policies_cover_what_the_issue_scripts():
    assert {"good", "failing", "malformed", "error500", "slow"} <= set(POLICIES)


def test_faithfulness_is_supported_statements_over_all(http_judge):
    judge, _ = http_judge("reader")
    case = RubricCase(
        CASE.fixture_id,
        CASE.fixture_sha256,
        "",
        "The rent rises to $2,050.00. It starts on March 1, 2025. A deposit of $900.00 is due.",
        SOURCE,
    )
    result = judge.faithfulness(case)
    assert [s.supported for s in result.statements] == [True, True, False]
    assert result.score == pytest.approx(2 / 3)


def test_the_rules_judge_checks_what_the_rubric_declares():
    judge = RulesJudge()
    rubric = (
        'Says "the letter" and @ben.w, matches /rent (rises|goes up)/ and gives $2,050 on '
        "2025-03-01."
    )
    assert [c.label for c in checks(rubric)] == [
        '"the letter"',
        "@ben.w",
        "/rent (rises|goes up)/",
        "$2,050 (amount)",
        "2025-03-01 (date)",
    ]
    output = "The rent goes up to 2050 USD on March 1, 2025; @ben.w sends the letter."
    verdict = judge.judge(RubricCase("x-0000000a", "a" * 64, rubric, output, SOURCE))
    assert verdict.passed and verdict.score == 1 and verdict.verified
    assert verdict.evidence == output  # the sentence holding the first check, not "@ben.w"
    terse = judge.judge(RubricCase("x-0000000a", "a" * 64, "mentions @ben.w", "@ben.w", SOURCE))
    assert terse.score == 1 and not terse.passed and terse.failure_class == "unverified"
    half = judge.judge(
        RubricCase("x-0000000a", "a" * 64, rubric, "@ben.wu: the letter, rent rises.", SOURCE)
    )
    assert (
        not half.passed and half.score == pytest.approx(2 / 5) and half.failure_class == "omission"
    )
    assert (
        "missing @ben.w, $2,050 (amount), 2025-03-01 (date)" in half.reasoning
    )  # @ben.wu is another handle
    nothing = judge.judge(RubricCase("x-0000000a", "a" * 64, "is helpful", "yes", SOURCE))
    assert not nothing.passes(0) and nothing.error.startswith(
        "the rules judge finds nothing to check"
    )


def test_evidence_must_be_quoted_from_the_fixture_or_the_output():
    assert quoted_in('"The new  MONTHLY rent is $2,050.00"', SOURCE)
    assert quoted_in("The new monthly rent … March 1, 2025", SOURCE)  # elided, parts in order
    assert quoted_in("... I will send the letter.", SOURCE)  # a leading cut is no part
    assert not quoted_in("March 1, 2025 ... The new monthly rent", SOURCE)
    assert not quoted_in("", SOURCE) and not quoted_in(
        "the rent is $3,000.00", SOURCE, "another text"
    )


@pytest.mark.parametrize(
    ("quote", "found_when_short"),
    [
        ("e", True),  # one letter
        ("a ... e", True),  # elided, every part one letter
        ("a … e", True),  # the same with the ellipsis character
        ("The new monthly rent ... e", True),  # one part long, the other a letter
        ("$2,050.00", True),  # one word of nine characters
        ("rent ... 2025", True),  # two one-word parts
        ("... ... ...", False),  # nothing but ellipses
        ("-- -- -- -- -- -- --", False),  # long, but no letter or digit
    ],
)
def test_a_quote_too_short_to_prove_anything_is_unverified(quote, found_when_short):
    assert not quoted_in(quote, SOURCE, CASE.output)
    # Found in the texts: with no minimum it would verify, so the minimum is what refuses it.
    assert quoted_in(quote, SOURCE, CASE.output, rule=EvidenceRule(1, 1)) is found_when_short


def test_the_evidence_minimum_is_a_judge_setting(http_judge):
    assert quoted_in("new monthly rent", SOURCE)  # three words
    assert quoted_in("$2,050.00, starting", SOURCE)  # two words, 19 characters
    assert not quoted_in("new monthly rent", SOURCE, rule=EvidenceRule(min_words=4, min_chars=20))
    judge, _ = http_judge("one_letter")
    assert not judge.judge(CASE).verified
    judge.evidence = EvidenceRule.of(JudgeSettings(evidence_min_words=1, evidence_min_chars=1))
    verdict = judge.judge(CASE)
    assert verdict.verified and verdict.passed


def test_the_cache_keys_on_line_rubric_output_judge_and_prompt(tmp_path):
    cache = VerdictCache(tmp_path)
    judge = CachedJudge(RulesJudge(), cache)
    judge.judge(CASE)
    judge.judge(CASE)
    assert (judge.counts.calls, judge.counts.cached) == (1, 1)
    for changed in (
        {"fixture_sha256": "b" * 64},
        {"rubric": "States $2,050.00."},
        {"output": "$2,050.00"},
    ):
        judge.judge(RubricCase(**{**CASE.__dict__, **changed}))
    assert judge.counts.calls == 4
    reread = CachedJudge(RulesJudge(), VerdictCache(tmp_path), offline=True)
    assert reread.judge(CASE).cached and reread.counts.calls == 0
    with (tmp_path / "verdicts.jsonl").open("a") as handle:
        handle.write('{"key": "torn')  # a killed run's last line
    assert len(VerdictCache(tmp_path)) == 4


def test_calibration_refuses_a_judge_that_passes_known_bad_answers(
    sample_bundle, eval_env, judge_server
):
    eval_env(judge_server("lenient"))
    run = run_cli("judge", "calibrate", str(sample_bundle), "--judge", "openai", "--json")
    assert run.exit_code == 1
    record = json.loads(run.stdout)
    # Only an empty answer escapes it: its quote ("nothing") is in neither text.
    assert record["false_pass_rate"] > 0.9 and record["known_bad"] >= 3 and record["reference"] >= 5
    assert record["shortfalls"][0] == "accuracy " + f"{record['accuracy']:.3f} < 0.9"
    assert [s.split(" ")[0] for s in record["shortfalls"][1:]] == ["rubric", "field"]
    assert all(s.endswith("upper bound > 0.1") for s in record["shortfalls"][1:])
    stored = CalibrationRecord.model_validate_json(Path(record["record"]).read_bytes())
    assert stored.bundle_version == "1.0.0" and stored.judge == "openai:judge-model"
    # Its verdicts are refused by the gate, whatever they say.
    assert (
        run_cli(
            "eval",
            "run",
            str(sample_bundle),
            "--system",
            "tests.eval.systems:perfect",
            "--judge",
            "openai",
        ).exit_code
        == 0
    )
    gate = run_cli(
        "gate", "--bundle", str(sample_bundle), "--predictions", "eval-out/predictions.jsonl"
    )
    assert gate.exit_code == 1 and "rubric false-pass 38/46 = 0.826" in gate.stdout

    rules = run_cli("judge", "calibrate", str(sample_bundle), "--judge", "rules")
    assert rules.exit_code == 0, rules.stdout
    assert "accuracy 1.000, false-pass rate 0.000" in rules.stdout
    assert (
        "1/1 agree  States the new monthly rent of $2,050.00." in rules.stdout
    )  # the known-bad one


def test_the_api_key_is_never_printed_logged_or_written(
    sample_bundle, eval_env, judge_server, tmp_path, caplog, monkeypatch
):
    caplog.set_level(logging.DEBUG)
    outputs = []
    for policy in ("reader", "error500", "garbage", "echo401"):
        eval_env(judge_server(policy))
        monkeypatch.setenv(
            "CURATOR_JUDGE_DIR", str(tmp_path / f"judge-{policy}")
        )  # no verdict replayed
        for args in (
            (
                "eval",
                "run",
                str(sample_bundle),
                "--system",
                "tests.eval.systems:perfect",
                "--judge",
                "openai",
                "--out",
                policy,
            ),
            (
                "eval",
                "run",
                str(sample_bundle),
                "--system",
                "tests.eval.systems:perfect",
                "--judge",
                "openai",
                "--out",
                f"{policy}-json",
                "--json",
            ),
            ("judge", "calibrate", str(sample_bundle), "--judge", "openai"),
            (
                "gate",
                "--bundle",
                str(sample_bundle),
                "--predictions",
                f"{policy}/predictions.jsonl",
                "--out",
                f"{policy}-gate",
            ),
            ("--debug", "judge", "calibrate", str(sample_bundle), "--judge", "openai", "--json"),
        ):
            run = run_cli(*args)
            outputs += [run.stdout, run.stderr]
    assert any("answered 401: " in text for text in outputs)  # the server's message, key scrubbed
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.name == "verdicts.jsonl" for p in written) and any(
        p.name == "evals.jsonl" for p in written
    )
    leaks = [str(p) for p in written if PLANTED_KEY.encode() in p.read_bytes()]
    leaks += [f"output {i}" for i, text in enumerate(outputs) if PLANTED_KEY in text]
    leaks += ["log"] if PLANTED_KEY in caplog.text else []
    assert leaks == []


def test_retries_stay_within_the_verdicts_budget(judge_server, monkeypatch):
    server = judge_server("trickle")
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    settings = JudgeSettings(timeout=0.5, max_retries=10, backoff=0.01, verdict_budget=1.2)
    verdict = OpenAIJudge("m", settings).judge(CASE)
    assert verdict.failure_class == "judge_error" and "budget 1.2s spent" in verdict.error
    assert server.calls == 3  # 0.5 s, 0.5 s, then the 0.2 s left: not the 11 attempts allowed


def test_the_reply_cap_is_a_setting(judge_server, monkeypatch):
    server = judge_server("verbose")
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    small = OpenAIJudge("m", FAST.model_copy(update={"max_reply_bytes": 1024}))
    assert small.judge(CASE).error.startswith(
        "the judge server's reply is 4 KiB, over the cap of 1 KiB"
    )
    assert OpenAIJudge("m", FAST).judge(CASE).passed
