"""The near-duplicate index: shingles, MinHash estimates, banding, persistence and sync."""

from __future__ import annotations

import shutil

from curator.promote.dedup import (
    INDEX_FILE,
    DedupIndex,
    jaccard,
    rows_per_band,
    shingles,
    signature,
)
from tests.promote.promote_helpers import add_fixture, document, lease_text, thread


def one_word_changed(text: str, every: int = 60) -> str:
    words = text.split(" ")
    return " ".join("CHANGED" if i % every == every // 2 else w for i, w in enumerate(words))


def test_shingles_are_word_trigrams_and_short_texts_are_one_shingle():
    assert shingles("The cat, the HAT sat") == {"the cat the", "cat the hat", "the hat sat"}
    assert shingles("two words") == {"two words"}
    assert shingles("  ...  ") == set()
    assert jaccard({"a", "b"}, {"b", "c"}) == 1 / 3


def test_minhash_estimate_tracks_exact_jaccard():
    import numpy as np

    a = shingles(lease_text(1, 400))
    for other in (lease_text(1, 400), one_word_changed(lease_text(1, 400)), lease_text(2, 400)):
        b = shingles(other)
        estimate = float(np.mean(signature(a) == signature(b)))
        assert abs(estimate - jaccard(a, b)) < 0.15
    assert signature(set()) is None
    assert (signature(a) == signature(set(a))).all()  # deterministic, order-free


def test_band_width_keeps_recall_at_the_threshold():
    assert rows_per_band(0.9) == 8
    for threshold in (0.5, 0.7, 0.8, 0.9, 0.95):
        rows = rows_per_band(threshold)
        assert 1 - (1 - threshold**rows) ** (128 // rows) >= 0.999
        assert rows == 32 or 1 - (1 - threshold ** (rows * 2)) ** (128 // (rows * 2)) < 0.999


def test_finds_near_duplicate_of_existing_fixture_and_not_unrelated_ones(store):
    texts = [lease_text(seed) for seed in range(12)]
    ids = [add_fixture(store, document(t)) for t in texts]
    with DedupIndex(store) as index:
        assert index.sync() == 12
        near = document(one_word_changed(texts[5]))
        match = index.most_similar("document", near, lambda i: store.load(i).content)
        assert match is not None and match.fixture_id == ids[5]
        assert 0.9 <= match.similarity < 1
        assert (
            index.most_similar(
                "document", document(lease_text(99)), lambda i: store.load(i).content
            )
            is None
        )
        # Same text, other kind: a thread is never covered by a document.
        assert index.candidates("thread", thread([one_word_changed(texts[5])])) == []


def test_threshold_comes_from_curator_toml_and_changing_it_rebuilds(store):
    toml = store.root / "curator.toml"
    text = lease_text(3)
    fixture = add_fixture(store, document(text))
    # One word in ten changed: 3 of every 10 trigrams differ, similarity about 0.5.
    changed = document(one_word_changed(text, every=10))
    with DedupIndex(store) as index:
        index.sync()
        assert index.threshold == 0.9
        assert index.most_similar("document", changed, lambda i: store.load(i).content) is None
    toml.write_text(toml.read_text().replace("dedup_threshold = 0.9", "dedup_threshold = 0.3"))
    store._config = None
    with DedupIndex(store) as index:
        assert index.rows == rows_per_band(0.3)
        assert index.sync() == 1  # new band width: re-indexed from scratch
        assert (
            index.most_similar("document", changed, lambda i: store.load(i).content).fixture_id
            == fixture
        )


def test_index_persists_and_syncs_incrementally(store):
    first = add_fixture(store, document(lease_text(1)), trace_id="tr-1")
    with DedupIndex(store) as index:
        assert index.sync() == 1
        index.commit()
    with DedupIndex(store) as index:
        assert index.sync() == 0  # nothing changed: no fixture is read again
        assert index.by_trace("tr-1") == first
        assert index.by_trace("tr-2") is None
    second = add_fixture(store, document(lease_text(2)), trace_id="tr-2")
    shutil.rmtree(store.directory(first))
    with DedupIndex(store) as index:
        assert index.sync() == 2  # one added, one removed
        assert index.by_trace("tr-2") == second and index.by_trace("tr-1") is None
        assert [m.fixture_id for m in index.candidates("document", document(lease_text(2)))] == [
            second
        ]


def test_uncommitted_changes_are_dropped(store):
    with DedupIndex(store) as index:
        index.add("x-00000000", "document", document(lease_text(1)), "tr-x")
        assert index.by_trace("tr-x") == "x-00000000"
    with DedupIndex(store) as index:
        assert index.by_trace("tr-x") is None


def test_a_corrupt_index_file_is_rebuilt(store):
    fixture = add_fixture(store, document(lease_text(4)), trace_id="tr-4")
    store.local_path(INDEX_FILE).write_bytes(b"this is not a database" * 100)
    with DedupIndex(store) as index:
        assert index.sync() == 1
        assert index.by_trace("tr-4") == fixture


def test_candidate_whose_fixture_vanished_is_dropped(store):
    text = lease_text(5)
    fixture = add_fixture(store, document(text))
    with DedupIndex(store) as index:
        index.sync()
        assert index.most_similar("document", document(text), lambda i: None) is None
        assert index.candidates("document", document(text)) == []
    assert fixture


def test_covered_by_syncs_and_answers_in_one_call(store):
    from curator.promote.dedup import covered_by

    text = lease_text(8, 300)
    assert covered_by(store, document(text)) is None
    fixture = add_fixture(store, document(text))
    match = covered_by(store, document(one_word_changed(text)))
    assert match is not None and match.fixture_id == fixture
    assert covered_by(store, document(one_word_changed(text)), threshold=0.99) is None
