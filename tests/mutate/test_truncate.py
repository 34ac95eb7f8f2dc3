"""--truncate / --pages: what survives the cut keeps its truth, what is cut is expected absent."""

from __future__ import annotations

from curator.labels import set_labels, truth_problems
from tests.conftest import run_cli, snapshot
from tests.mutate.conftest import variant_of


def _load(samples, variant_id):
    return samples.store.load(variant_id)


def test_document_cut_at_fraction_mid_sentence(samples_store):
    result = run_cli(
        "mutate", samples_store.lease, "--truncate", "--json", store=samples_store.root
    )
    assert result.exit_code == 0, result.stderr
    info = variant_of(result.stdout)
    assert info["mutations"][0]["params"] == {"fraction": 0.6}  # the default
    parent = samples_store.store.load(samples_store.lease)
    variant = _load(samples_store, info["id"])
    parent_text = "".join(p.text for p in parent.content.pages)
    kept = "".join(p.text for p in variant.content.pages)
    assert parent_text.startswith(kept)
    assert 0.55 <= len(kept) / len(parent_text) <= 0.7
    assert (
        kept[-1] not in ".!?:;\n" and parent_text[len(kept)].isspace()
    )  # mid-sentence, whole word
    assert variant.fixture.category == "truncated"
    measured = variant.fixture.lineage.mutations[0].measured
    assert measured["kept_chars"] == len(kept)
    cut_page = measured["cut_page"]
    cut_at = len(variant.content.pages[-1].text)
    for name, label in parent.labels.fields.items():
        new = variant.labels.fields[name]
        span = label.evidence
        past = span.page > cut_page or (span.page == cut_page and span.end > cut_at)
        if past:
            assert new.expected_absent and new.value is None and new.evidence is None
        else:
            assert new.value == label.value and new.evidence == span
    assert any(f.expected_absent for f in variant.labels.fields.values())
    assert any(not f.expected_absent for f in variant.labels.fields.values())
    assert truth_problems(variant.content, variant.labels) == []


def test_pages_keeps_first_pages(samples_store):
    result = run_cli(
        "mutate", samples_store.lease3, "--pages", "1", "--json", store=samples_store.root
    )
    assert result.exit_code == 0, result.stderr
    variant = _load(samples_store, variant_of(result.stdout)["id"])
    parent = samples_store.store.load(samples_store.lease3)
    assert [p.text for p in variant.content.pages] == [parent.content.pages[0].text]
    for name, label in parent.labels.fields.items():
        assert variant.labels.fields[name].expected_absent == (label.evidence.page > 1), name
    assert variant.labels.fields["monthly_rent"].expected_absent  # rent sits on page 2


def test_pages_must_cut_something(samples_store):
    before = snapshot(samples_store.root)
    result = run_cli("mutate", samples_store.lease, "--pages", "2", store=samples_store.root)
    assert result.exit_code == 2
    assert "keep between 1 and 1" in result.stderr
    assert snapshot(samples_store.root) == before


def test_thread_keeps_first_posts_and_drops_cut_rubrics(samples_store):
    result = run_cli(
        "mutate", samples_store.thread, "--truncate", "0.5", "--json", store=samples_store.root
    )
    assert result.exit_code == 0, result.stderr
    info = variant_of(result.stdout)
    parent = samples_store.store.load(samples_store.thread)
    variant = _load(samples_store, info["id"])
    ordered = [p.id for p in parent.content.export.ordered_posts()]
    assert sorted(variant.content.export.posts) == sorted(ordered[:2])
    texts = [r.text for r in variant.labels.rubrics]
    assert texts == ["The summary names the failing job."]  # the other's evidence posts are all cut
    assert info["mutations"][0]["measured"]["dropped_rubrics"] == [
        "The summary says what fixed it."
    ]
    assert variant.fixture.status.value == "active"


def test_thread_rubric_without_evidence_posts_needs_review(samples_store):
    set_labels(
        samples_store.store,
        samples_store.thread,
        add_rubrics=["The tone stays polite."],
        author="t",
    )
    result = run_cli(
        "mutate", samples_store.thread, "--truncate", "--json", store=samples_store.root
    )
    assert result.exit_code == 0, result.stderr
    info = variant_of(result.stdout)
    assert info["status"] == "needs-review"
    assert info["warnings"] and "name no evidence posts" in info["warnings"][0]
    variant = _load(samples_store, info["id"])
    assert "The tone stays polite." in [r.text for r in variant.labels.rubrics]


def test_one_post_thread_is_refused_and_nothing_written(samples_store):
    before = snapshot(samples_store.root)
    result = run_cli("mutate", samples_store.single, "--truncate", store=samples_store.root)
    assert result.exit_code == 2
    assert "1-post thread" in result.stderr
    assert snapshot(samples_store.root) == before


def test_fraction_out_of_range_is_refused(samples_store):
    before = snapshot(samples_store.root)
    result = run_cli("mutate", samples_store.lease, "--truncate", "1.5", store=samples_store.root)
    assert result.exit_code == 2 and "between 0 and 1" in result.stderr
    assert snapshot(samples_store.root) == before


def test_cut_posts_take_their_attachments(samples_store, config):
    from curator.mutate.engine import Step, apply_chain

    parent = samples_store.store.load(samples_store.thread)
    ordered = [p.id for p in parent.content.export.ordered_posts()]
    export = parent.content.export.model_copy(
        update={
            "file_infos": {
                "f1": {"id": "f1", "post_id": ordered[0]},
                "f2": {"id": "f2", "post_id": ordered[-1]},
            },
            "files": {"f1": "aGVsbG8=", "f2": "d29ybGQ="},
        }
    )
    record = parent.__class__(
        parent.fixture,
        parent.content.model_copy(update={"export": export}),
        parent.revisions,
        parent.directory,
    )
    variant = apply_chain(record, config, [Step("truncate", {"fraction": 0.5})], 0)
    assert set(variant.content.export.file_infos) == {"f1"} and set(
        variant.content.export.files
    ) == {"f1"}
    untouched = apply_chain(parent, config, [Step("truncate", {"fraction": 0.5})], 0)
    assert (
        "file_infos" not in untouched.content.model_dump(mode="json")["export"]
    )  # Mattermost shape kept
