"""Accepted variants and rubric evidence posts set in Label Studio come back with pull; a
value typed without its evidence is located in the text, or refused when it is not there."""

from __future__ import annotations

import json

import pytest
from review_helpers import prediction_result, project_id, tasks_by_fixture

from curator.labels import truth_problems
from curator.model import Status
from curator.review import configs
from tests import samples
from tests.conftest import run_cli, snapshot
from tests.mattermost_exports import write_thread_export

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


def _task(store, server, admin, fixture_id, key):
    assert _cli(store, server, "push", fixture_id).exit_code == 0
    return tasks_by_fixture(admin, project_id(admin, store, key))[fixture_id]


def _textarea(field: str, control: str, texts: list[str]) -> dict:
    return {
        "id": f"{control}-{field}",
        "from_name": control,
        "to_name": configs.TEXT,
        "type": "textarea",
        "value": {"text": texts},
    }


def test_variants_and_a_value_without_a_span_come_back(review_store, ls_server, admin, alice):
    lease = samples.add(review_store, "lease", 1)
    task = _task(review_store, ls_server, admin, lease, "document/lease")
    labels = review_store.load(lease).labels
    tenant, start = labels.fields["tenant"].value, labels.fields["lease_start_date"].value
    result = [
        r
        for r in prediction_result(admin, task.id)
        if r["from_name"] not in (configs.SPAN, configs.value_control("landlord"))
        or (r["from_name"] == configs.SPAN and r["value"]["labels"] != ["landlord"])
    ]
    landlord = labels.fields["landlord"].value
    result += [
        _textarea(
            "tenant",
            configs.variants_control("tenant"),
            [f"{tenant.split()[-1].upper()}\n{tenant[0]}."],
        ),
        _textarea(
            "lease_start_date", configs.variants_control("lease_start_date"), [start]
        ),  # the value itself
        _textarea(
            "landlord", configs.value_control("landlord"), [landlord.lower()]
        ),  # typed, no span
    ]
    alice.annotate(task.id, result)

    done = _cli(review_store, ls_server, "pull")

    assert done.exit_code == 0, done.stderr
    record = review_store.load(lease)
    fields = record.labels.fields
    assert fields["tenant"].variants == [tenant.split()[-1].upper(), f"{tenant[0]}."]
    assert fields["lease_start_date"].variants == []  # the value again adds nothing
    assert fields["landlord"].value == landlord.lower()
    assert (
        record.content.pages[0].text[
            fields["landlord"].evidence.start : fields["landlord"].evidence.end
        ]
        == landlord
    )
    assert truth_problems(record.content, record.labels) == []


def test_a_typed_value_the_text_does_not_show_is_refused(review_store, ls_server, admin, alice):
    lease = samples.add(review_store, "lease", 2)
    task = _task(review_store, ls_server, admin, lease, "document/lease")
    result = [
        r
        for r in prediction_result(admin, task.id)
        if r["from_name"] != configs.value_control("tenant")
        and not (r["from_name"] == configs.SPAN and r["value"]["labels"] == ["tenant"])
    ]
    result.append(_textarea("tenant", configs.value_control("tenant"), ["Nobody At All"]))
    alice.annotate(task.id, result)
    before = snapshot(review_store.root)

    done = _cli(review_store, ls_server, "pull")

    assert done.exit_code == 2 and len(done.stderr.strip().splitlines()) == 1
    assert f"{lease}: annotation {task.id}/" in done.stderr
    assert "field tenant: 'Nobody At All' is not in the content" in done.stderr
    assert "mark its evidence in the text" in done.stderr
    assert snapshot(review_store.root) == before


def test_evidence_posts_ticked_in_label_studio_keep_a_cut_thread_honest(
    review_store, ls_server, admin, alice
):
    from curator.labels import set_labels

    thread = samples.add(review_store, "thread", 3)
    set_labels(
        review_store, thread, add_rubrics=["The tone stays polite."], author="lead"
    )  # no posts yet
    task = _task(review_store, ls_server, admin, thread, "thread")
    posts = [p.id for p in review_store.load(thread).content.export.ordered_posts()]
    result = prediction_result(admin, task.id)
    result.append(
        {
            "id": "posts_3",
            "from_name": configs.posts_control(3),
            "to_name": configs.rubric_object(3),
            "type": "choices",
            "value": {"choices": [posts[0], posts[1]]},
        }
    )
    alice.annotate(task.id, result)

    assert _cli(review_store, ls_server, "pull").exit_code == 0

    rubrics = {r.text: r.evidence_posts for r in review_store.load(thread).labels.rubrics}
    assert rubrics["The tone stays polite."] == posts[:2]
    assert rubrics["The summary names the failing job."] == posts[:1]  # kept as pre-filled
    assert run_cli("status", thread, "--to", "active", store=review_store.root).exit_code == 0
    made = run_cli("mutate", thread, "--truncate", "0.5", "--json", store=review_store.root)
    assert made.exit_code == 0, made.stderr
    variant = json.loads(made.stdout)["variants"][0]
    # every rubric names its posts, so the cut decides each one by rule: no one must look
    assert variant["status"] == Status.active.value and variant["warnings"] == []


def test_a_result_naming_posts_by_their_source_ids_is_mapped_through_the_vault(
    review_store, ls_server, admin, alice, tmp_path
):
    written = write_thread_export(tmp_path / "developers_webapp.json")
    imported = run_cli("import", str(written.path), "--json", store=review_store.root)
    thread = json.loads(imported.stdout)["created"][0]["id"]
    run_cli("label", "set", thread, "--rubric", "says who reran it", store=review_store.root)
    task = _task(review_store, ls_server, admin, thread, "thread")
    stored = [p.id for p in review_store.load(thread).content.export.ordered_posts()]
    result = prediction_result(admin, task.id)
    result.append(
        {
            "id": "posts_1",
            "from_name": configs.posts_control(1),
            "to_name": configs.rubric_object(1),
            "type": "choices",
            "value": {"choices": [written.post_ids[3]]},  # the export's id, not the stored one
        }
    )
    alice.annotate(task.id, result)

    assert _cli(review_store, ls_server, "pull").exit_code == 0

    assert review_store.load(thread).labels.rubrics[0].evidence_posts == [stored[3]]
    labels = (review_store.root / "goldens" / thread / "labels.jsonl").read_text()
    assert written.post_ids[3] not in labels


def test_a_value_kept_without_evidence_keeps_its_reason_through_review(
    review_store, ls_server, admin, alice
):
    from curator.labels import set_labels

    lease = samples.add(review_store, "lease", 4)
    set_labels(
        review_store,
        lease,
        assignments={"monthly_rent": "$9,999.00"},
        no_evidence="raised by letter",
        author="lead",
    )
    task = _task(review_store, ls_server, admin, lease, "document/lease")
    alice.annotate(task.id, prediction_result(admin, task.id))  # submitted as pre-filled

    done = _cli(review_store, ls_server, "pull")

    assert done.exit_code == 0, done.stderr
    rent = review_store.load(lease).labels.fields["monthly_rent"]
    assert (rent.value, rent.evidence, rent.no_evidence) == ("$9,999.00", None, "raised by letter")
