"""`curator review pull`: labellers' annotations, made through the API as the browser makes
them, come back as label revisions."""

from __future__ import annotations

import json
import re

import pytest
from review_data import add_lease, add_thread
from review_helpers import (
    edited,
    files_containing,
    labelstudio_sources,
    prediction_result,
    project_id,
    tasks_by_fixture,
)

from curator.labels import set_labels
from curator.model import DocumentContent
from curator.review import configs
from tests.conftest import run_cli, snapshot

pytestmark = pytest.mark.labelstudio


def _cli(store, server, command, *args):
    return run_cli(
        "review",
        command,
        "--url",
        server.url,
        "--api-key",
        server.legacy_token,
        *args,
        store=store.root,
    )


def _pushed(store, server, admin, key="document/lease"):
    assert _cli(store, server, "push").exit_code == 0
    project = project_id(admin, store, key)
    return project, tasks_by_fixture(admin, project)


def test_an_annotation_becomes_a_label_revision_and_pulling_twice_adds_nothing(
    review_store, ls_server, admin, alice
):
    fixture = add_lease(review_store, 101)
    _, tasks = _pushed(review_store, ls_server, admin)
    task = tasks[fixture]
    annotation = alice.annotate(
        task.id, edited(prediction_result(admin, task.id), tenant="Dana Example")
    )

    done = _cli(review_store, ls_server, "pull", "--json")

    assert done.exit_code == 0, done.stderr
    report = json.loads(done.stdout)
    source = f"labelstudio:{task.id}/{annotation['id']}"
    # the labeller's login is stored as the store's pseudonymous handle for her, never as is
    [(pulled, pulled_source, handle)] = [
        (r["fixture"], r["source"], r["author"]) for r in report["revisions"]
    ]
    assert (pulled, pulled_source) == (fixture, source)
    assert re.fullmatch(r"reviewer-[a-z]+-\d{2}", handle)
    record = review_store.load(fixture)
    assert (record.labels.rev, record.labels.source, record.labels.author) == (2, source, handle)
    assert "alice" not in review_store.fixture_files(fixture)["labels.jsonl"].read_text()
    tenant = record.labels.fields["tenant"]
    # The labeller kept the marked span and wrote another value: the span stays the evidence.
    assert tenant.value == "Dana Example"
    assert tenant.evidence_text == record.revisions[0].fields["tenant"].value
    assert record.labels.fields["security_deposit"].expected_absent
    assert record.fixture.status.value == "reviewed"

    again = _cli(review_store, ls_server, "pull", "--json")
    assert again.exit_code == 0
    assert json.loads(again.stdout)["revisions"] == []
    assert json.loads(again.stdout)["already_pulled"] == 1
    assert labelstudio_sources(review_store, fixture) == [source]
    assert ls_server.legacy_token not in done.stdout + done.stderr + again.stdout + again.stderr
    assert files_containing(review_store.root, ls_server.legacy_token) == []


def test_annotators_who_disagree_are_both_recorded_and_the_fixture_marked_conflict(
    review_store, ls_server, admin, alice, bob
):
    agreed, disputed = add_lease(review_store, 111), add_lease(review_store, 112)
    project, tasks = _pushed(review_store, ls_server, admin)
    admin.projects.update(id=project, maximum_annotations=2)  # two labellers per task
    for fixture in (agreed, disputed):
        task = tasks[fixture]
        result = prediction_result(admin, task.id)
        # Same amount and date written differently: type-aware comparison says they agree.
        alice.annotate(
            task.id, edited(result, monthly_rent="$1,000.00", lease_start_date="2024-03-01")
        )
        bob_tenant = (
            "Someone Else"
            if fixture == disputed
            else review_store.load(fixture).labels.fields["tenant"].value
        )
        bob.annotate(
            task.id,
            edited(
                result, monthly_rent="1000", lease_start_date="March 1, 2024", tenant=bob_tenant
            ),
        )

    done = _cli(review_store, ls_server, "pull")

    assert done.exit_code == 0, done.stderr
    handles = [
        tuple(r.author for r in review_store.load(fixture).revisions[1:])
        for fixture in (agreed, disputed)
    ]
    # one labeller, one handle, in every fixture; two labellers, two handles
    assert handles[0] == handles[1] and len(set(handles[0])) == 2
    assert all(re.fullmatch(r"reviewer-[a-z]+-\d{2}", h) for h in handles[0])
    assert review_store.load_fixture(disputed).review.conflict_fields == ["tenant"]
    assert review_store.load_fixture(disputed).status.value == "needs-review"
    assert review_store.load_fixture(agreed).review.conflict_fields == []
    assert review_store.load_fixture(agreed).status.value == "reviewed"
    assert f"conflict: {disputed} (tenant)" in done.stdout
    lines = done.stdout.splitlines()
    assert any(line.split() == ["tenant", "1/2", "agree", "(50%)"] for line in lines), done.stdout
    assert any(line.split() == ["monthly_rent", "2/2", "agree", "(100%)"] for line in lines), (
        done.stdout
    )

    # Pulling again changes nothing; once a lead settles the field by hand, pull closes it.
    unchanged = snapshot(review_store.root)
    assert _cli(review_store, ls_server, "pull").exit_code == 0
    assert snapshot(review_store.root) == unchanged
    shown = review_store.load(disputed).revisions[0].fields["tenant"].value  # what the text says
    set_labels(
        review_store,
        disputed,
        assignments={"tenant": shown},
        author="lead",
        reason="settled the tenant conflict",
    )
    assert _cli(review_store, ls_server, "pull").exit_code == 0
    assert review_store.load_fixture(disputed).review.conflict_fields == []
    assert review_store.load_fixture(disputed).status.value == "reviewed"


