"""promote(): records in, anonymised adversarial fixtures out, duplicates and bad records out."""

from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path

import pytest

from curator.anonymise import audit_store
from curator.errors import CuratorError
from curator.model import Status
from curator.promote import promote
from curator.validate import validate_store
from tests.conftest import REPO, snapshot
from tests.promote.promote_helpers import lease_failure, store_text

MAPLE = REPO / "examples" / "pdfs" / "lease-maple.pdf"
MAPLE_TRUTH = json.loads((REPO / "examples" / "truth.json").read_text())["pdfs/lease-maple.pdf"][
    "fields"
]


def write(path: Path, *records: dict | str) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_lease_failure_becomes_an_anonymised_adversarial_fixture(store, tmp_path):
    record, originals = lease_failure(1, "trace-a")
    summary = promote(store, write(tmp_path / "f.jsonl", record))
    assert summary.exit_code == 0 and not summary.rejected and not summary.duplicates
    (done,) = summary.promoted
    loaded = store.load(done.fixture_id)
    fixture, content, labels = loaded.fixture, loaded.content, loaded.labels

    assert loaded.directory.parent.name == "adversarial" and fixture.adversarial
    assert (
        fixture.category == "hallucination"
        and fixture.kind == "document"
        and fixture.doc_type == "lease"
    )
    assert fixture.status is Status.needs_review  # one field corrected out of seven
    assert fixture.provenance.importer == "promote" and fixture.provenance.trace_id == "trace-a"

    (bad,) = fixture.known_bad
    assert bad.trace_id == "trace-a" and bad.failure_mode == "hallucination"
    assert bad.fields["security_deposit"] == {"value": "$3,750.00", "confidence": 0.88}
    assert bad.fields["monthly_rent"]["value"] == "$1,875.00"
    tenant = bad.fields["tenant"]["value"]
    assert (
        tenant != originals["tenant"] and tenant in content.pages[0].text
    )  # same pseudonym as the input

    assert labels.source == "promote" and labels.rev == 1 and "trace-a" in labels.reason
    assert labels.fields["security_deposit"].expected_absent
    # Uncorrected output values found in the input are carried over, with evidence.
    assert labels.fields["tenant"].value == tenant and labels.fields["tenant"].evidence.page == 1
    assert labels.fields["monthly_rent"].value == "$1,875.00"
    assert validate_store(store) == []

    text = store_text(store.root)
    for original in originals.values():
        assert original not in text
    assert audit_store(store) == []


def test_complete_corrections_make_it_reviewed_and_unfound_output_is_left_out(store, tmp_path):
    record, originals = lease_failure(2, "trace-b")
    record["output"]["fields"]["landlord"]["value"] = (
        "Zebulon Quartermaine"  # occurs nowhere in the input
    )
    record["corrections"] = {
        "fields": {
            "tenant": originals["tenant"],
            "landlord": originals["landlord"],
            "premises_address": None,
            "lease_start_date": "2025-03-01",
            "lease_end_date": "February 28, 2026",
            "monthly_rent": "$1,875.00",
            "security_deposit": None,
        }
    }
    (done,) = promote(store, write(tmp_path / "f.json", record)).promoted
    assert done.status == "reviewed"
    loaded = store.load(done.fixture_id)
    assert set(loaded.labels.fields) == set(store.config.doc_types["lease"].fields)
    assert validate_store(store) == []

    record, _ = lease_failure(3, "trace-c")
    record["output"]["fields"]["landlord"]["value"] = "Zebulon Quartermaine"
    (done,) = promote(store, write(tmp_path / "g.json", record)).promoted
    loaded = store.load(done.fixture_id)
    assert "landlord" not in loaded.labels.fields
    assert any("landlord" in w and "not found in the input" in w for w in loaded.fixture.warnings)
    assert "Zebulon Quartermaine" not in store_text(
        store.root
    )  # the hallucinated name is anonymised too


