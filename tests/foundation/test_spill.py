"""A report of any length costs a command no memory that grows with it: records past the
first few wait on disk (curator/spill.py), and --json writes them one at a time, the same
bytes `json.dumps` writes for a list."""

from __future__ import annotations

import json

import pytest

from curator.cli.common import json_chunks
from curator.ingest import ImportReport
from curator.spill import Spill


def test_records_read_back_in_order_wherever_they_were_held():
    records = [{"id": f"fixture-{n}", "warnings": [], "posts": n, "note": "é\n"} for n in range(25)]
    spill = Spill(records, in_memory=4)
    assert len(spill) == 25 and list(spill) == records
    assert list(spill) == records  # read again
    spill.append({"id": "late"})
    assert list(spill)[-1] == {"id": "late"} and len(spill) == 26


@pytest.mark.parametrize("kept", [2, 10, 30])
def test_records_after_a_mark_are_taken_back(kept):
    spill = Spill(({"n": n} for n in range(kept)), in_memory=5)
    mark = spill.mark()
    spill.extend({"n": n} for n in range(kept, kept + 12))
    spill.drop_since(mark)
    assert list(spill) == [{"n": n} for n in range(kept)] and len(spill) == kept
    spill.append({"n": "next"})
    assert list(spill)[-1] == {"n": "next"}


@pytest.mark.parametrize("count", [0, 1, 3, 40])
def test_json_with_a_spill_is_what_json_dumps_writes_for_a_list(count):
    records = [{"id": f"f-{n}", "pages": [{"number": 1}], "text": "a\nb"} for n in range(count)]
    report = ImportReport(created=Spill(records, in_memory=2), skipped=[{"source": "x.pdf"}])
    written = "".join(json_chunks(report.as_json()))
    expected = {"created": records, "skipped": [{"source": "x.pdf"}], "failed": []}
    assert written == json.dumps(expected, indent=2, ensure_ascii=False) + "\n"


def test_the_text_report_is_written_a_line_at_a_time():
    records = [
        {
            "id": f"f-{n}",
            "kind": "thread",
            "doc_type": None,
            "source": "import.jsonl",
            "stored_source_name": "import.jsonl",
            "suggested_fields": [],
        }
        for n in range(3)
    ]
    lines = list(ImportReport(created=Spill(records, in_memory=1)).render())
    assert lines == [
        "created f-0 (thread from import.jsonl)",
        "created f-1 (thread from import.jsonl)",
        "created f-2 (thread from import.jsonl)",
        "3 fixture(s) created, 0 source(s) already imported",
    ]
