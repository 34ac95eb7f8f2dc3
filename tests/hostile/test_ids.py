"""Ids and versions that try to leave the store: only well-formed ones become paths, and
only real folders inside goldens/, adversarial/ and bundles/ are used."""

from __future__ import annotations

import json
import shutil

import pytest

from curator.store import Store
from tests.hostile.conftest import Sandbox, assert_refused, run, tree

LEASE = "residential-lease-agreement-0f35b496"

# An id for each way out: up, absolute, a look-alike Cyrillic "е", a trailing newline, a
# slash inside, upper case, nothing, a hidden folder name.
BAD_IDS = {
    "parent": "../../somewhere",
    "parent-with-hex": "../outside-0f35b496",
    "absolute": "/tmp/somewhere-0f35b496",
    "look-alike": LEASE.replace("e", "\u0435", 1),
    "trailing-newline": LEASE + "\n",
    "slash": "goldens/" + LEASE,
    "upper-case": LEASE.upper(),
    "empty": "",
    "dot-dot": "..",
}
COMMANDS = {
    "label-set-field": ["label", "set", "{id}", "monthly_rent=$1.00"],
    "label-set-rubric": ["label", "set", "{id}", "--rubric", "x"],
    "label-history": ["label", "history", "{id}"],
    "status": ["status", "{id}", "--to", "active"],
    "show": ["show", "{id}"],
    "mutate": ["mutate", "{id}", "--truncate"],
}


def _decoy(sandbox: Sandbox, sample: Store, name: str) -> None:
    """A copy of a real fixture where `../..`-style ids would land, so acting on it is possible."""
    for target in (sample.root.parent / name.strip("./"), sandbox.cwd / name.strip("./")):
        shutil.copytree(sample.directory(LEASE), target, dirs_exist_ok=True)


@pytest.mark.parametrize("command", COMMANDS, ids=list(COMMANDS))
@pytest.mark.parametrize("case", BAD_IDS, ids=list(BAD_IDS))
def test_an_id_that_is_no_fixture_id_is_refused(sandbox, sample, case, command):
    fixture_id = BAD_IDS[case]
    _decoy(sandbox, sample, "somewhere")
    outside = tree(sample.root.parent)
    before, around = tree(sample.root), sandbox.outside()
    args = [arg.replace("{id}", fixture_id) for arg in COMMANDS[command]]
    result = run(sandbox, *args, store=sample)
    assert_refused(
        result, store=sample, store_before=before, sandbox=sandbox, outside_before=around
    )
    assert tree(sample.root.parent) == outside  # the decoy next to the store is untouched


def test_a_look_alike_id_is_shown_escaped(sandbox, sample):
    result = run(sandbox, "show", BAD_IDS["look-alike"], store=sample)
    assert_refused(result, says="\\u0435")  # the user sees which letter is not what it seems


def test_a_symlinked_fixture_folder_is_never_followed(sandbox, sample, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(sample.directory(LEASE), elsewhere)
    fixture = json.loads((elsewhere / "fixture.json").read_text())
    fixture["id"] = fixture["id"].replace("0f35b496", "0000aaaa")
    (elsewhere / "fixture.json").write_text(json.dumps(fixture))
    link = sample.root / "goldens" / fixture["id"]
    link.symlink_to(elsewhere)
    outside, before, around = tree(elsewhere), tree(sample.root), sandbox.outside()
    for args in (
        ["label", "set", fixture["id"], "--rubric", "x"],
        ["status", fixture["id"], "--to", "retired"],
        ["show", fixture["id"]],
    ):
        assert_refused(
            run(sandbox, *args, store=sample),
            says="symbolic link",
            store=sample,
            store_before=before,
            sandbox=sandbox,
            outside_before=around,
        )
    assert tree(elsewhere) == outside
    # Not a fixture of the store: validate names it as a stray, list and bundles leave it out.
    found = run(sandbox, "validate", store=sample)
    assert found.exit_code == 1 and f"stray entry goldens/{fixture['id']}" in found.stdout
    assert fixture["id"] not in run(sandbox, "list", store=sample).stdout


def test_a_symlinked_fixture_file_is_never_read_or_written(sandbox, sample, tmp_path):
    outside_labels = tmp_path / "labels.jsonl"
    labels = sample.directory(LEASE) / "labels.jsonl"
    outside_labels.write_bytes(labels.read_bytes())
    labels.unlink()
    labels.symlink_to(outside_labels)
    before, around, kept = tree(sample.root), sandbox.outside(), outside_labels.read_bytes()
    result = run(sandbox, "label", "set", LEASE, "--rubric", "planted", store=sample)
    assert_refused(
        result,
        says="symbolic link",
        store=sample,
        store_before=before,
        sandbox=sandbox,
        outside_before=around,
    )
    assert outside_labels.read_bytes() == kept


@pytest.mark.parametrize(
    "version", ["../1.0.0", "1.0.0/../../x", "1.0.0\n", "/tmp/1.0.0", "v1.0.0", "1.0"]
)
def test_a_bundle_version_that_is_no_version_is_refused(sandbox, sample, version):
    before, around = tree(sample.root), sandbox.outside()
    result = run(sandbox, "bundle", "build", version, "--format", "jsonl", store=sample)
    assert_refused(
        result,
        says="is not a semantic version",
        store=sample,
        store_before=before,
        sandbox=sandbox,
        outside_before=around,
    )


def test_a_symlinked_bundle_folder_is_refused(sandbox, sample, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (sample.root / "bundles").mkdir()
    (sample.root / "bundles" / "1.0.0").symlink_to(elsewhere)
    before, around = tree(sample.root), sandbox.outside()
    result = run(sandbox, "bundle", "build", "1.0.0", "--format", "jsonl", store=sample)
    assert_refused(
        result,
        says="symbolic link",
        store=sample,
        store_before=before,
        sandbox=sandbox,
        outside_before=around,
    )
    assert list(elsewhere.iterdir()) == []


def test_a_mutation_name_from_a_hand_edited_fixture_never_becomes_a_path(sandbox, sample, tmp_path):
    variant = next(
        p
        for p in sorted((sample.root / "adversarial").iterdir())
        if p.is_dir()
        and json.loads((p / "fixture.json").read_text())["kind"] == "thread"
        and json.loads((p / "fixture.json").read_text())["lineage"]
    )
    data = json.loads((variant / "fixture.json").read_text())
    data["lineage"]["mutations"][0]["name"] = "../../../../../escaped"
    (variant / "fixture.json").write_text(json.dumps(data))
    around = sandbox.outside()
    result = run(
        sandbox,
        "bundle",
        "build",
        "1.0.0",
        "--format",
        "jsonl,mattermost",
        "--status",
        "active",
        "--status",
        "draft",
        "--status",
        "needs-review",
        "--status",
        "reviewed",
        store=sample,
    )
    assert result.exit_code == 0, result
    names = sorted(p.name for p in (sample.root / "bundles" / "1.0.0" / "mattermost").iterdir())
    assert any(name.endswith(".escaped.json") for name in names), names
    assert [p for p in tmp_path.rglob("*escaped*") if "bundles" not in p.parts] == []
    assert sandbox.outside() == around