def test_same_trace_twice_is_a_no_op_even_with_force(store, tmp_path):
    record, _ = lease_failure(4, "trace-d")
    path = write(tmp_path / "f.jsonl", record)
    (first,) = promote(store, path).promoted
    before = snapshot(store.root)
    changed, _ = lease_failure(5, "trace-d")  # other content, same trace
    for again in (
        promote(store, path),
        promote(store, write(tmp_path / "g.jsonl", changed), force=True),
    ):
        assert not again.promoted and again.exit_code == 0
        assert again.duplicates[0].fixture_id == first.fixture_id
        assert "trace already promoted" in again.duplicates[0].reason
    assert snapshot(store.root) == before


def test_near_duplicate_is_reported_and_written_only_with_force(store, tmp_path):
    record, _ = lease_failure(6, "trace-e")
    (first,) = promote(store, write(tmp_path / "f.jsonl", record)).promoted
    near = json.loads(json.dumps(record))
    near["trace_id"] = "trace-e2"
    near["input"]["text"] = record["input"]["text"].replace("No security deposit", "No deposit")
    path = write(tmp_path / "g.jsonl", near)
    before = snapshot(store.root)

    summary = promote(store, path)
    (dup,) = summary.duplicates
    assert dup.reason.startswith(f"already covered by {first.fixture_id}") and dup.similarity >= 0.9
    assert summary.exit_code == 0 and snapshot(store.root) == before

    (forced,) = promote(store, path, force=True).promoted
    assert forced.near_duplicate_of == first.fixture_id
    assert any(first.fixture_id in w for w in store.load(forced.fixture_id).fixture.warnings)


def test_a_batch_rejects_bad_records_by_line_and_promotes_the_rest(store, tmp_path):
    good_1, _ = lease_failure(7, "trace-f1")
    good_2, _ = lease_failure(8, "trace-f2")
    bad_mode, _ = lease_failure(9, "trace-x1", failure_mode="made_up")
    no_file, _ = lease_failure(10, "trace-x2", input={"pdf": "missing.pdf"})
    not_pdf, _ = lease_failure(
        11, "trace-x3", input={"pdf_base64": base64.b64encode(b"hello, not a pdf").decode()}
    )
    bad_value, _ = lease_failure(
        12, "trace-x4", corrections={"fields": {"lease_start_date": "someday"}}
    )
    bad_type, _ = lease_failure(13, "trace-x5", doc_type="recipe")
    no_mode, _ = lease_failure(14, "trace-x6", failure_mode=None)
    bad_thread, _ = lease_failure(17, "trace-x7", doc_type=None, input={"thread": {"posts": []}})
    path = write(
        tmp_path / "batch.jsonl",
        good_1,
        "{oops",
        bad_mode,
        no_file,
        not_pdf,
        bad_value,
        bad_type,
        no_mode,
        bad_thread,
        good_2,
    )
    summary = promote(store, path)
    assert [p.trace_id for p in summary.promoted] == ["trace-f1", "trace-f2"]
    reasons = {r.line: r.reason for r in summary.rejected}
    assert sorted(reasons) == [2, 3, 4, 5, 6, 7, 8, 9]
    assert "not valid JSON" in reasons[2]
    assert "unknown failure mode 'made_up'" in reasons[3]
    assert "missing.pdf" in reasons[4] and "no such file" in reasons[4]
    assert "pdf" in reasons[5].lower()
    assert "lease_start_date" in reasons[6]
    assert "unknown doc type 'recipe'" in reasons[7]
    assert "no failure mode" in reasons[8]
    assert "'posts' must be a map" in reasons[9]
    assert summary.exit_code == 2
    assert sorted(store.ids()) == sorted(p.fixture_id for p in summary.promoted)


def test_all_rejected_leaves_the_store_as_it_was(store, tmp_path):
    before = snapshot(store.root)
    bad, _ = lease_failure(15, "trace-g", input={"text": "   "})
    summary = promote(store, write(tmp_path / "f.jsonl", bad))
    assert summary.rejected[0].reason == "input text is empty" and summary.exit_code == 2
    assert snapshot(store.root) == before


def test_failure_mode_option_overrides_and_an_unknown_one_is_a_usage_error(store, tmp_path):
    record, _ = lease_failure(16, "trace-h", failure_mode=None)
    path = write(tmp_path / "f.jsonl", record)
    with pytest.raises(CuratorError, match="unknown failure mode 'bogus'"):
        promote(store, path, failure_mode="bogus")
    (done,) = promote(store, path, failure_mode="truncation_artifact").promoted
    assert done.category == "truncation_artifact"
    assert done.fixture_id.startswith("truncation-artifact-lease-")


