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
    thread = next(
        i
        for i in curator.bundle.load(str(sample.bundles_dir / "1.0.0"))
        if i.fixture.kind == "thread"
    )
    dumped = thread.content.model_dump(mode="json")["export"]
    assert "update_at" not in dumped["posts"]["p1"] and dumped["extra_top_level"] == [1, 2]


@pytest.mark.parametrize("edit", ["append", "change"])
def test_load_refuses_a_tampered_bundle_before_yielding_anything(sample, edit):
    build_bundle(sample, "1.0.0")
    path = sample.bundles_dir / "1.0.0" / "fixtures.jsonl"
    text = path.read_text()
    path.write_text(
        text + '{"id": "nope"}\n' if edit == "append" else text.replace("active", "retired", 1)
    )
    loaded = curator.bundle.load(sample.bundles_dir / "1.0.0")
    with pytest.raises(
        CuratorError, match=r"fixtures.jsonl does not match the manifest \(tampered\?\)"
    ):
        next(loaded)


def test_load_of_a_broken_line_names_it(sample):
    """A line the model rejects, in a bundle whose hashes were made to match it."""
    import json

    from curator.bundle.manifest import content_digest, file_sha256

    build_bundle(sample, "1.0.0")
    folder = sample.bundles_dir / "1.0.0"
    broken = b'{"id": "nope"}'
    data = (folder / "fixtures.jsonl").read_bytes() + broken + b"\n"
    (folder / "fixtures.jsonl").write_bytes(data)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["files"]["fixtures.jsonl"] = file_sha256(data)
    manifest["fixtures"].append({**manifest["fixtures"][-1], "line_sha256": file_sha256(broken)})
    manifest["content_sha256"] = content_digest(
        [e["line_sha256"] for e in manifest["fixtures"]], manifest["formats"]
    )
    (folder / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(CuratorError, match=r"fixtures.jsonl:5: id"):
        list(curator.bundle.load(folder))
