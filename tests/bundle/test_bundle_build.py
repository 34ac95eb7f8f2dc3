"""bundle build: formats readable by their real consumers, immutability, reproducibility."""

from __future__ import annotations

import gzip
import json
import tarfile

import pytest

from curator.bundle.build import build_bundle
from curator.bundle.formats import hf as hf_format
from curator.bundle.formats import parquet as parquet_format
from curator.model import (
    BundleManifest,
    ContentFile,
    Lineage,
    MutationStep,
    ThreadContent,
    ThreadExport,
)
from tests.bundle.conftest import add_lease, add_thread, files_of
from tests.conftest import run_cli, snapshot


def test_build_writes_every_format_its_consumers_open(sample):
    run = run_cli("bundle", "build", "1.0.0", "--json", store=sample.root)
    assert run.exit_code == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["counts"]["total"] == 4  # the draft lease is not active
    root = sample.bundles_dir / "1.0.0"

    import datasets
    import pandas

    splits = datasets.load_from_disk(str(root / "hf"))
    assert splits.num_rows == {"golden": 3, "adversarial": 1}
    assert all(split.features == hf_format.features() for split in splits.values())
    dataset = datasets.concatenate_datasets([splits["golden"], splits["adversarial"]])
    lease = next(row for row in dataset if row["id"].startswith("oak-lease"))
    rent = next(f for f in lease["fields"] if f["name"] == "monthly_rent")
    assert (rent["value"], rent["variants"]) == ("$980.00", ["USD 980.00"])
    absent = next(f for f in lease["fields"] if f["name"] == "security_deposit")
    assert absent["expected_absent"] and absent["value"] is None
    assert "Casey Morgan" in lease["pages"][0]["text"]

    frame = pandas.read_parquet(root / "fixtures.parquet")
    assert sorted(frame["id"]) == sorted(dataset["id"])
    assert frame.set_index("id").loc[lease["id"], "category"] == "clean"
    truncated = frame[frame["category"] == "truncated"].iloc[0]
    assert list(truncated["mutation_kinds"]) == ["truncate"] and bool(truncated["adversarial"])
    assert sorted(frame.columns) == sorted(dataset.column_names)


def test_lineage_provenance_and_known_bad_are_typed_columns_not_json(sample):
    build_bundle(sample, "1.0.0")
    import datasets

    splits = datasets.load_from_disk(str(sample.bundles_dir / "1.0.0" / "hf"))
    variant = splits["adversarial"][0]
    parent = next(row for row in splits["golden"] if row["id"].startswith("maple-lease"))
    step = variant["lineage"]["mutations"][0]
    assert (
        variant["lineage"]["parent"] == parent["id"] and variant["lineage"]["parent_label_rev"] == 1
    )
    assert (step["name"], step["seed"], step["params"]) == (
        "truncate",
        7,
        [{"name": "fraction", "value": "0.5"}],
    )
    assert variant["known_bad"][0]["failure_mode"] == "hallucination"
    assert variant["known_bad"][0]["fields"] == [{"name": "security_deposit", "value": "$500"}]
    assert variant["provenance"]["importer"] == "pdf"
    assert variant["provenance"]["source_name"] == "maple lease truncated.pdf"
    assert parent["lineage"] is None and parent["label_source"] == "manual"


def test_mattermost_files_keep_the_export_and_complete_what_the_go_loader_needs(sample):
    build_bundle(sample, "1.0.0")
    root = sample.bundles_dir / "1.0.0"
    thread_id = next(i for i in sample.ids() if i.startswith("deploy-rollback"))
    stored = json.loads((sample.directory(thread_id) / "content.json").read_text())["content"][
        "export"
    ]
    # Named after the source file (thread.json), so a Go suite can name it in code.
    exported = json.loads((root / "mattermost" / "thread.json").read_text())
    assert {k: v for k, v in exported.items() if k != "team"} == stored
    assert "extra_top_level" in exported and "custom_member" in exported["posts"]["p2"]
    assert "update_at" not in exported["posts"]["p1"]  # defaults curator never saw stay out
    # The export had no team: the Go loader's String() dereferences one, so a stand-in is added.
    assert exported["team"] == {"id": "", "name": "thread", "display_name": "thread"}
    rubrics = json.loads((root / "mattermost" / "rubrics.json").read_text())
    assert rubrics == {"thread.json": ["mentions that @sam.lee will roll back"]}
    manifest = BundleManifest.model_validate_json((root / "manifest.json").read_bytes())
    assert next(e for e in manifest.fixtures if e.id == thread_id).files == [
        "mattermost/thread.json"
    ]


