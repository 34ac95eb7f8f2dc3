"""Bad input: one clear error line, exit 2, the store unchanged; checked with real files."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli, snapshot
from tests.ingest.conftest import EXAMPLES, make_bad_inputs

CASES = [
    "malformed-json",
    "truncated-json",
    "not-an-export",
    "json-array",
    "no-posts",
    "posts-not-a-map",
    "post-not-an-object",
    "empty-json",
    "empty-pdf",
    "not-a-pdf",
    "corrupt-pdf",
    "truncated-pdf",
    "password-pdf",
    "zero-page-pdf",
    "bad-chat-line",
    "missing-path",
]


@pytest.fixture(scope="module")
def bad_inputs(tmp_path_factory):
    return make_bad_inputs(tmp_path_factory.mktemp("bad"))


def test_every_case_is_covered(bad_inputs):
    assert set(bad_inputs) == set(CASES)


@pytest.mark.parametrize("case", CASES)
def test_bad_input_is_one_error_line_exit_2_store_unchanged(store, bad_inputs, case):
    path, phrase = bad_inputs[case]
    before = snapshot(store.root)
    result = run_cli("import", path, store=store.root)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("curator: error: ") and phrase in lines[0]
    assert path.name in lines[0]
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert snapshot(store.root) == before


@pytest.mark.parametrize("case", ["password-pdf", "no-posts", "missing-path"])
def test_one_bad_source_among_good_ones_writes_nothing(store, bad_inputs, case):
    path, phrase = bad_inputs[case]
    before = snapshot(store.root)
    good = [EXAMPLES / "threads" / "lease-question.json", EXAMPLES / "pdfs" / "lease-maple.pdf"]
    result = run_cli("import", *good, path, store=store.root)
    assert result.exit_code == 2 and phrase in result.stderr
    assert snapshot(store.root) == before


def test_unknown_doc_type_category_and_extension_are_bad_usage(store, tmp_path):
    lease = EXAMPLES / "pdfs" / "lease-maple.pdf"
    other = tmp_path / "notes.txt"
    other.write_text("hello")
    before = snapshot(store.root)
    for args, phrase in [
        (["--doc-type", "contract", lease], "unknown doc type"),
        (["--category", "spicy", lease], "unknown category"),
        ([other], "unknown source type"),
        (["--rubric", " ", lease], "rubric cannot be empty"),
        ([tmp_path / "nothing-here"], "no such file"),
    ]:
        result = run_cli("import", *args, store=store.root)
        assert result.exit_code == 2 and phrase in result.stderr, (args, result.stderr)
        assert len(result.stderr.splitlines()) == 1
    assert snapshot(store.root) == before
