"""bundle verify: hashes and schemas, on directories and archives."""

from __future__ import annotations

import hashlib
import io
import json
import os
import tarfile

import pytest

from curator.bundle.build import build_bundle
from curator.bundle.load import load
from curator.bundle.verify import verify_bundle
from curator.errors import CuratorError
from tests.conftest import run_cli


def _built(sample, archive=False):
    build_bundle(sample, "1.0.0", archive=archive)
    return sample.bundles_dir / "1.0.0"


def test_a_fresh_bundle_and_its_archive_verify(sample):
    root = _built(sample, archive=True)
    for target in (root, sample.bundles_dir / "1.0.0.tar.gz"):
        run = run_cli("bundle", "verify", str(target), "--json")
        assert run.exit_code == 0, run.stdout
        report = json.loads(run.stdout)
        assert report["ok"] and report["files_checked"] == len(
            json.loads((root / "manifest.json").read_text())["files"]
        )


def test_tampered_missing_and_extra_files_are_each_named(sample):
    root = _built(sample)
    with (root / "hf" / "golden" / "dataset_info.json").open("a") as handle:
        handle.write(" ")
    with (root / "README.md").open("a") as handle:
        handle.write("licence: whatever you like\n")
    (root / "fixtures.parquet").unlink()
    (root / "notes.txt").write_text("not part of the bundle")
    run = run_cli("bundle", "verify", str(root))
    assert run.exit_code == 1
    assert "tampered: hf/golden/dataset_info.json" in run.stdout
    assert "tampered: README.md" in run.stdout
    assert "missing: fixtures.parquet" in run.stdout
    assert "extra: notes.txt" in run.stdout


def test_a_line_that_breaks_the_schema_is_caught_even_with_a_matching_hash(sample):
    root = _built(sample)
    lines = (root / "fixtures.jsonl").read_text().splitlines()
    broken = json.loads(lines[0])
    broken["kind"] = "spreadsheet"
    lines[0] = json.dumps(broken)
    data = ("\n".join(lines) + "\n").encode()
    (root / "fixtures.jsonl").write_bytes(data)
    manifest = json.loads((root / "manifest.json").read_text())
    manifest["files"]["fixtures.jsonl"] = hashlib.sha256(data).hexdigest()  # a forger's manifest
    (root / "manifest.json").write_text(json.dumps(manifest))
    result = verify_bundle(root)
    assert [(p.path, p.kind) for p in result.problems] == [("fixtures.jsonl:1", "schema")]


def test_a_thread_file_that_is_not_a_thread_export_is_a_schema_problem(sample):
    root = _built(sample)
    thread = root / "mattermost" / "thread.json"
    thread.write_text(json.dumps({"posts": {}}))
    kinds = {(p.path, p.kind) for p in verify_bundle(root).problems}
    name = f"mattermost/{thread.name}"
    assert kinds == {(name, "tampered"), (name, "schema")}


def test_a_thread_file_the_go_loader_would_trip_over_is_a_schema_problem(sample):
    root = _built(sample)
    thread = root / "mattermost" / "thread.json"
    data = json.loads(thread.read_text())
    del data["team"]
    data["users"].pop("u2")
    thread.write_text(json.dumps(data))
    details = {p.detail for p in verify_bundle(root).problems if p.kind == "schema"}
    assert details == {"no team", "post authors not in users: u2"}


def test_missing_or_broken_manifest(sample):
    root = _built(sample)
    (root / "manifest.json").write_text("{}")
    assert [p.path for p in verify_bundle(root).problems] == ["manifest.json"]
    (root / "manifest.json").unlink()
    run = run_cli("bundle", "verify", str(root))
    assert run.exit_code == 1 and "missing: manifest.json" in run.stdout


def test_a_tampered_archive_names_the_file(sample, tmp_path):
    _built(sample, archive=True)
    original = sample.bundles_dir / "1.0.0.tar.gz"
    forged = tmp_path / "forged.tar.gz"
    with tarfile.open(original) as source, tarfile.open(forged, "w:gz") as target:
        for member in source.getmembers():
            data = source.extractfile(member).read() if member.isfile() else None
            if member.name == "1.0.0/CHANGELOG.md":
                data += b"\n- sneaked in\n"
                member.size = len(data)
            target.addfile(member, io.BytesIO(data) if data is not None else None)
    run = run_cli("bundle", "verify", str(forged))
    assert run.exit_code == 1 and "tampered: CHANGELOG.md" in run.stdout


def test_verify_of_nothing_is_a_usage_error(tmp_path):
    run = run_cli("bundle", "verify", str(tmp_path / "missing"))
    assert run.exit_code == 2 and "no bundle at" in run.stderr


def test_a_manifest_whose_digest_does_not_match_its_entries(sample):
    root = _built(sample)
    manifest = json.loads((root / "manifest.json").read_text())
    manifest["fixtures"][0]["line_sha256"] = "0" * 64
    (root / "manifest.json").write_text(json.dumps(manifest))
    problems = {(p.path, p.kind) for p in verify_bundle(root).problems}
    assert ("manifest.json", "schema") in problems and ("fixtures.jsonl:1", "tampered") in problems


def _dropped_with_its_entries(root, names):
    """A forger's bundle: files removed together with their manifest entries."""
    manifest = json.loads((root / "manifest.json").read_text())
    for name in names:
        (root / name).unlink()
        del manifest["files"][name]
    (root / "manifest.json").write_text(json.dumps(manifest, indent=2))


def test_a_format_removed_with_its_manifest_entries_is_missing(sample):
    root = _built(sample)
    _dropped_with_its_entries(root, ["fixtures.parquet"])
    run = run_cli("bundle", "verify", str(root))
    assert run.exit_code == 1, run.stdout
    assert run.stdout.strip() == "missing: fixtures.parquet: the manifest lists format parquet"
    with pytest.raises(CuratorError, match="missing fixtures.parquet"):
        list(load(root))