def test_thread_files_name_variants_by_mutation_and_disambiguate_shared_names(store):
    from curator.bundle.thread_file import base_name, go_export

    first, second = add_thread(store, "deploy rollback"), add_thread(store, "deploy rollback again")
    chat = store.load(first)
    chat.fixture.lineage = Lineage(
        parent=second, parent_label_rev=1, mutations=[MutationStep(name="truncate", seed=1)]
    )
    assert base_name(chat.fixture) == "thread.truncate.json"
    build_bundle(store, "1.0.0", formats="jsonl,mattermost")
    names = sorted(p.name for p in (store.bundles_dir / "1.0.0" / "mattermost").iterdir())
    assert names == sorted(
        ["rubrics.json", f"thread.{first[-8:]}.json", f"thread.{second[-8:]}.json"]
    )
    # Authors missing from users get a record; a missing channel is made from the posts.
    bare = ThreadContent(
        export=ThreadExport.model_validate(
            {"posts": {"a": {"id": "a", "user_id": "u9", "channel_id": "c1", "message": "hi"}}}
        )
    )
    completed = go_export(bare, chat.fixture)
    assert completed["users"] == {"u9": {"id": "u9", "username": "u9"}}
    assert completed["channel"]["id"] == "c1" and completed["team"]["display_name"] == "thread"


def test_manifest_lists_fixtures_counts_and_every_file(sample):
    build_bundle(sample, "1.0.0")
    root = sample.bundles_dir / "1.0.0"
    manifest = BundleManifest.model_validate_json((root / "manifest.json").read_bytes())
    assert manifest.counts.by_category == {"clean": 3, "truncated": 1}
    assert manifest.counts.by_mutation == {"none": 3, "truncate": 1}
    assert manifest.counts.adversarial == 1
    assert manifest.built_at == "2026-01-02T00:00:00Z"  # newest label revision, not the clock
    truncated = next(e for e in manifest.fixtures if e.category == "truncated")
    assert (
        truncated.adversarial
        and truncated.mutation_kinds == ["truncate"]
        and truncated.label_rev == 1
    )
    on_disk = sorted(p for p in files_of(root) if p != "manifest.json")
    assert sorted(manifest.files) == on_disk
    assert not any(".curator" in p for p in on_disk)


def test_status_option_selects_other_statuses(sample):
    run = run_cli(
        "bundle",
        "build",
        "0.1.0",
        "--status",
        "draft",
        "--format",
        "jsonl",
        "--json",
        store=sample.root,
    )
    assert run.exit_code == 0, run.stderr
    assert json.loads(run.stdout)["counts"]["total"] == 1
    assert sorted(files_of(sample.bundles_dir / "0.1.0")) == [
        "CHANGELOG.md",
        "README.md",
        "fixtures.jsonl",
        "manifest.json",
    ]


def test_same_store_gives_byte_identical_bundles_and_archives(sample, tmp_path, monkeypatch):
    build_bundle(sample, "1.0.0", archive=True)
    first = files_of(sample.bundles_dir)
    # Cold: no cache, a fresh process-independent build of the same store at another time.
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1900000000")
    import shutil

    shutil.rmtree(sample.bundles_dir)
    shutil.rmtree(sample.root / ".curator" / "cache")
    build_bundle(sample, "1.0.0", archive=True)
    assert files_of(sample.bundles_dir) == first


