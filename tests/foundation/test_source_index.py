"""The store's layout helpers, its source index (what keeps import idempotent and fast) and its
lock."""

from __future__ import annotations

import os
import shutil
import signal
import textwrap
from pathlib import Path

import pytest

import curator.store as store_module
from curator.errors import CuratorError
from curator.labels import set_labels
from curator.model import Lineage, MutationStep
from curator.source_index import SOURCES_FILE, SourceIndex
from curator.store import Store, fixture_id
from tests.conftest import start_until_marker
from tests.factories import LEASE_TEXT, add_lease, add_thread


def source(store: Store, fixture_id: str) -> str:
    return store.load_fixture(fixture_id).provenance.source_sha256


def found(store: Store, sha256: str) -> str | None:
    return store.find_by_sources([sha256]).get(sha256)


def saved_index(store: Store) -> dict[str, str | None]:
    saved = SourceIndex.read(store.local_path(SOURCES_FILE))
    assert saved is not None
    return saved.sources


def test_scan_lists_every_fixture_and_parse_record_reads_what_load_reads(store):
    ids = sorted([add_lease(store), add_thread(store)])
    listing = store.scan()
    assert [files.id for files in listing] == ids
    for files in listing:
        assert [stat[0] > 0 for stat in files.stats] == [True, True, True]
        assert store.parse_record(Path(files.directory), files.read()) == store.load(files.id)
    lease = store.fixture_files(ids[0])
    lease["content.json"].write_text("{}")
    with pytest.raises(CuratorError) as from_bytes:
        store.parse_record(lease["content.json"].parent, store.scan()[0].read())
    with pytest.raises(CuratorError) as from_load:
        store.load(ids[0])
    assert str(from_bytes.value) == str(from_load.value)


def test_the_index_is_written_with_the_fixtures_and_answers_find_by_sources(store):
    lease, thread = add_lease(store), add_thread(store)
    assert saved_index(store) == {lease: source(store, lease), thread: source(store, thread)}
    fresh = Store(store.root)  # another process: answers from the saved file
    assert found(fresh, source(store, lease)) == lease
    assert found(fresh, "0" * 64) is None
    asked = [source(store, thread), "0" * 64, source(store, lease), source(store, thread)]
    assert fresh.find_by_sources(asked) == {
        source(store, lease): lease,
        source(store, thread): thread,
    }


def test_a_write_that_adds_no_fixture_leaves_the_index_alone(store):
    lease = add_lease(store)
    path = store.local_path(SOURCES_FILE)
    before = path.stat().st_mtime_ns, path.stat().st_ino
    set_labels(
        store, lease, assignments={"monthly_rent": "$1,300.00"}, author="me", no_evidence="test"
    )
    assert (path.stat().st_mtime_ns, path.stat().st_ino) == before


def test_fixtures_added_or_removed_behind_its_back_make_it_rebuild(store):
    lease = add_lease(store)
    path = store.local_path(SOURCES_FILE)
    only_lease = path.read_bytes()
    thread = add_thread(store)
    path.write_bytes(only_lease)  # as after a `git pull` that brought the thread
    fresh = Store(store.root)
    assert found(fresh, source(store, thread)) == thread
    shutil.rmtree(store.directory(lease))  # as after a `git rm`
    assert found(fresh, source(store, thread)) == thread
    assert found(Store(store.root), source(store, thread)) == thread
    assert lease not in Store(store.root).source_index().sources


def test_a_hand_edited_fixture_is_read_back_not_believed(store):
    lease = add_lease(store)
    old = source(store, lease)
    path = store.fixture_files(lease)["fixture.json"]
    path.write_text(path.read_text().replace(old, "f" * 64))
    assert found(Store(store.root), old) is None
    assert found(Store(store.root), "f" * 64) == lease
    assert not store.local_path(SOURCES_FILE).exists()  # dropped: rebuilt by the next write
    add_thread(store)
    assert saved_index(store)[lease] == "f" * 64


def test_a_transaction_that_changes_a_source_keeps_the_index_in_step(store):
    lease = add_lease(store)
    old = source(store, lease)
    with store.transaction() as txn:
        fixture = txn.fixture(lease)
        moved = fixture.provenance.model_copy(update={"source_sha256": "e" * 64})
        txn.save_fixture(fixture.model_copy(update={"provenance": moved}))
    assert saved_index(store) == {lease: "e" * 64}
    assert found(Store(store.root), old) is None


def test_variants_are_no_source(store):
    lease = add_lease(store)
    record = store.load(lease)
    lineage = Lineage(
        parent=lease,
        parent_label_rev=1,
        mutations=[MutationStep(name="truncate", params={"fraction": 0.5}, seed=1)],
    )
    variant = record.fixture.model_copy(
        update={"id": fixture_id("variant", b"1"), "lineage": lineage}
    )
    store.create_fixture(variant, record.content, record.revisions)  # same provenance as its parent
    indexed = saved_index(store)
    assert len(indexed) == 2 and indexed[lease] == source(store, lease)
    assert [v for k, v in indexed.items() if k != lease] == [None]
    assert found(Store(store.root), source(store, lease)) == lease


KILLED_CREATOR = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    import curator.source_index as source_index
    def stalled_write(self, path, more=()):
        # Fault injection: the fixtures are in place, the index is not yet written.
        Path(sys.argv[2]).write_text("in the middle")
        time.sleep(60)
    source_index.SourceIndex.write = stalled_write
    from curator.store import Store
    from tests.factories import add_thread
    add_thread(Store(Path(sys.argv[1])))
    """
)


def test_sigkill_between_fixtures_and_index_never_makes_them_disagree(store, tmp_path):
    lease = add_lease(store)
    marker = tmp_path / "marker"
    child = start_until_marker(KILLED_CREATOR, marker, str(store.root), str(marker))
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    [thread] = [i for i in store.ids() if i != lease]
    assert set(saved_index(store)) == {lease}  # the old index, which now covers too little
    fresh = Store(store.root)
    assert found(fresh, source(store, thread)) == thread
    assert found(fresh, source(store, lease)) == lease
    add_lease(fresh, text=LEASE_TEXT + "Pets: none\n")  # as import does: ask, then write
    assert set(saved_index(store)) == set(store.ids())


LOCK_HOLDER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from curator.store import Store
    with Store(Path(sys.argv[1])).locked():
        Path(sys.argv[2]).write_text("locked")
        time.sleep(60)
    """
)


def test_a_held_lock_is_waited_for_then_one_line_error(store, tmp_path, monkeypatch):
    lease = add_lease(store)
    marker = tmp_path / "marker"
    child = start_until_marker(LOCK_HOLDER, marker, str(store.root), str(marker))
    try:
        monkeypatch.setattr(store_module, "LOCK_WAIT_SECONDS", 0.3)
        with pytest.raises(CuratorError, match="^the store is locked by another curator process$"):
            set_labels(
                store,
                lease,
                assignments={"monthly_rent": "$1,300.00"},
                author="me",
                no_evidence="test",
            )
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    assert not store.local_path("lock").exists()  # the root folder is locked: nothing is created
    assert (
        set_labels(
            store, lease, assignments={"monthly_rent": "$1,300.00"}, author="me", no_evidence="test"
        ).rev
        == 2
    )