def test_pdf_and_base64_pdf_inputs_are_read_by_the_importer_and_deduplicated(store, tmp_path):
    shutil.copy(MAPLE, tmp_path / "lease.pdf")
    output = {name: {"value": value, "confidence": 0.9} for name, value in MAPLE_TRUTH.items()}
    output["tenant"] = {"value": MAPLE_TRUTH["landlord"], "confidence": 0.6}
    record = {
        "trace_id": "trace-pdf",
        "observed_at": "2025-02-13T11:20:44Z",
        "failure_mode": "confidence_mismatch",
        "doc_type": "lease",
        "input": {"pdf": "lease.pdf"},
        "output": {"fields": output},
        "corrections": {"fields": MAPLE_TRUTH},
    }
    again = dict(
        record,
        trace_id="trace-pdf-2",
        input={"pdf_base64": base64.b64encode(MAPLE.read_bytes()).decode()},
    )
    summary = promote(store, write(tmp_path / "f.jsonl", record, again))
    (done,) = summary.promoted
    assert done.status == "reviewed"
    assert summary.duplicates[0].reason.startswith(
        f"already covered by {done.fixture_id} (similarity 1.00"
    )
    loaded = store.load(done.fixture_id)
    assert loaded.content.pages[0].origin == "text-layer"
    assert (
        loaded.fixture.known_bad[0].fields["tenant"]["value"]
        == loaded.labels.fields["landlord"].value
    )
    assert validate_store(store) == []
    text = store_text(store.root)
    for name in ("tenant", "landlord", "premises_address"):
        assert MAPLE_TRUTH[name] not in text
    assert audit_store(store) == []


def test_thread_failure_shares_pseudonyms_with_the_imported_thread(store, tmp_path):
    from curator.ingest.api import import_sources

    source = REPO / "examples" / "threads" / "lease-question.json"
    (imported,) = import_sources(store, [source]).created
    imported = store.load(imported["id"])
    export = json.loads(source.read_text())
    heather = next(u for u in export["users"].values() if u["username"] == "heather.atkins")
    record = {
        "trace_id": "trace-thread",
        "observed_at": "2025-02-12T16:05:00Z",
        "failure_mode": "field_targeting",
        "note": "Summary credits Heather Atkins with the scan.",
        "input": {"thread": export},
        "output": {
            "text": "@heather.atkins scanned the signed copy; Heather says rent is $1,500.00."
        },
        "corrections": {
            "rubrics": [
                "The answer states the monthly rent of $1,750.00.",
                "Does not claim that Heather Atkins scanned the signed copy.",
            ]
        },
    }
    path = write(tmp_path / "f.json", record)
    (dup,) = promote(store, path).duplicates
    assert dup.fixture_id == imported.fixture.id and dup.similarity == 1.0

    (done,) = promote(store, path, force=True).promoted
    promoted = store.load(done.fixture_id)
    assert promoted.fixture.kind == "thread" and done.status == "reviewed"
    assert promoted.directory.parent.name == "adversarial"
    # The shared vault: the same people get the same pseudonyms as in the imported fixture.
    names = {
        u.id: (u.username, u.first_name, u.last_name)
        for u in imported.content.export.users.values()
    }
    assert {
        u.id: (u.username, u.first_name, u.last_name)
        for u in promoted.content.export.users.values()
    } == names
    pseudonym = next(
        u
        for u in promoted.content.export.users.values()
        if u.id not in export["users"]
        and u.username != heather["username"]
        and u.first_name + " " + u.last_name in " ".join(r.text for r in promoted.labels.rubrics)
    )
    assert f"@{pseudonym.username}" in promoted.fixture.known_bad[0].text
    assert pseudonym.first_name in promoted.fixture.known_bad[0].text
    text = store_text(promoted.directory)
    for original in (
        "heather.atkins",
        "Heather",
        "Atkins",
        "Jose Johnson",
        *export["users"],
        *export["posts"],
    ):
        assert original not in text
    assert validate_store(store) == []
    assert audit_store(store) == []