def test_thread_files_removed_with_their_entries_are_missing(sample):
    root = _built(sample)
    threads = sorted(
        p.relative_to(root).as_posix()
        for p in (root / "mattermost").iterdir()
        if p.name != "rubrics.json"
    )
    _dropped_with_its_entries(root, threads[:1])
    result = verify_bundle(root)
    assert [(p.path, p.kind) for p in result.problems] == [("mattermost", "missing")]


def test_an_extra_file_and_a_file_of_an_unlisted_format_are_extra(sample):
    root = _built(sample)
    (root / "notes.txt").write_text("not part of the bundle")
    result = verify_bundle(root)
    assert [(p.path, p.kind) for p in result.problems] == [("notes.txt", "extra")]
    with pytest.raises(CuratorError, match="extra notes.txt"):
        list(load(root))
    (root / "notes.txt").unlink()
    manifest = json.loads((root / "manifest.json").read_text())
    manifest["formats"].remove("parquet")  # the file stays, listed: a format it was not built with
    (root / "manifest.json").write_text(json.dumps(manifest, indent=2))
    kinds = [(p.path, p.kind) for p in verify_bundle(root).problems]
    assert ("fixtures.parquet", "extra") in kinds


def test_a_hard_linked_file_is_refused_though_its_bytes_match(sample, tmp_path):
    root = _built(sample)
    outside = tmp_path / "same-bytes"
    outside.write_bytes((root / "CHANGELOG.md").read_bytes())
    (root / "CHANGELOG.md").unlink()
    os.link(outside, root / "CHANGELOG.md")
    run = run_cli("bundle", "verify", str(root))
    assert run.exit_code == 2
    assert run.stderr.strip().endswith(
        "CHANGELOG.md has 2 hard links; a bundle's files must be its own (copy them, do not "
        "link them)"
    )
    with pytest.raises(CuratorError, match="hard links"):
        list(load(root))


@pytest.mark.parametrize("kind", ["fifo", "symlink"])
def test_a_fifo_or_a_symlink_in_place_of_a_file_is_refused(sample, tmp_path, kind):
    root = _built(sample)
    outside = tmp_path / "same-bytes"
    outside.write_bytes((root / "CHANGELOG.md").read_bytes())
    (root / "CHANGELOG.md").unlink()
    if kind == "fifo":
        os.mkfifo(root / "CHANGELOG.md")
    else:
        (root / "CHANGELOG.md").symlink_to(outside)
    run = run_cli("bundle", "verify", str(root))
    assert run.exit_code == 2
    said = "is not a regular file" if kind == "fifo" else "is a symbolic link"
    assert f"CHANGELOG.md {said}" in run.stderr


def _keys(folder, name):
    """An Ed25519 key pair as OpenSSL writes them: private and public PEM files."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    private, public = folder / f"{name}.pem", folder / f"{name}.pub.pem"
    private.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    public.write_bytes(
        key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    )
    return private, public


def test_a_signed_bundle_verifies_with_its_key_and_fails_with_another(sample, tmp_path):
    root = _built(sample, archive=True)
    builder, builder_public = _keys(tmp_path, "builder")
    _, other_public = _keys(tmp_path, "other")
    signed = run_cli("bundle", "sign", "1.0.0", "--key", str(builder), store=sample.root)
    assert signed.exit_code == 0, signed.stderr
    assert (sample.bundles_dir / "1.0.0.sig").is_file()
    for target in (root, sample.bundles_dir / "1.0.0.tar.gz"):  # one signature for both
        run = run_cli("bundle", "verify", str(target), "--key", str(builder_public))
        assert run.exit_code == 0, run.stdout
        assert run.stdout.strip().endswith("files verified, signature verified)")
        run = run_cli("bundle", "verify", str(target), "--key", str(other_public))
        assert run.exit_code == 1
        said = "signature: 1.0.0.sig: signed by another key than other.pub.pem"
        assert run.stdout.strip() == said


def test_a_manifest_rewritten_after_signing_fails_the_signature(sample, tmp_path):
    root = _built(sample)
    builder, builder_public = _keys(tmp_path, "builder")
    assert run_cli("bundle", "sign", str(root), "--key", str(builder)).exit_code == 0
    # The forger's move verify alone cannot see: change a file and rewrite the manifest.
    changelog = root / "CHANGELOG.md"
    changelog.write_text(changelog.read_text() + "All clear.\n")
    manifest = json.loads((root / "manifest.json").read_text())
    manifest["files"]["CHANGELOG.md"] = hashlib.sha256(changelog.read_bytes()).hexdigest()
    (root / "manifest.json").write_text(json.dumps(manifest, indent=2))
    assert run_cli("bundle", "verify", str(root)).exit_code == 0
    run = run_cli("bundle", "verify", str(root), "--key", str(builder_public), "--json")
    assert run.exit_code == 1
    [problem] = json.loads(run.stdout)["problems"]
    assert problem["detail"] == (
        "the signature does not match the manifest (changed since it was signed)"
    )


def test_signing_with_a_key_that_is_not_ed25519_is_one_line(sample, tmp_path):
    root = _built(sample)
    bad = tmp_path / "not-a-key.pem"
    bad.write_text("hello\n")
    run = run_cli("bundle", "sign", str(root), "--key", str(bad))
    assert run.exit_code == 2 and len(run.stderr.splitlines()) == 1
    assert "not an unencrypted PEM private key" in run.stderr
    assert not (sample.bundles_dir / "1.0.0.sig").exists()
