"""Evidence or a stated reason for every value; accepted variants, evidence posts and doc
types set from the CLI; validate reports what has neither and never fails a retired fixture."""

from __future__ import annotations

import json

import pytest

from curator.model import Status
from tests.conftest import run_cli, snapshot
from tests.factories import add_lease, add_thread
from tests.mattermost_exports import write_thread_export


def _error(result) -> str:
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1, result.stderr
    return lines[0]


def test_a_value_not_in_the_content_is_refused_saying_where_it_looked(store):
    lease = add_lease(store)
    before = snapshot(store.root)
    result = run_cli("label", "set", lease, "tenant=Nobody At All", store=store.root)
    line = _error(result)
    assert "tenant: 'Nobody At All' is not in the content" in line
    assert "looked through its 1 page(s)" in line and "--no-evidence" in line
    assert snapshot(store.root) == before


def test_no_evidence_keeps_the_value_with_its_reason(store):
    lease = add_lease(store)
    result = run_cli(
        "label",
        "set",
        lease,
        "tenant=Nobody At All",
        "--no-evidence",
        "the tenant changed by phone",
        "--json",
        store=store.root,
    )
    assert result.exit_code == 0, result.stderr
    tenant = json.loads(result.stdout)["fields"]["tenant"]
    assert tenant["value"] == "Nobody At All" and tenant["evidence"] is None
    assert tenant["no_evidence"] == "the tenant changed by phone"
    assert run_cli("validate", store=store.root).exit_code == 0
    assert (
        "[no evidence: the tenant changed by phone]"
        in run_cli("label", "history", lease, store=store.root).stdout
    )
    # the same value again keeps its reason; another value not in the content needs its own
    assert run_cli("label", "set", lease, "tenant=nobody at all", store=store.root).exit_code == 0
    assert store.load(lease).labels.fields["tenant"].no_evidence == "the tenant changed by phone"
    assert run_cli("label", "set", lease, "tenant=Somebody Else", store=store.root).exit_code == 2


def test_a_value_found_says_where(store):
    lease = add_lease(store)
    result = run_cli("label", "set", lease, "monthly_rent=1250", store=store.root)
    assert result.exit_code == 0, result.stderr
    assert "monthly_rent = '1250': evidence at page 1 [" in result.stdout
    label = store.load(lease).labels.fields["monthly_rent"]
    assert label.evidence_text == "$1,250.00"  # the text at the span, written its own way


def test_validate_reports_every_value_with_neither_evidence_nor_reason(store):
    lease = add_lease(store)
    labels = store.directory(lease) / "labels.jsonl"
    revision = json.loads(labels.read_text().splitlines()[-1])
    revision["fields"]["tenant"]["evidence"] = (
        None  # as labels were written before evidence was required
    )
    revision["fields"]["landlord"] = {"type": "person", "value": "Nobody At All"}
    labels.write_text(labels.read_text() + json.dumps({**revision, "rev": 2}) + "\n")
    result = run_cli("validate", "--json", store=store.root)
    assert result.exit_code == 1
    problems = [p["problem"] for p in json.loads(result.stdout)["problems"]]
    assert any(p.startswith("field tenant: 'Dana Whitfield' has no evidence") for p in problems)
    assert any(p.startswith("field landlord: 'Nobody At All' has no evidence") for p in problems)


def test_accepted_variants_are_type_aware(store):
    lease = add_lease(store)
    result = run_cli(
        "label",
        "set",
        lease,
        "--accept",
        "tenant=DANA WHITFIELD",
        "--accept",
        "tenant=D. Whitfield",
        "--accept",
        "lease_start_date=2024-01-15",
        "--accept",
        "monthly_rent=1,250",
        "--json",
        store=store.root,
    )
    assert result.exit_code == 0, result.stderr
    fields = json.loads(result.stdout)["fields"]
    # a date or amount equal to the value, or a name differing only in case, adds nothing: scoring
    # accepts it already
    assert fields["tenant"]["variants"] == ["D. Whitfield"]
    assert fields["lease_start_date"]["variants"] == [] and fields["monthly_rent"]["variants"] == []
    assert (
        run_cli(
            "label", "set", lease, "--drop-accept", "tenant=D. Whitfield", store=store.root
        ).exit_code
        == 0
    )
    assert store.load(lease).labels.fields["tenant"].variants == []
    before = snapshot(store.root)
    for args, message in [
        (["--accept", "lease_start_date=someday"], "accepted variant not a date"),
        (["--accept", "colour=red"], "unknown field 'colour'"),
        (["--accept", "tenant"], "expected FIELD=VALUE"),
        (["--drop-accept", "tenant=Somebody"], "'Somebody' is not an accepted variant"),
    ]:
        assert message in _error(run_cli("label", "set", lease, *args, store=store.root)), args
    assert snapshot(store.root) == before


def test_the_same_value_again_keeps_its_variants(store):
    lease = add_lease(store)
    assert (
        run_cli(
            "label", "set", lease, "--accept", "tenant=D. Whitfield", store=store.root
        ).exit_code
        == 0
    )
    assert run_cli("label", "set", lease, "tenant=dana whitfield", store=store.root).exit_code == 0
    assert store.load(lease).labels.fields["tenant"].variants == ["D. Whitfield"]


