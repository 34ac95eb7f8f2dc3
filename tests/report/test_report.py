"""curator report: one self-contained, deterministic HTML page; bad input is exit 2."""

from __future__ import annotations

import re

import pytest

from curator.report.page import SECTIONS
from tests.conftest import run_cli


def _report(sample_runs, tmp_path, *extra):
    out = tmp_path / "report.html"
    run = run_cli("report", "--bundle", str(sample_runs["bundle"]), "--out", str(out), *extra)
    assert run.exit_code == 0, run.stderr
    assert run.stdout.strip() == f"wrote {out}"
    return out.read_text()


def _full(sample_runs, tmp_path):
    return _report(
        sample_runs,
        tmp_path,
        "--gate",
        str(sample_runs["gate_regressed"]),
        "--runs",
        str(sample_runs["evals_good"]),
        "--runs",
        str(sample_runs["evals_regressed"]),
    )


def test_the_page_is_self_contained(sample_runs, tmp_path):
    page = _full(sample_runs, tmp_path)
    assert "default-src 'none'" in page  # the CSP: a browser fetches nothing for this page
    assert not re.search(r"<script|<link|<img|<iframe|@import|url\(", page, re.IGNORECASE)
    # The only URL is SVG's namespace name, which is never fetched.
    assert set(re.findall(r"https?://[^\s\"'<>]+", page)) == {"http://www.w3.org/2000/svg"}


def test_every_section_is_there_with_its_content(sample_runs, tmp_path):
    page = _full(sample_runs, tmp_path)
    for anchor, title, _ in SECTIONS:
        assert (
            f'<section id="{anchor}"><h2>{title}' in page
            and f'href="#{anchor}">{title}</a>' in page
        )
    assert 'aria-label="fixtures by category and mutation kind"' in page
    assert 'aria-label="accuracy by subset"' in page and 'aria-label="reliability diagram"' in page
    assert "Brier score 0." in page and 'aria-label="retrieval quality"' in page
    assert 'aria-label="run comparison"' in page
    assert "FAILED (overall_accuracy, adversarial_accuracy, faithfulness_drop)" in page


def test_failing_fixtures_show_excerpt_truth_and_answer(sample_runs, tmp_path):
    page = _full(sample_runs, tmp_path)
    failures = page[page.index('<section id="failures">') :]
    # make_predictions' regressed run invents this organisation for hallucinations
    assert "Northwind Holdings Ltd" in failures
    first = failures[failures.index('<details class="failure" open>') :]
    first = first[: first.index("</details>")]
    assert '<pre class="excerpt">' in first and ">truth</th>" in first and ">answer</th>" in first
    assert "<mark>" in failures  # the evidence of a wrong field, highlighted in its page
    assert "Eval run evals-regressed: " in failures and "judge timed out" in failures


def test_bundle_alone_says_what_is_missing(sample_runs, tmp_path):
    page = _report(sample_runs, tmp_path)
    assert "No gate report or eval run given: nothing was scored." in page
    assert "No reliability diagram: no gate report given." in page
    assert "No eval runs given" in page
    assert (
        '<section id="composition">' in page
        and "Adversarial share 37% (10 of 27 fixtures)." in page
    )  # the sample store


def test_same_inputs_give_the_same_bytes(sample_runs, tmp_path):
    first = _full(sample_runs, tmp_path / "a")
    assert _full(sample_runs, tmp_path / "b") == first


@pytest.mark.parametrize(
    "option, problem",
    [
        ("--gate", "not a gate report"),
        ("--runs", "evals.jsonl:1: not valid JSON"),
    ],
)
def test_bad_input_is_exit_2_and_writes_nothing(sample_runs, tmp_path, option, problem):
    bad = tmp_path / ("report.json" if option == "--gate" else "evals.jsonl")
    bad.write_text("{nope\n")
    out = tmp_path / "report.html"
    run = run_cli(
        "report", "--bundle", str(sample_runs["bundle"]), option, str(bad), "--out", str(out)
    )
    assert (
        run.exit_code == 2 and run.stderr.startswith("curator: error: ") and problem in run.stderr
    )
    assert not out.exists()


def test_no_bundle_is_exit_2(tmp_path):
    run = run_cli("report", "--bundle", str(tmp_path / "none"), "--out", str(tmp_path / "r.html"))
    assert run.exit_code == 2 and "no bundle at" in run.stderr


def _runs_in_folders(sample_runs, tmp_path, folders):
    """The good run as evals.jsonl in each folder, as `curator eval run --out` writes it."""
    paths = []
    for folder in folders:
        (tmp_path / folder).mkdir(parents=True)
        paths.append(tmp_path / folder / "evals.jsonl")
        paths[-1].write_bytes(sample_runs["evals_good"].read_bytes())
    return paths


def _run_rows(page):
    table = page[page.index('id="runs"') :]
    return re.findall(r"<tr><td>([^<]*)</td>", table[: table.index("</table>")])


def test_runs_are_named_by_their_folder_not_all_evals_jsonl(sample_runs, tmp_path):
    paths = _runs_in_folders(sample_runs, tmp_path, ["monday", "tuesday", "wednesday"])
    extra = [arg for path in (paths[0], paths[1], paths[2].parent) for arg in ("--runs", str(path))]
    page = _report(sample_runs, tmp_path, *extra)
    assert _run_rows(page) == ["monday", "tuesday", "wednesday"]
    assert "wednesday against tuesday" in page


def test_a_name_names_a_run_and_clashing_folders_keep_their_paths(sample_runs, tmp_path):
    paths = _runs_in_folders(sample_runs, tmp_path, ["a/eval-out", "b/eval-out", "c/eval-out"])
    extra = [arg for path in paths for arg in ("--runs", str(path))]
    page = _report(sample_runs, tmp_path, *extra, "--name", "baseline")
    assert _run_rows(page) == ["baseline", str(paths[1]), str(paths[2])]


@pytest.mark.parametrize(
    "names, problem",
    [(["a", "b"], "2 --name for 1 --runs"), (["  "], "--name cannot be empty")],
)
def test_bad_run_names_are_exit_2_and_write_nothing(sample_runs, tmp_path, names, problem):
    out = tmp_path / "report.html"
    extra = [arg for name in names for arg in ("--name", name)]
    run = run_cli(
        "report",
        "--bundle",
        str(sample_runs["bundle"]),
        "--runs",
        str(sample_runs["evals_good"]),
        *extra,
        "--out",
        str(out),
    )
    assert run.exit_code == 2 and problem in run.stderr and not out.exists()
