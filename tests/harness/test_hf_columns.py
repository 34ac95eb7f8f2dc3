"""The Hugging Face dataset and the parquet carry everything `curator gate` uses: reference
answers, expected-absent and unanswerable markers, no-evidence reasons and the posts each
rubric is judged on (issue 30 item 4)."""

from __future__ import annotations

import pytest

from curator.bundle import load
from curator.bundle.build import build_bundle
from tests.conftest import copy_sample_store, run_cli


@pytest.fixture(scope="module")
def columns_bundle(tmp_path_factory):
    store = copy_sample_store(tmp_path_factory.mktemp("hf") / "store")
    lease = next(i for i in store.ids() if i.startswith("residential-lease-agreement-0f35b496"))
    done = run_cli(
        "label",
        "set",
        lease,
        "monthly_rent=$1,175.00",
        "security_deposit=",
        "--no-evidence",
        "rent raised by the addendum mailed separately",
        "--reason",
        "addendum",
        store=store.root,
    )
    assert done.exit_code == 0, done.stderr
    thread = next(i for i in store.ids() if i.startswith("maintenance-channel"))
    post = store.load(thread).content.texts()[0][0][1]
    done = run_cli(
        "label",
        "set",
        thread,
        "--rubric",
        "says who fixes it",
        "--evidence-post",
        str(post),
        store=store.root,
    )
    assert done.exit_code == 0, done.stderr
    return build_bundle(store, "1.0.0", formats="jsonl,hf,parquet").path, lease


def test_the_columns_carry_what_the_gate_scores_with(columns_bundle):
    import datasets
    import pandas

    bundle, lease_id = columns_bundle
    splits = datasets.load_from_disk(str(bundle / "hf"))
    rows = {row["id"]: row for split in splits.values() for row in split}
    frame = pandas.read_parquet(bundle / "fixtures.parquet").set_index("id")
    truth = {item.id: item.labels for item in load(bundle)}
    assert set(rows) == set(truth) == set(frame.index)
    for fixture_id, labels in truth.items():
        row = rows[fixture_id]
        assert row["reference"] == (labels.reference if labels else None)
        assert frame.loc[fixture_id, "reference"] == row["reference"] or row["reference"] is None
        expected_rubrics = [
            {"rubric": r.text, "posts": list(r.evidence_posts)}
            for r in (labels.rubrics if labels else [])
        ]
        assert row["rubric_evidence"] == expected_rubrics
        by_name = {f["name"]: f for f in row["fields"]}
        for name, label in (labels.fields if labels else {}).items():
            assert by_name[name]["expected_absent"] == label.expected_absent
            assert by_name[name]["unanswerable"] == label.unanswerable
            assert by_name[name]["no_evidence"] == label.no_evidence
    lease = {f["name"]: f for f in rows[lease_id]["fields"]}
    assert lease["monthly_rent"]["no_evidence"] == "rent raised by the addendum mailed separately"
    assert (
        lease["security_deposit"]["expected_absent"] and lease["security_deposit"]["value"] is None
    )
    assert any(r["reference"] for r in rows.values())
    assert any(e["posts"] for r in rows.values() for e in r["rubric_evidence"])