def test_rubric_evidence_posts_from_the_cli(store):
    thread = add_thread(store)
    result = run_cli(
        "label",
        "set",
        thread,
        "--rubric",
        "says who will look",
        "--evidence-post",
        "p2",
        "--json",
        store=store.root,
    )
    assert result.exit_code == 0, result.stderr
    rubrics = {r["text"]: r["evidence_posts"] for r in json.loads(result.stdout)["rubrics"]}
    assert rubrics["says who will look"] == ["p2"]
    # naming an existing rubric again sets its posts
    assert (
        run_cli(
            "label",
            "set",
            thread,
            "--rubric",
            "mentions that the deploy is red",
            "--evidence-post",
            "p1",
            store=store.root,
        ).exit_code
        == 0
    )
    assert store.load(thread).labels.rubrics[0].evidence_posts == ["p1"]
    before = snapshot(store.root)
    line = _error(
        run_cli("label", "set", thread, "--rubric", "x", "--evidence-post", "p9", store=store.root)
    )
    assert "no post 'p9' in this thread (its posts: p1, p2)" in line
    assert "--rubric" in _error(
        run_cli("label", "set", thread, "--evidence-post", "p1", store=store.root)
    )
    assert snapshot(store.root) == before


def test_doc_type_set_as_a_revision_with_its_fields(store):
    lease = add_lease(store)
    fixture = store.load_fixture(lease)
    store.save_fixture(fixture.model_copy(update={"doc_type": None}))
    assert "needs a doc type (curator label set" in run_cli("validate", store=store.root).stdout
    result = run_cli(
        "label", "set", lease, "--doc-type", "invoice", "--reason", "misfiled", store=store.root
    )
    assert result.exit_code == 0, result.stderr
    assert "(doc type invoice)" in result.stdout
    record = store.load(lease)
    assert record.fixture.doc_type == "invoice" and record.labels.doc_type == "invoice"
    assert (
        record.labels.fields == {}
    )  # no lease field is an invoice field, and no invoice phrase is in it
    result = run_cli("label", "set", lease, "--doc-type", "lease", "--json", store=store.root)
    assert result.exit_code == 0, result.stderr
    suggested = json.loads(result.stdout)["fields"]
    assert suggested["tenant"]["value"] == "Dana Whitfield" and suggested["tenant"]["evidence"]
    assert run_cli("validate", store=store.root).exit_code == 0
    assert "doc type: lease" in run_cli("label", "history", lease, store=store.root).stdout
    thread = add_thread(store)
    before = snapshot(store.root)
    assert "unknown doc type 'memo' (known: invoice, lease)" in _error(
        run_cli("label", "set", lease, "--doc-type", "memo", store=store.root)
    )
    assert "a thread has no doc type" in _error(
        run_cli("label", "set", thread, "--doc-type", "lease", store=store.root)
    )
    assert snapshot(store.root) == before


@pytest.mark.parametrize("broken", ["doc_type", "evidence"])
def test_retired_fixtures_never_fail_validate(store, broken):
    lease = add_lease(store)
    fixture = store.load_fixture(lease)
    if broken == "doc_type":
        store.save_fixture(fixture.model_copy(update={"doc_type": None}))
    else:
        content = store.directory(lease) / "content.json"
        content.write_text(content.read_text().replace("Dana Whitfield", "Dana Whitfielt"))
    assert run_cli("validate", store=store.root).exit_code == 1
    assert run_cli("status", lease, "--to", "retired", store=store.root).exit_code == 0
    assert store.load_fixture(lease).status is Status.retired
    assert run_cli("validate", store=store.root).exit_code == 0


def test_an_original_post_id_names_its_post_through_the_vault_and_is_never_stored(store, tmp_path):
    written = write_thread_export(tmp_path / "developers_webapp.json")
    imported = run_cli("import", str(written.path), "--json", store=store.root)
    assert imported.exit_code == 0, imported.stderr
    thread = json.loads(imported.stdout)["created"][0]["id"]
    stored = [p.id for p in store.load(thread).content.export.ordered_posts()]
    original = written.post_ids[2]  # as the source export (and Mattermost's permalink) has it
    assert original not in stored

    result = run_cli(
        "label", "set", thread, "--rubric", "says who raised the timeout",
        "--evidence-post", original, "--evidence-post", stored[3], "--json",
        store=store.root,
    )  # fmt: skip

    assert result.exit_code == 0, result.stderr
    assert store.load(thread).labels.rubrics[-1].evidence_posts == [stored[2], stored[3]]
    for path in store.root.rglob("*"):
        if path.is_file() and path.name != "vault.json":  # the vault keeps the mapping
            assert original.encode() not in path.read_bytes(), path
    # an id neither stored nor known to the vault is refused as before
    line = _error(
        run_cli(
            "label", "set", thread, "--rubric", "x", "--evidence-post", "q" * 26, store=store.root
        )
    )
    assert f"no post '{'q' * 26}' in this thread" in line
