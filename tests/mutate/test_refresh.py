"""Refresh keeps decisions: a variant re-derived from a relabelled parent keeps its status
when its truth follows mechanically, goes back to review only when a person must decide,
and makes a field expected-absent only from located evidence that the cut removed."""

from __future__ import annotations

import json

from curator.labels import LabelEdit, set_labels
from curator.model import Status
from tests import samples
from tests.conftest import run_cli
from tests.mutate.conftest import variant_of


def _mutate(store, parent, *args) -> str:
    result = run_cli("mutate", parent, *args, "--json", store=store.root)
    assert result.exit_code == 0, result.stderr
    return variant_of(result.stdout)["id"]


def _refresh(store) -> list[dict]:
    result = run_cli("mutate", "--refresh", "--json", store=store.root)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)["variants"]


def _forget_evidence(store, fixture_id: str, field: str) -> None:
    """Labels as written before evidence was required: the value without its span."""
    labels = store.directory(fixture_id) / "labels.jsonl"
    lines = labels.read_text().splitlines()
    last = json.loads(lines[-1])
    last["fields"][field]["evidence"] = None
    labels.write_text("\n".join([*lines[:-1], json.dumps(last)]) + "\n")


def test_a_value_the_kept_text_shows_is_never_made_absent(store):
    lease = samples.add(store, "lease", 1)  # the tenant is on page 1 and again in the SIGNED line
    _forget_evidence(store, lease, "tenant")
    variant = _mutate(store, lease, "--truncate", "0.5")
    tenant = store.load(variant).labels.fields["tenant"]
    assert (
        not tenant.expected_absent and tenant.evidence.page == 1
    )  # located before the cut, and kept
    set_labels(
        store,
        lease,
        assignments={"landlord": store.load(lease).labels.fields["landlord"].value},
        reason="re-checked",
        author="t",
    )
    _forget_evidence(store, lease, "tenant")
    (refreshed,) = _refresh(store)
    assert refreshed["id"] == variant and "tenant" not in refreshed["expected_absent"]
    assert not store.load(variant).labels.fields["tenant"].expected_absent
    problems = json.loads(run_cli("validate", "--json", store=store.root).stdout)["problems"]
    assert [p["fixture"] for p in problems] == [
        lease
    ]  # the parent still lacks the span; the variant has it


def test_a_cut_evidence_span_is_looked_for_again_in_the_kept_text(store, config):
    from curator.mutate.engine import Step, apply_chain

    lease = samples.add(store, "lease", 1)
    record = store.load(lease)
    landlord = record.labels.fields["landlord"]
    last = record.content.pages[-1].text
    # evidence on the SIGNED line of the last page; the same name is on page 1 too
    start = last.index(landlord.value)
    from curator.model import Span

    moved = landlord.model_copy(
        update={
            "evidence": Span(
                page=len(record.content.pages), start=start, end=start + len(landlord.value)
            )
        }
    )
    labels = record.labels.model_copy(
        update={"fields": {**record.labels.fields, "landlord": moved}}
    )
    record = record.__class__(record.fixture, record.content, [labels], record.directory)
    variant = apply_chain(record, config, [Step("truncate", {"pages": 1})], 0)
    label = variant.revision.fields["landlord"]
    assert not label.expected_absent and label.evidence.page == 1
    assert variant.fixture.lineage.mutations[0].measured["relocated"] == ["landlord"]
    assert "monthly_rent" in variant.fixture.lineage.mutations[0].measured["expected_absent"]


def test_a_reviewed_decision_survives_a_mechanical_refresh(store):
    thread = samples.add(store, "thread", 3)
    set_labels(store, thread, add_rubrics=["The tone stays polite."], author="t")  # names no posts
    variant = _mutate(store, thread, "--truncate", "0.6")
    assert (
        store.load_fixture(variant).status is Status.needs_review
    )  # a person must look at that rubric
    assert (
        run_cli("status", variant, "--to", "active", store=store.root).exit_code == 0
    )  # a reviewer did

    # The parent's rubric now names its evidence post: the cut decides it by rule.
    first = store.load(thread).content.export.ordered_posts()[0].id
    set_labels(
        store,
        thread,
        edit=LabelEdit(add_rubrics=["The summary names the failing job."], evidence_posts=[first]),
        author="t",
    )
    (refreshed,) = _refresh(store)
    assert refreshed["status"] == "active" and store.load_fixture(variant).status is Status.active

    # A new rubric with no evidence posts is something nobody decided: back to review.
    set_labels(store, thread, add_rubrics=["The summary thanks the reporter."], author="t")
    (refreshed,) = _refresh(store)
    assert refreshed["status"] == "needs-review"


def test_an_active_document_variant_stays_active_after_its_parent_is_relabelled(store):
    lease = samples.add(store, "lease", 1)
    variants = [
        _mutate(store, lease, *args)
        for args in (
            ["--truncate", "0.9"],
            ["--ocr-noise", "0.1"],
            ["--contradict", "monthly_rent"],
        )
    ]
    for variant in variants:
        assert store.load_fixture(variant).status is Status.active
    set_labels(
        store, lease, assignments={"security_deposit": ""}, reason="deposit waived", author="t"
    )
    refreshed = _refresh(store)
    assert sorted(r["id"] for r in refreshed) == sorted(variants)
    assert {r["status"] for r in refreshed} == {"active"}
    assert all(store.load(v).labels.fields["security_deposit"].expected_absent for v in variants)
