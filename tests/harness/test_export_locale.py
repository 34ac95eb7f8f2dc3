"""A harness scores a fixture's values in the locale its labels were read in, as the gate
does: the export carries the locale (left out for en_US, so exports keep their bytes)."""

from __future__ import annotations

import json

from curator.bundle.build import build_bundle
from curator.harness import export_bundle, score_answer
from tests.conftest import run_cli
from tests.score.locale_orders import TRUTH, only_fixture, order_store


def test_an_exported_german_fixture_is_scored_in_german(tmp_path):
    store = order_store(tmp_path / "store", "de_DE")
    fid = only_fixture(store)
    assert run_cli("label", "set", fid, *TRUTH, store=store.root).exit_code == 0
    bundle = build_bundle(store, "1.0.0", formats="jsonl").path
    export_bundle(bundle, "inspect", tmp_path / "exports")
    (line,) = (tmp_path / "exports" / "inspect" / "samples.jsonl").read_text().splitlines()
    sample = json.loads(line)
    assert sample["metadata"]["locale"] == "de_DE"
    # "1,250" is 1.25 and "71.137" is 71137 in German; "€2.480" is the document's 2480 euros
    answer = {"issued": "3. April 2024", "units": "71.137", "total": "€2.480", "weight": "1,250"}
    items = score_answer(sample["metadata"], answer, sample["input"])
    assert {item.name: item.outcome for item in items} == dict.fromkeys(answer, "right")
    dollars = score_answer(sample["metadata"], {**answer, "total": "$2,480"}, sample["input"])
    assert {item.name for item in dollars if not item.right} == {"total"}


def test_an_en_us_export_has_no_locale(tmp_path):
    store = order_store(tmp_path / "store", "en_US")
    fid = only_fixture(store)
    assert run_cli("label", "set", fid, "units=71137", store=store.root).exit_code == 0
    bundle = build_bundle(store, "1.0.0", formats="jsonl").path
    export_bundle(bundle, "inspect", tmp_path / "exports")
    (line,) = (tmp_path / "exports" / "inspect" / "samples.jsonl").read_text().splitlines()
    assert "locale" not in json.loads(line)["metadata"]