def test_archive_has_fixed_metadata(sample):
    build_bundle(sample, "1.0.0", archive=True)
    path = sample.bundles_dir / "1.0.0.tar.gz"
    raw = path.read_bytes()
    assert raw[4:8] == b"\0\0\0\0"  # gzip header mtime
    with tarfile.open(path) as archive:
        members = archive.getmembers()
    names = [m.name for m in members]
    assert names == sorted(names) and names[0] == "1.0.0"
    assert all(m.mtime == 0 and m.uid == 0 and m.gid == 0 and m.uname == "" for m in members)
    inside = {m.name.removeprefix("1.0.0/") for m in members if m.isfile()}
    assert inside == set(files_of(sample.bundles_dir / "1.0.0"))
    assert gzip.decompress(raw)  # a valid gzip stream


def test_same_content_is_a_no_op_and_different_content_is_refused(sample):
    assert run_cli("bundle", "build", "1.0.0", store=sample.root).exit_code == 0
    before = snapshot(sample.root)
    again = run_cli("bundle", "build", "1.0.0", "--json", store=sample.root)
    assert again.exit_code == 0 and json.loads(again.stdout)["unchanged"] is True
    assert snapshot(sample.root) == before

    lease = next(i for i in sample.ids() if i.startswith("oak-lease"))
    assert (
        run_cli(
            "label",
            "set",
            lease,
            "monthly_rent=$990.00",
            "--no-evidence",
            "lowered by letter",
            store=sample.root,
        ).exit_code
        == 0
    )
    before = snapshot(sample.root)
    refused = run_cli("bundle", "build", "1.0.0", store=sample.root)
    assert refused.exit_code == 2
    assert "already exists with different content" in refused.stderr
    assert snapshot(sample.root) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["bundle", "build", "1.0"], "not a semantic version"),
        (["bundle", "build", "v1.0.0"], "not a semantic version"),
        (["bundle", "build", "1.0.0", "--format", "jsonl,csv"], "unknown bundle format 'csv'"),
        (["bundle", "build", "1.0.0", "--status", "retired"], "no fixtures with status retired"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_writes_nothing(sample, args, message):
    before = snapshot(sample.root)
    run = run_cli(*args, store=sample.root)
    assert run.exit_code == 2
    assert run.stderr.count("\n") == 1 and message in run.stderr
    assert snapshot(sample.root) == before
    assert not sample.bundles_dir.exists()


def test_missing_store_is_exit_2(tmp_path):
    run = run_cli("bundle", "build", "1.0.0", store=tmp_path / "nowhere")
    assert run.exit_code == 2 and "no curator store" in run.stderr
    assert not (tmp_path / "nowhere").exists()


def test_empty_store_is_an_empty_selection(store):
    run = run_cli("bundle", "build", "1.0.0", store=store.root)
    assert run.exit_code == 2 and "no fixtures with status active" in run.stderr


def test_a_failure_while_writing_leaves_no_bundle_directory(sample, monkeypatch):
    def full_disk(directory, table):  # fault injection: the disk fills mid-build
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(parquet_format, "write", full_disk)
    before = snapshot(sample.root)
    with pytest.raises(OSError):
        build_bundle(sample, "1.0.0")
    assert snapshot(sample.root) == before
    assert not (sample.bundles_dir / "1.0.0").exists()
    assert list((sample.root / ".curator" / "staging").iterdir()) == []


def test_bundle_lines_carry_input_expected_known_bad_lineage(sample):
    build_bundle(sample, "1.0.0")
    lines = [
        json.loads(x)
        for x in (sample.bundles_dir / "1.0.0" / "fixtures.jsonl").read_text().splitlines()
    ]
    variant = next(x for x in lines if x["category"] == "truncated")
    assert variant["lineage"]["mutations"][0]["name"] == "truncate"
    assert variant["known_bad"][0]["failure_mode"] == "hallucination"
    assert variant["expected"]["fields"]["security_deposit"]["expected_absent"] is True
    assert variant["input"]["pages"][0]["text"].startswith("RESIDENTIAL LEASE")
    assert variant["metadata"]["provenance"]["importer"] == "pdf"
    ContentFile.model_validate({"content": variant["input"]})


def test_cached_fixtures_are_not_parsed_again_but_changes_are(sample, monkeypatch):
    from curator.bundle import cache

    build_bundle(sample, "1.0.0")
    serialised = []
    original = cache.serialise

    def counting(record, hashes):
        serialised.append(record.fixture.id)
        return original(record, hashes)

    monkeypatch.setattr(cache, "serialise", counting)
    build_bundle(sample, "1.0.1")
    assert serialised == []
    new = add_lease(sample, "elm lease", "Avery Quinn", "$1,100.00")
    build_bundle(sample, "1.0.2")
    assert serialised == [new]
    changelog = (sample.bundles_dir / "1.0.2" / "CHANGELOG.md").read_text()
    assert "## Added (1)" in changelog and new in changelog


def test_lost_cache_texts_are_rebuilt_from_the_store(sample):
    build_bundle(sample, "1.0.0")
    (sample.root / ".curator" / "cache" / "bundle-texts.json").unlink()
    build_bundle(sample, "1.0.1")
    first = (sample.bundles_dir / "1.0.0" / "fixtures.jsonl").read_bytes()
    assert (sample.bundles_dir / "1.0.1" / "fixtures.jsonl").read_bytes() == first
    build_bundle(sample, "1.0.2")  # and the texts are cached again
    assert (sample.root / ".curator" / "cache" / "bundle-texts.json").exists()


def test_a_corrupt_cache_is_ignored(sample):
    build_bundle(sample, "1.0.0")
    for path in (sample.root / ".curator" / "cache").iterdir():
        path.write_text("{not json")
    build_bundle(sample, "1.0.1")
    first = (sample.bundles_dir / "1.0.0" / "fixtures.jsonl").read_bytes()
    assert (sample.bundles_dir / "1.0.1" / "fixtures.jsonl").read_bytes() == first


def test_a_killed_build_never_leaves_a_half_built_bundle(sample, tmp_path):
    import os
    import signal
    import subprocess
    import time

    from curator.bundle.verify import verify_bundle
    from tests.conftest import CURATOR, subprocess_env

    for delay in (0.5, 1.5, 3.0, 5.0):
        process = subprocess.Popen(
            [*CURATOR, "--store", str(sample.root), "bundle", "build", "1.0.0", "--archive"],
            env=subprocess_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(delay)
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        bundle = sample.bundles_dir / "1.0.0"
        if bundle.exists():  # it finished before the kill: then it is whole
            assert verify_bundle(bundle).ok
            break
    else:
        assert not (sample.bundles_dir / "1.0.0").exists()
    # The next build cleans up whatever staging the kill left and succeeds.
    assert run_cli("bundle", "build", "1.0.0", store=sample.root).exit_code == 0
    assert verify_bundle(sample.bundles_dir / "1.0.0").ok
    assert list((sample.root / ".curator" / "staging").glob("bundle-*")) == []


def test_an_untouched_store_rebuilds_without_reading_a_fixture(sample, monkeypatch):
    from curator.bundle import build as build_module

    build_bundle(sample, "1.0.0")

    def must_not_run(*args, **kwargs):
        raise AssertionError("an untouched store was read again")

    monkeypatch.setattr(build_module, "serialise_store", must_not_run)
    assert build_bundle(sample, "1.0.0").unchanged


def test_files_rewritten_with_the_same_bytes_are_still_the_same_content(sample):
    from curator import atomic

    build_bundle(sample, "1.0.0")
    for fixture_id in sample.ids():
        path = sample.directory(fixture_id) / "labels.jsonl"
        atomic.write_bytes(path, path.read_bytes())  # new inode and mtime, same bytes
    assert build_bundle(sample, "1.0.0").unchanged
