"""A big Mattermost bulk export streams: read a thread at a time, written as it is made,
committed whole at the end.

The exports are generated (tests/ingest/big_exports.py, records as in Mattermost's
import_types.go) or the documented samples (tests/ingest/workspace_exports.py).
benchmarks/import_export.py measures the memory; here is what makes it flat.
"""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest

from curator.errors import CuratorError
from curator.ingest import import_sources
from curator.ingest.archive import ZipArchive
from curator.ingest.mattermost_bulk import BulkExport, parse_bulk_export
from curator.ingest.selection import EVERYTHING, Selection
from curator.ingest.source import read_source, stream_source
from curator.limits import DEFAULT
from tests.conftest import run_cli
from tests.hostile.conftest import tree
from tests.ingest import big_exports as big
from tests.ingest import workspace_exports as sample


def _streamed(path: Path, selection: Selection = EVERYTHING) -> BulkExport:
    source = stream_source(path)
    archive = ZipArchive(source) if path.suffix == ".zip" else None
    export = BulkExport(source, selection=selection, archive=archive)
    export.survey()
    return export


def _whole(path: Path, selection: Selection = EVERYTHING):
    source = read_source(path)
    archive = ZipArchive(source) if path.suffix == ".zip" else None
    return parse_bulk_export(source, selection=selection, limits=DEFAULT, archive=archive)


@pytest.mark.parametrize("make", [sample.bulk_zip, sample.bulk_jsonl])
@pytest.mark.parametrize(
    "selection",
    [EVERYTHING, Selection.of(min_replies=1), Selection.of(channels=["berth-bookings"])],
)
def test_streamed_threads_are_the_threads_of_the_export_read_whole(tmp_path, make, selection):
    path = make(tmp_path)
    streamed = list(_streamed(path, selection).threads())
    whole = _whole(path, selection)
    assert [(p.part, p.content, p.warnings) for p in streamed] == [
        (p.part, p.content, p.warnings) for p in whole
    ]


def test_a_generated_export_gives_the_same_threads_streamed_or_whole(tmp_path):
    # whole, the threads come channel by channel; streamed, in the export's order
    path = big.write_bulk_zip(tmp_path / "export.zip", 600)
    streamed = {p.part: p.content for p in _streamed(path).threads()}
    whole = {p.part: p.content for p in _whole(path)}
    assert len(streamed) > 60 and streamed == whole


def test_the_reader_holds_no_thread_it_has_handed_over(tmp_path):
    export = _streamed(big.write_bulk_jsonl(tmp_path / "import.jsonl", 2000))
    handed: list[weakref.ref] = []
    for item in export.threads():
        handed.append(weakref.ref(item.content))
        del item
    gc.collect()
    assert len(handed) > 200 and all(ref() is None for ref in handed)
    # its channels know their records, never their posts
    assert not any(channel.posts for channel in export._workspace.channels.values())


def test_people_of_every_thread_are_known_before_the_first_thread(tmp_path):
    export = _streamed(big.write_bulk_jsonl(tmp_path / "import.jsonl", 2000))
    usernames = {user["username"] for user in export.people()}
    assert usernames == {username for username, _, _ in big.people()}


def test_a_bad_line_deep_in_a_big_export_leaves_the_store_unchanged(store, tmp_path):
    path = big.write_bulk_jsonl(tmp_path / "import.jsonl", 5000, bad_line=700)
    assert len(path.read_bytes().splitlines()) > 700
    before = tree(store.root)
    result = run_cli("import", path, store=store.root)
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert line.startswith("curator: error: import.jsonl:700: not valid JSON")
    assert tree(store.root) == before


def _failing_at(monkeypatch, count: int) -> None:
    """Fault injection: the `count`th fixture-to-be fails as the anonymiser's refusal would."""
    from curator.ingest import fixtures

    real = fixtures.build_fixture
    calls = []

    def build(store, raw, item, *args, **kwargs):
        calls.append(raw.name)
        if raw.name == "import.jsonl" and calls.count("import.jsonl") == count:
            raise CuratorError(f"{raw.name}: refused")
        return real(store, raw, item, *args, **kwargs)

    monkeypatch.setattr(fixtures, "build_fixture", build)


def test_a_thread_failing_late_leaves_nothing_staged(store, tmp_path, monkeypatch):
    path = big.write_bulk_jsonl(tmp_path / "import.jsonl", 300)
    _failing_at(monkeypatch, 40)
    before = tree(store.root)
    with pytest.raises(CuratorError, match="refused"):
        import_sources(store, [path])
    # the staging folder is made on the first write; nothing is left in it
    assert _without_staging(tree(store.root)) == _without_staging(before)


def _without_staging(entries: dict[str, tuple]) -> dict[str, tuple]:
    return {k: v for k, v in entries.items() if k != ".curator/staging"}


def test_keep_going_leaves_out_the_whole_export_a_late_thread_failed_in(
    store, tmp_path, monkeypatch
):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    big.write_bulk_jsonl(inbox / "import.jsonl", 300)
    sample.bulk_zip(inbox)
    _failing_at(monkeypatch, 40)
    report = import_sources(store, [inbox], keep_going=True)
    assert [f["source"] for f in report.failed] == ["import.jsonl"]
    assert {c["source"] for c in report.created} == {"harbour-export.zip"}
    assert sorted(store.ids()) == sorted(c["id"] for c in report.created)
