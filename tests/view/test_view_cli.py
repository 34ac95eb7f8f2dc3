"""curator view without a terminal: --check, --comment, --json, and bad input."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli
from tests.view.conftest import line, write_run


def test_check_exits_1_on_any_failure_and_names_each(runs):
    old, new = runs
    result = run_cli("view", str(new), "--check")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "8 tests | 3 passed | 3 failed | 1 flaky | 1 errors"
    assert "FLAKY  thread-h  mentions that @sam.lee will roll back" in lines
    assert "ERROR  thread-i  names the failing service" in lines
    assert not any("lease-a" in entry for entry in lines)


def test_check_passes_when_everything_passes(tmp_path):
    path = write_run(tmp_path / "evals.jsonl", [line("lease-a", "tenant = Jordan Blake", True)])
    result = run_cli("view", str(path), "--check")
    assert (result.exit_code, result.stdout.strip()) == (
        0,
        "1 tests | 1 passed | 0 failed | 0 flaky | 0 errors",
    )


def test_comment_is_markdown_with_rates_comparison_and_folded_failures(runs, tmp_path):
    old, new = runs
    target = tmp_path / "comment.md"
    result = run_cli("view", "--comment", str(target), str(new), "--compare", str(old))
    assert result.exit_code == 0, result.stderr  # a comment alone reports, --check gates
    text = target.read_text()
    assert text.startswith(
        "## Eval results: new.jsonl\n\n"
        "**8 tests | 3 passed | 3 failed | 1 flaky | 1 errors** over 2 repetitions"
    )
    assert (
        "| regressed | fixed | new | dropped | still failing | still passing |\n"
        "|---:|---:|---:|---:|---:|---:|\n| 3 | 1 | 2 | 2 | 1 | 1 |" in text
    )
    assert "### Pass rate by category" in text and "| truncated | 0 | 1 | 0% |" in text
    assert "### Pass rate by mutation" in text and "| contradict | 1 | 1 | 100% |" in text
    assert "### Failures (5)" in text
    assert text.count("<details>") == 5 == text.count("</details>")
    folded = text[text.index("<code>lease-b</code>") :]
    folded = folded[: folded.index("</details>")]
    assert "> \\$1,900.00" in folded  # the answer ($ escaped: GitHub reads $...$ as maths)
    assert (
        "> \u201cMonthly Rent: \\$1,250.00\u201d: found in the fixture (judge rules)" in folded
    )  # the evidence
    assert "variant of golden lease-b-golden-00000002, made by truncate" in folded  # the lineage
    assert "> #0 pass 1.00, #1 fail 0.20" in text  # the flaky item's repetitions


def test_json_reports_counts_and_comparison(runs):
    old, new = runs
    result = run_cli("view", str(new), "--compare", str(old), "--json", "--check")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["counts"]["flaky"] == 1 and report["comparison"]["regressed"] == 3
    assert [f["name"] for f in report["failures"]] == [
        "lease-b",
        "lease-d",
        "lease-g",
        "thread-h",
        "thread-i",
    ]


def test_without_a_terminal_the_app_refuses_with_a_hint(runs):
    result = run_cli("view", str(runs[1]))
    assert result.exit_code == 2
    assert (
        result.stderr.strip()
        == "curator: error: curator view needs a terminal; use --check, --comment FILE or --json"
    )


def test_bad_input_is_one_line_exit_2_and_no_comment_written(tmp_path):
    broken = tmp_path / "evals.jsonl"
    broken.write_text('{"name": "x", "timestamp": "t", "pass": true}\n{oops\n')
    target = tmp_path / "comment.md"
    result = run_cli("view", str(broken), "--comment", str(target))
    assert (
        result.exit_code == 2
        and result.stderr.startswith("curator: error: ")
        and "evals.jsonl:2: not valid JSON" in result.stderr
    )
    assert not target.exists()
    missing = run_cli("view", str(tmp_path / "nope.jsonl"), "--check")
    assert missing.exit_code == 2 and "nope.jsonl: no such file" in missing.stderr


@pytest.mark.parametrize("text", ["", "\n", "  \n\n\t\n"])
def test_an_empty_or_blank_run_is_no_results_not_a_pass(tmp_path, runs, text):
    empty = tmp_path / "evals.jsonl"
    empty.write_text(text)
    target = tmp_path / "comment.md"
    for args in (
        ("--check",),
        ("--check", "--json"),
        ("--comment", str(target)),
        ("--check", "--compare", str(runs[0])),
    ):
        result = run_cli("view", str(empty), *args)
        assert (result.exit_code, result.stdout) == (2, ""), args
        assert result.stderr == (
            f"curator: error: {empty}: no results were recorded (the file has no eval line)\n"
        )
    assert not target.exists()
    against_empty = run_cli("view", str(runs[1]), "--check", "--compare", str(empty))
    assert against_empty.exit_code == 2 and "no results were recorded" in against_empty.stderr
