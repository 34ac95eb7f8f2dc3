"""bundle diff and CHANGELOG.md: membership and field-level label changes."""

from __future__ import annotations

import json

from curator.bundle.build import build_bundle
from curator.model import Status
from tests.bundle.conftest import add_lease, add_thread
from tests.conftest import run_cli


def _ids(sample):
    return {i.split("-")[0]: i for i in sample.ids()}


def test_relabel_add_and_remove_show_in_diff_and_changelog(sample):
    build_bundle(sample, "1.0.0")
    ids = _ids(sample)
    assert (
        run_cli(
            "label",
            "set",
            ids["oak"],
            "monthly_rent=$1,000.00",
            "security_deposit=$500.00",
            "--reason",
            "checked",
            "--no-evidence",
            "agreed by letter",
            store=sample.root,
        ).exit_code
        == 0
    )
    assert (
        run_cli(
            "label", "set", ids["deploy"], "--rubric", "says the deploy failed", store=sample.root
        ).exit_code
        == 0
    )
    added = add_lease(sample, "elm lease", "Avery Quinn", "$1,100.00")
    retired = next(i for i in sample.ids() if i.startswith("maple-lease-truncated"))
    record = sample.load_fixture(retired)
    sample.save_fixture(record.model_copy(update={"status": Status.retired}))
    build_bundle(sample, "1.1.0")

    run = run_cli("bundle", "diff", "1.0.0", "1.1.0", store=sample.root)
    assert run.exit_code == 0, run.stderr
    assert f"+ {added}" in run.stdout and f"- {retired}" in run.stdout
    assert "monthly_rent: '$980.00' -> '$1,000.00'" in run.stdout
    assert "security_deposit: (expected absent) -> '$500.00'" in run.stdout
    assert "rubric added: says the deploy failed" in run.stdout

    report = json.loads(
        run_cli("bundle", "diff", "1.0.0", "1.1.0", "--json", store=sample.root).stdout
    )
    assert report["added"] == [added] and report["removed"] == [retired]
    oak = next(r for r in report["relabelled"] if r["id"] == ids["oak"])
    assert (oak["rev_before"], oak["rev_after"]) == (1, 2)
    rent = next(f for f in oak["fields"] if f["field"] == "monthly_rent")
    assert (
        rent["change"] == "changed"
        and rent["after"]["value"] == "$1,000.00"
        and not rent["equivalent"]
    )
    assert "value" in rent["attributes"]

    changelog = (sample.bundles_dir / "1.1.0" / "CHANGELOG.md").read_text()
    assert "Against 1.0.0" in changelog
    assert (
        "## Added (1)" in changelog
        and "## Removed (1)" in changelog
        and "## Relabelled (2)" in changelog
    )
    assert "  - monthly_rent: '$980.00' -> '$1,000.00'" in changelog


def test_a_rewritten_but_equal_value_is_flagged_equivalent(sample):
    build_bundle(sample, "1.0.0")
    oak = _ids(sample)["oak"]
    run_cli("label", "set", oak, "monthly_rent=980", store=sample.root)
    build_bundle(sample, "1.0.1")
    report = json.loads(
        run_cli("bundle", "diff", "1.0.0", "1.0.1", "--json", store=sample.root).stdout
    )
    (change,) = report["relabelled"][0]["fields"]
    assert change["equivalent"] is True


def test_identical_bundles_have_no_differences(sample):
    build_bundle(sample, "1.0.0", archive=True)
    build_bundle(sample, "1.0.1")
    run = run_cli(
        "bundle", "diff", str(sample.bundles_dir / "1.0.0.tar.gz"), "1.0.1", store=sample.root
    )
    assert run.exit_code == 0 and run.stdout.startswith("no differences")
    assert "No fixture changed." in (sample.bundles_dir / "1.0.1" / "CHANGELOG.md").read_text()


def test_changelog_is_against_the_newest_earlier_version(store):
    add_thread(store, "first thread")
    build_bundle(store, "2.0.0")
    add_thread(store, "second thread")
    build_bundle(store, "1.0.0")  # older version built later: it has no predecessor
    build_bundle(store, "2.1.0-rc.1")
    build_bundle(store, "2.1.0")
    assert "First version" in (store.bundles_dir / "1.0.0" / "CHANGELOG.md").read_text()
    assert "Against 2.0.0" in (store.bundles_dir / "2.1.0-rc.1" / "CHANGELOG.md").read_text()
    assert "Against 2.1.0-rc.1" in (store.bundles_dir / "2.1.0" / "CHANGELOG.md").read_text()


def test_diff_of_a_missing_bundle_is_exit_2(sample):
    build_bundle(sample, "1.0.0")
    run = run_cli("bundle", "diff", "1.0.0", "9.9.9", store=sample.root)
    assert run.exit_code == 2 and "no bundle at 9.9.9" in run.stderr


def test_content_and_metadata_changes_are_reported(sample):
    from curator.model import DocumentContent, Page

    build_bundle(sample, "1.0.0")
    oak = _ids(sample)["oak"]
    record = sample.load(oak)
    page = record.content.pages[0]
    with sample.transaction() as txn:
        txn.save_content(
            oak,
            DocumentContent(
                pages=[page, Page(number=2, text="Addendum: pets allowed.", origin="ocr")]
            ),
        )
        txn.save_fixture(record.fixture.model_copy(update={"tags": ["addendum"]}))
    build_bundle(sample, "1.1.0")
    report = json.loads(
        run_cli("bundle", "diff", "1.0.0", "1.1.0", "--json", store=sample.root).stdout
    )
    assert report["content_changed"] == [oak] and report["relabelled"] == []
    assert report["metadata_changed"] == {oak: {"tags": [[], ["addendum"]]}}
    changelog = (sample.bundles_dir / "1.1.0" / "CHANGELOG.md").read_text()
    assert f"## Content changed (1)\n\n- {oak}" in changelog
