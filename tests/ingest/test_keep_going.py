"""`curator import FOLDER --keep-going`: the good files import, each bad one is reported on
its own line with its reason (exit 2); without the flag an import stays all or nothing."""

from __future__ import annotations

import json
import shutil

from tests.conftest import run_cli, snapshot
from tests.corpus import CORPUS_DIR as CORPUS
from tests.ingest.conftest import EXAMPLES, make_bad_inputs

BAD = [
    "malformed-json",
    "not-an-export",
    "corrupt-pdf",
    "password-pdf",
    "bad-chat-line",
    "empty-pdf",
]


def _folder(tmp_path):
    folder = tmp_path / "inbox"
    bad = make_bad_inputs(tmp_path / "all-bad")
    folder.mkdir()
    for case in BAD:
        shutil.copy(bad[case][0], folder)
    shutil.copy(EXAMPLES / "threads" / "lease-question.json", folder)
    shutil.copy(EXAMPLES / "pdfs" / "invoice-harbor.pdf", folder)
    shutil.copy(CORPUS / "images" / "ocrmypdf-baiona_color.jpg", folder)
    (folder / "notes.txt").write_text("not a source: left alone in a folder")
    return folder, {bad[case][0].name: bad[case][1] for case in BAD}


def test_keep_going_imports_the_good_files_and_reports_each_bad_one(store, tmp_path):
    folder, reasons = _folder(tmp_path)
    result = run_cli("import", folder, "--keep-going", store=store.root)
    assert result.exit_code == 2
    errors = [
        line for line in result.stderr.splitlines() if not line.startswith("curator: warning: ")
    ]
    assert len(errors) == len(BAD) and all(line.startswith("curator: error: ") for line in errors)
    for name, phrase in reasons.items():
        [line] = [line for line in errors if f"{name}" in line]
        assert phrase in line, line
    assert "3 fixture(s) created, 0 source(s) already imported, 6 failed" in result.stdout
    assert len(store.ids()) == 3


def test_keep_going_json_lists_what_failed(store, tmp_path):
    folder, reasons = _folder(tmp_path)
    result = run_cli("import", folder, "--keep-going", "--json", store=store.root)
    report = json.loads(result.stdout)
    assert result.exit_code == 2 and len(report["created"]) == 3
    assert sorted(item["source"] for item in report["failed"]) == sorted(reasons)
    again = run_cli("import", folder, "--keep-going", "--json", store=store.root)
    assert (
        len(json.loads(again.stdout)["skipped"]) == 3
    )  # the good ones, once imported, are skipped


def test_without_keep_going_one_bad_file_imports_nothing(store, tmp_path):
    folder, _ = _folder(tmp_path)
    before = snapshot(store.root)
    result = run_cli("import", folder, store=store.root)
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert snapshot(store.root) == before and not (store.root / ".curator" / "vault.json").exists()


def test_keep_going_with_only_good_files_exits_0(store):
    result = run_cli(
        "import", EXAMPLES / "threads" / "lease-question.json", "--keep-going", store=store.root
    )
    assert result.exit_code == 0 and "curator: error" not in result.stderr