def test_one_annotation_of_two_wanted_leaves_the_review_open(review_store, ls_server, admin, alice):
    fixture = add_lease(review_store, 121)
    project, tasks = _pushed(review_store, ls_server, admin)
    admin.projects.update(id=project, maximum_annotations=2)
    alice.annotate(tasks[fixture].id, prediction_result(admin, tasks[fixture].id))

    assert _cli(review_store, ls_server, "pull").exit_code == 0

    assert review_store.load_fixture(fixture).status.value == "needs-review"
    assert len(labelstudio_sources(review_store, fixture)) == 1


def test_rubric_verdicts_and_new_rubrics_come_back(review_store, ls_server, admin, alice, bob):
    thread = add_thread(review_store, 131, ["Names the deadline", "Invents a refund policy"])
    disputed = add_thread(review_store, 132, ["Names the deadline", "Invents a refund policy"])
    _, tasks = _pushed(review_store, ls_server, admin, key="thread")
    task = tasks[thread]
    result = prediction_result(admin, task.id)
    for region in result:
        if region["from_name"] == configs.verdict_control(2):
            region["value"]["choices"] = [configs.FAIL]
    result.append(
        {
            "from_name": configs.NEW_RUBRICS,
            "to_name": configs.DIALOGUE,
            "type": "textarea",
            "value": {"text": ["Thanks the customer"]},
        }
    )
    alice.annotate(task.id, result)
    # On the other thread the two labellers judge the second rubric differently.
    alice.annotate(tasks[disputed].id, result[:2])
    bob.annotate(tasks[disputed].id, prediction_result(admin, tasks[disputed].id))

    assert _cli(review_store, ls_server, "pull").exit_code == 0

    record = review_store.load(thread)
    assert [r.text for r in record.labels.rubrics] == ["Names the deadline", "Thanks the customer"]
    assert record.fixture.status.value == "reviewed"
    assert review_store.load_fixture(disputed).review.conflict_fields == [
        "rubric: Invents a refund policy"
    ]
    assert review_store.load_fixture(disputed).status.value == "needs-review"


def test_a_span_whose_text_is_not_the_fixture_text_is_rejected_naming_fixture_and_field(
    review_store, ls_server, admin, alice
):
    fixture = add_lease(review_store, 141)
    _, tasks = _pushed(review_store, ls_server, admin)
    task = tasks[fixture]
    alice.annotate(task.id, prediction_result(admin, task.id))
    # The fixture's text changed after the push (say, anonymised again): offsets now miss.
    with review_store.transaction() as txn:
        content = review_store.load(fixture).content
        assert isinstance(content, DocumentContent)
        pages = [
            p.model_copy(update={"text": "Amended: " + p.text}) if p.number == 1 else p
            for p in content.pages
        ]
        txn.save_content(fixture, content.model_copy(update={"pages": pages}))
    before = snapshot(review_store.root)

    done = _cli(review_store, ls_server, "pull")

    assert done.exit_code == 2
    assert done.stderr.startswith("curator: error: ") and done.stderr.count("\n") == 1
    assert fixture in done.stderr and "field tenant" in done.stderr
    assert snapshot(review_store.root) == before


def test_a_reviewer_who_types_a_real_name_stores_the_pseudonym_the_content_uses(
    review_store, ls_server, admin, alice
):
    from curator.anonymise import Vault

    vault = Vault.open(review_store)
    pseudonym = vault.pseudonym("Ingrid Solberg", "person")
    vault.save()
    thread = add_thread(review_store, 133, ["Names the deadline"])
    _, tasks = _pushed(review_store, ls_server, admin, key="thread")
    result = prediction_result(admin, tasks[thread].id)
    result.append(
        {
            "from_name": configs.NEW_RUBRICS,
            "to_name": configs.DIALOGUE,
            "type": "textarea",
            "value": {"text": ["Thanks Ingrid Solberg for the report"]},
        }
    )
    alice.annotate(tasks[thread].id, result)

    assert _cli(review_store, ls_server, "pull").exit_code == 0

    assert [r.text for r in review_store.load(thread).labels.rubrics] == [
        "Names the deadline",
        f"Thanks {pseudonym} for the report",
    ]
    assert not [
        p for p in files_containing(review_store.root, "Solberg") if "/.curator/" not in p
    ]  # the vault only
