"""Doc types, evidence and show --text on real public PDFs (../shared/corpus, text layers read
by the real pdfplumber): the workflow a user follows when a PDF matches no document type."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli, snapshot
from tests.corpus import CORPUS_DIR

CORPUS = CORPUS_DIR / "pdfs"
MINUTES = CORPUS / "pdfplumber-2023-06-20-PV.pdf"  # French municipal minutes, two pages
CLAIMS = CORPUS / "pdfplumber-issue-140-example.pdf"  # a retailer's claims table


MINUTES_TYPE = """
[doc_types.minutes]
description = "Minutes of a municipal committee meeting"

[doc_types.minutes.fields.request]
type = "text"
labels = ["Demande"]
description = "The number of the request the committee decided on."

[doc_types.minutes.fields.notice_date]
type = "date"
labels = ["Avis public"]
description = "The day the public notice was published."
"""


@pytest.fixture
def corpus_store(store):
    config = store.root / "curator.toml"
    config.write_text(config.read_text() + MINUTES_TYPE)
    result = run_cli("import", MINUTES, CLAIMS, "--ocr", "never", "--json", store=store.root)
    assert result.exit_code == 0, result.stderr
    created = {Path(c["source"]).name: c for c in json.loads(result.stdout)["created"]}
    return store, created, result


def test_import_warns_per_file_when_no_type_is_guessed(corpus_store):
    store, created, result = corpus_store
    warnings = [line for line in result.stderr.splitlines() if "no document type guessed" in line]
    assert len(warnings) == 2
    for name, item in created.items():
        assert item["doc_type"] is None
        (line,) = [w for w in warnings if name in w]
        assert line.startswith(f"curator: warning: {item['id']}: {name}: no document type guessed")
        assert (
            "of 7 lease fields" in line and f"curator label set {item['id']} --doc-type T" in line
        )
    problems = json.loads(run_cli("validate", "--json", store=store.root).stdout)["problems"]
    assert {p["fixture"] for p in problems} == {c["id"] for c in created.values()}
    assert all("needs a doc type" in p["problem"] for p in problems)


def test_doc_type_evidence_and_text_on_real_minutes(corpus_store):
    store, created, _ = corpus_store
    minutes, claims = created[MINUTES.name]["id"], created[CLAIMS.name]["id"]

    assert (
        run_cli("label", "set", minutes, "--doc-type", "minutes", store=store.root).exit_code == 0
    )
    assert store.load_fixture(minutes).doc_type == "minutes"
    # a date is found however the document writes it: "2023-06-07" is "7 juin 2023" here
    result = run_cli(
        "label",
        "set",
        minutes,
        "notice_date=2023-06-07",
        "request=2023-0379",
        "--json",
        store=store.root,
    )
    assert result.exit_code == 0, result.stderr
    fields = json.loads(result.stdout)["fields"]
    assert fields["notice_date"]["evidence_text"] == "7 juin 2023"
    page = store.load(minutes).content.pages[fields["request"]["evidence"]["page"] - 1].text
    assert (
        page[fields["request"]["evidence"]["start"] : fields["request"]["evidence"]["end"]]
        == "2023-0379"
    )

    before = snapshot(store.root)
    refused = run_cli("label", "set", minutes, "request=2099-9999", store=store.root)
    assert refused.exit_code == 2 and "looked through its 2 page(s)" in refused.stderr
    # no amendment template for minutes: a contradiction would put a lease's words in them
    refused = run_cli("mutate", minutes, "--contradict", "notice_date", store=store.root)
    assert (
        refused.exit_code == 2 and "doc type 'minutes' has no amendment template" in refused.stderr
    )
    assert snapshot(store.root) == before

    shown = run_cli("show", minutes, "--text", store=store.root).stdout
    assert "--- page 1 (text-layer, fr)" in shown and "--- page 2 (text-layer, fr)" in shown
    assert "de l’avis public de démolition le 7 juin 2023" in shown

    # the table that is no document type of ours is retired, and validate passes
    assert run_cli("validate", store=store.root).exit_code == 1
    assert run_cli("status", claims, "--to", "retired", store=store.root).exit_code == 0
    assert run_cli("validate", store=store.root).exit_code == 0
