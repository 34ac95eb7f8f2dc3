"""What killed commands leave is removed by the next command that takes the store lock, and
`curator validate` names what could not be (issue 32, item 1)."""

from __future__ import annotations

import fcntl
import json
import os
import tempfile

import pytest

from curator import scratch
from curator.store import Store
from curator.validate import validate_store
from tests.factories import add_lease


def dead_leftovers(store: Store, tmpdir) -> list:
    """What a SIGKILL mid-write leaves: a vault .tmp, a staged commit without its journal,
    a bundle's staging, a private temporary folder with a page image in it."""
    local = store.root / ".curator"
    vault_tmp = local / ".vault.json.k2j4h1xq.tmp"
    vault_tmp.write_text("half a vault")
    staged = store.staging_root / "txn.abc123"
    staged.mkdir(parents=True)
    (staged / "0").write_text("a fixture never committed")
    bundle = store.staging_root / "bundle-1.0.0.xyz"
    bundle.mkdir()
    private = tmpdir / "curator-private-dead1234"
    private.mkdir(mode=0o700)
    (private / "tess_abc_input.PNG").write_bytes(b"a page")
    return [vault_tmp, staged, bundle, private]


def test_the_next_lock_removes_what_dead_commands_left_and_keeps_what_live_ones_hold(
    store, tmp_path, monkeypatch
):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    left = dead_leftovers(store, tmp_path)
    live = tmp_path / "curator-private-live5678"
    live.mkdir()
    live_tmp = store.root / ".curator" / ".review.json.live.tmp"
    live_tmp.write_text("being written")
    holds = [os.open(live, os.O_RDONLY), os.open(live_tmp, os.O_RDONLY)]
    try:
        for fd in holds:
            fcntl.flock(fd, fcntl.LOCK_EX)
        add_lease(store)  # any command that takes the lock
        assert [p for p in left if p.exists()] == []
        assert live.is_dir() and live_tmp.is_file()
    finally:
        for fd in holds:
            os.close(fd)
    with store.locked():
        pass
    assert not live.exists() and not live_tmp.exists()  # their holders are gone now


def test_a_journal_left_by_a_killed_commit_is_completed(store):
    lease = add_lease(store)
    labels = store.directory(lease) / "labels.jsonl"
    folder = store.staging_root / "txn.killed"
    folder.mkdir(parents=True)
    (folder / "0").write_text("the new labels\n")
    target = labels.relative_to(store.root).as_posix()
    # one list, as curator wrote its journal before journal.jsonl: completed all the same
    (folder / "journal.json").write_text(json.dumps([{"from": "0", "to": target}]))
    with store.locked():
        pass
    assert labels.read_text() == "the new labels\n"
    assert not folder.exists()


def test_a_journal_of_lines_left_by_a_killed_commit_is_completed(store):
    lease = add_lease(store)
    labels = store.directory(lease) / "labels.jsonl"
    folder = store.staging_root / "txn.killed"
    (folder / "new-fixture-0a1b2c3d").mkdir(parents=True)
    (folder / "new-fixture-0a1b2c3d" / "fixture.json").write_text("{}")
    (folder / "_0").write_text("the new labels\n")
    steps = [
        {"from": "_0", "to": labels.relative_to(store.root).as_posix()},
        {"from": "new-fixture-0a1b2c3d", "to": "goldens/new-fixture-0a1b2c3d"},
    ]
    (folder / "journal.jsonl").write_text("".join(json.dumps(s) + "\n" for s in steps))
    with store.locked():
        pass
    assert labels.read_text() == "the new labels\n"
    assert (store.root / "goldens" / "new-fixture-0a1b2c3d" / "fixture.json").read_text() == "{}"
    assert not folder.exists()


def test_staged_folders_wait_on_disk_and_a_mark_takes_back_the_later_ones(store):
    from curator import journal

    staged = journal.Staged(store.root, store.staging_root)
    goldens = store.root / "goldens"
    staged.folder_of(goldens / "kept-one-00000001", {"fixture.json": b"1"})
    mark = staged.mark()
    staged.folder_of(goldens / "dropped-00000002", {"fixture.json": b"2"})
    assert staged.holds_folder("dropped-00000002")
    staged.drop_since(mark)
    assert not staged.holds_folder("dropped-00000002")
    staged.folder_of(goldens / "kept-two-00000003", {"fixture.json": b"3"})
    staged.file(store.local_path("note.txt"), b"first", first=True)
    staged.commit()
    assert (goldens / "kept-one-00000001" / "fixture.json").read_bytes() == b"1"
    assert (goldens / "kept-two-00000003" / "fixture.json").read_bytes() == b"3"
    assert not (goldens / "dropped-00000002").exists()
    assert store.local_path("note.txt").read_bytes() == b"first"
    assert not any(store.staging_root.iterdir())


def test_validate_names_a_leftover_it_cannot_remove(store):
    add_lease(store)
    folder = store.staging_root / "txn.outside"
    folder.mkdir(parents=True)
    (folder / "0").write_text("x")
    # A journal naming a path outside the store is never followed, nor thrown away.
    (folder / "journal.json").write_text(json.dumps([{"from": "0", "to": "../elsewhere"}]))
    findings = validate_store(store)
    assert [(f.fixture, f.problem) for f in findings] == [
        ("txn.outside", f"leftover {folder} could not be removed")
    ]
    assert not (store.root.parent / "elsewhere").exists()


def test_a_private_folder_is_0700_holds_every_temporary_file_and_is_removed(tmp_path):
    outer = tempfile.tempdir
    tempfile.tempdir = str(tmp_path)
    try:
        with scratch.private_folder() as folder:
            assert folder.parent == tmp_path and folder.stat().st_mode & 0o777 == 0o700
            assert os.environ["TMPDIR"] == str(folder)
            with tempfile.NamedTemporaryFile(prefix="tess_", delete=False) as handle:
                assert os.path.dirname(handle.name) == str(folder)
            assert scratch.is_held(folder)
        assert list(tmp_path.iterdir()) == []
    finally:
        tempfile.tempdir = outer


def test_a_staged_file_that_fails_to_reach_the_disk_fails_the_commit_before_its_journal(
    store, monkeypatch
):
    import errno

    from curator import journal

    real = os.fsync
    staged = journal.Staged(store.root, store.staging_root)

    def failing(fd):
        # Fault injection: the disk reports an error for the staged fixture's files only.
        if "never-lands" in os.readlink(f"/proc/self/fd/{fd}"):
            raise OSError(errno.EIO, "Input/output error")
        return real(fd)

    monkeypatch.setattr(journal.os, "fsync", failing)
    staged.folder_of(store.root / "goldens" / "never-lands-00000001", {"fixture.json": b"1"})
    with pytest.raises(OSError, match="Input/output error"):
        staged.commit()
    assert not (store.root / "goldens" / "never-lands-00000001").exists()
    assert not any(store.staging_root.iterdir())
