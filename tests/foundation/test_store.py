import json
import os
import signal
import subprocess
import textwrap
from collections import Counter

import pytest

from curator.errors import CuratorError, FixtureNotFound, StoreNotFound
from curator.labels import set_labels
from curator.model import LabelRevision
from curator.store import Store, fixture_id
from curator.validate import validate_store
from tests.conftest import CURATOR, snapshot, start_until_marker, subprocess_env
from tests.factories import add_lease, add_thread


def test_init_makes_the_layout(tmp_path):
    store = Store.init(tmp_path / "s")
    for name in ("curator.toml", "goldens", "adversarial", ".curator"):
        assert (store.root / name).exists()
    assert ".curator/" in (store.root / ".gitignore").read_text()
    with pytest.raises(CuratorError, match="already holds"):
        Store.init(tmp_path / "s")


def test_open_finds_the_nearest_store_upward(tmp_path, monkeypatch):
    store = Store.init(tmp_path / "s")
    deep = store.root / "goldens" / "x" / "y"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    monkeypatch.delenv("CURATOR_STORE", raising=False)
    assert Store.open().root == store.root
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StoreNotFound):
        Store.open()
    monkeypatch.setenv("CURATOR_STORE", str(store.root))
    assert Store.open().root == store.root


def test_fixture_ids_are_readable_and_stable():
    assert fixture_id("Lease: 42 Quill Lane!", b"abc") == fixture_id(
        "Lease: 42 Quill Lane!", b"abc"
    )
    assert fixture_id("Lease: 42 Quill Lane!", b"abc").startswith("lease-42-quill-lane-")
    assert fixture_id("x", b"a") != fixture_id("x", b"b")


def test_create_load_and_revise(store):
    lease = add_lease(store)
    record = store.load(lease)
    assert record.fixture.kind == "document"
    assert record.directory.parent.name == "goldens"
    assert record.labels.fields["monthly_rent"].evidence.page == 1
    revision = set_labels(
        store,
        lease,
        assignments={"monthly_rent": "$1,300.00"},
        reason="amended",
        author="me",
        no_evidence="amended by letter",
    )
    assert revision.rev == 2
    assert [r.rev for r in store.load(lease).revisions] == [1, 2]
    assert store.load(lease).labels.fields["tenant"].value == "Dana Whitfield"  # carried over
    assert validate_store(store) == []


def test_creating_an_existing_fixture_is_refused(store):
    lease = add_lease(store)
    record = store.load(lease)
    with pytest.raises(CuratorError, match="already exists"):
        store.create_fixture(record.fixture, record.content, record.revisions)


def test_failed_transaction_writes_nothing(store):
    lease = add_lease(store)
    before = snapshot(store.root)
    with pytest.raises(RuntimeError):
        with store.transaction() as txn:
            txn.append_revision(lease, store.load(lease).labels)
            raise RuntimeError("boom")
    assert snapshot(store.root) == before


def test_invalid_model_is_never_written(store):
    lease = add_lease(store)
    before = snapshot(store.root)
    bad = store.load(lease).labels.model_copy(update={"source": "no such source"})
    with pytest.raises(CuratorError, match="invalid LabelRevision"):
        store.append_revision(lease, bad)
    assert snapshot(store.root) == before


def test_unknown_fixture(store):
    with pytest.raises(FixtureNotFound):
        store.load("nope-00000000")


def test_thread_keeps_unknown_mattermost_members(store):
    thread = add_thread(store)
    raw = json.loads((store.directory(thread) / "content.json").read_text())
    post = raw["content"]["export"]["posts"]["p2"]
    assert post["extra_member"] is True
    # Only members the export had: no defaults injected into the Mattermost shape.
    assert set(post) == {"id", "create_at", "user_id", "root_id", "message", "extra_member"}


APPENDER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from curator.labels import set_labels
    from curator.store import Store
    store = Store(Path(sys.argv[1]))
    for i in range(int(sys.argv[3])):
        set_labels(
            store,
            sys.argv[2],
            assignments={"monthly_rent": f"${1000 + i}.00"},
            author=sys.argv[4],
            no_evidence="test",
        )
    """
)


def test_two_processes_never_lose_each_others_revisions(store):
    lease = add_lease(store)
    children = [
        subprocess.Popen(
            [CURATOR[0], "-c", APPENDER, str(store.root), lease, "15", who], env=subprocess_env()
        )
        for who in ("alice", "bob")
    ]
    assert [child.wait(timeout=120) for child in children] == [0, 0]
    revisions = store.load(lease).revisions
    assert [r.rev for r in revisions] == list(range(1, 32))
    # each process's author is one reviewer handle, the same across both processes' writes
    assert sorted(Counter(r.author for r in revisions[1:]).values()) == [15, 15]


STALLED_WRITER = textwrap.dedent(
    """
    import os, sys, time
    from pathlib import Path
    import curator.atomic as atomic
    real_replace = os.replace
    def stalled_replace(src, dst):
        # Fault injection: stop between writing the new labels and renaming them in.
        if str(dst).endswith("labels.jsonl"):
            Path(sys.argv[3]).write_text("in the middle")
            time.sleep(60)
        real_replace(src, dst)
    atomic.os.replace = stalled_replace
    from curator.labels import set_labels
    from curator.store import Store
    set_labels(
        Store(Path(sys.argv[1])),
        sys.argv[2],
        assignments={"monthly_rent": "$9,999.00"},
        author="killed",
        no_evidence="test",
    )
    """
)


def test_sigkill_during_a_label_write_lands_whole_with_the_next_command(store, tmp_path):
    """Killed between its commit point (the journal) and the rename of labels.jsonl: the file
    is unchanged until the next command that takes the lock completes the commit."""
    lease = add_lease(store)
    before = (store.directory(lease) / "labels.jsonl").read_bytes()
    marker = tmp_path / "marker"
    child = start_until_marker(STALLED_WRITER, marker, str(store.root), lease, str(marker))
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert (store.directory(lease) / "labels.jsonl").read_bytes() == before
    assert store.load(lease).labels.fields["monthly_rent"].value == "$1,250.00"
    result = subprocess.run(
        [*CURATOR, "--store", str(store.root), "validate"],
        env=subprocess_env(),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert store.load(lease).labels.fields["monthly_rent"].value == "$9,999.00"
    assert not list(store.staging_root.iterdir())
    # The lock died with the process: the next writer gets in.
    assert (
        set_labels(
            store,
            lease,
            assignments={"monthly_rent": "$1,260.00"},
            author="next",
            no_evidence="test",
        ).rev
        == 3
    )


def test_revision_model_round_trips():
    line = (
        '{"rev":1,"time":"2026-01-01T00:00:00Z","author":"a","source":"labelstudio:12/34",'
        '"reason":null,"fields":{},"rubrics":[]}'
    )
    assert LabelRevision.model_validate_json(line).source == "labelstudio:12/34"
