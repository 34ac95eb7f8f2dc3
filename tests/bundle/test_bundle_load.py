"""curator.bundle.load: a bundle's fixtures as the same model objects the store holds."""

from __future__ import annotations

import pytest

import curator.bundle
from curator.bundle.build import build_bundle
from curator.errors import CuratorError
from curator.model import DocumentContent, ThreadContent


@pytest.mark.parametrize("archived", [False, True])
def test_load_yields_the_store_records(sample, archived):
    build_bundle(sample, "1.0.0", archive=archived)
    path = sample.bundles_dir / ("1.0.0.tar.gz" if archived else "1.0.0")
    loaded = list(curator.bundle.load(path))
    active = [r for r in sample.records() if r.fixture.status == "active"]
    assert [item.fixture.id for item in loaded] == [r.fixture.id for r in active]
    for item, record in zip(loaded, active, strict=True):
        assert item.fixture == record.fixture
        assert item.labels == record.labels
        assert item.content.model_dump(mode="json") == record.content.model_dump(mode="json")
    kinds = {type(item.content) for item in loaded}
    assert kinds == {DocumentContent, ThreadContent}


def test_thread_content_keeps_its_export_shape(sample):
    build_bundle(sample, "1.0.0")
    thread = next(i for i in curator.bundle.load(str(sample.bundles_dir / "1.0.0")) if i.fixture.kind == "thread")
    dumped = thread.content.model_dump(mode="json")["export"]
    assert "update_at" not in dumped["posts"]["p1"] and dumped["extra_top_level"] == [1, 2]


def test_load_of_a_broken_line_names_it(sample):
    build_bundle(sample, "1.0.0")
    path = sample.bundles_dir / "1.0.0" / "fixtures.jsonl"
    path.write_text(path.read_text() + '{"id": "nope"}\n')
    with pytest.raises(CuratorError, match=r"fixtures.jsonl:5: id"):
        list(curator.bundle.load(sample.bundles_dir / "1.0.0"))
