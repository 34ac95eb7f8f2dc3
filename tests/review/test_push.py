"""`curator review push` against a real Label Studio server."""

from __future__ import annotations

import json

import pytest
from review_data import add_lease, add_thread
from review_helpers import files_containing, prediction_result, project_id, tasks_by_fixture

from curator.labels import set_labels
from curator.review import configs
from tests.conftest import run_cli

pytestmark = pytest.mark.labelstudio


def _push(store, server, *args, key=None):
    return run_cli(
        "review",
        "push",
        "--url",
        server.url,
        "--api-key",
        key or server.legacy_token,
        "--json",
        *args,
        store=store.root,
    )


def test_push_creates_one_project_per_kind_and_doc_type_with_pre_annotations(
    review_store, ls_server, admin
):
    lease_a, lease_b = add_lease(review_store, 1), add_lease(review_store, 2)
    thread = add_thread(review_store, 3, ["The reply names the deadline", "The tone stays polite"])

    done = _push(review_store, ls_server)

    assert done.exit_code == 0, done.stderr
    report = json.loads(done.stdout)
    assert {p["project"]: sorted(p["created"]) for p in report["projects"]} == {
        "document/lease": sorted([lease_a, lease_b]),
        "thread": [thread],
    }
    leases = tasks_by_fixture(admin, project_id(admin, review_store, "document/lease"))
    assert sorted(leases) == sorted([lease_a, lease_b])
    labels = review_store.load(lease_a).labels
    task = leases[lease_a]
    assert task.data["label_rev"] == 1
    result = prediction_result(admin, task.id)
    spans = {r["value"]["labels"][0]: r["value"] for r in result if r["from_name"] == configs.SPAN}
    values = {r["from_name"]: r["value"]["text"][0] for r in result if r["type"] == "textarea"}
    absent = [r["value"]["choices"] for r in result if r["from_name"] == configs.ABSENT]
    assert values["value_tenant"] == labels.fields["tenant"].value
    assert absent == [["security_deposit"]]
    # The page 1 emoji counts as two UTF-16 units in Label Studio's offsets, one in Python's.
    tenant = spans["tenant"]
    assert tenant["text"] == labels.fields["tenant"].value
    assert (
        task.data["text"]
        .encode("utf-16-le")[2 * tenant["start"] : 2 * tenant["end"]]
        .decode("utf-16-le")
        == labels.fields["tenant"].value
    )
    assert labels.fields["tenant"].evidence.start == tenant["start"] - 1

    threads = tasks_by_fixture(admin, project_id(admin, review_store, "thread"))
    thread_task = threads[thread]
    assert thread_task.data["rubric_1"] == "The reply names the deadline"
    export = review_store.load(thread).content.export
    for number, post in enumerate(
        export.ordered_posts(), start=1
    ):  # each post with its author and time
        assert f"<b>#{number} {export.author(post)}</b>" in thread_task.data["dialogue"]
        assert post.written_at() in thread_task.data["dialogue"]
    assert [o["value"] for o in thread_task.data["posts_1"]] == [
        p.id for p in export.ordered_posts()
    ]
    assert (
        thread_task.data["verdicts_3"] == [] and thread_task.data["rubric_3"] == ""
    )  # an unused slot is empty
    verdicts = {
        r["from_name"]: r["value"]["choices"] for r in prediction_result(admin, thread_task.id)
    }
    assert verdicts == {"verdict_1": ["pass"], "verdict_2": ["pass"]}

    assert {review_store.load_fixture(i).status.value for i in (lease_a, lease_b, thread)} == {
        "needs-review"
    }
    assert ls_server.legacy_token not in done.stdout + done.stderr
    assert files_containing(review_store.root, ls_server.legacy_token) == []
    assert (review_store.root / ".curator" / "review.json").is_file()


def test_pushing_again_creates_no_duplicates_and_updates_changed_labels(
    review_store, ls_server, admin
):
    first, second = add_lease(review_store, 11), add_lease(review_store, 12)
    assert _push(review_store, ls_server).exit_code == 0
    project = project_id(admin, review_store, "document/lease")
    before = tasks_by_fixture(admin, project)

    again = json.loads(_push(review_store, ls_server).stdout)["projects"][0]
    assert (again["created"], again["updated"], sorted(again["unchanged"])) == (
        [],
        [],
        sorted([first, second]),
    )

    set_labels(
        review_store,
        first,
        assignments={"monthly_rent": "$9,999.00"},
        author="lead",
        no_evidence="raised by letter",
    )
    (
        review_store.root / ".curator" / "review.json"
    ).unlink()  # lost local state: the server still knows
    changed = json.loads(_push(review_store, ls_server).stdout)["projects"][0]

    assert (changed["created"], changed["updated"], changed["unchanged"]) == ([], [first], [second])
    after = tasks_by_fixture(admin, project)
    assert {k: t.id for k, t in after.items()} == {k: t.id for k, t in before.items()}
    assert after[first].data["label_rev"] == 2
    values = {
        r["from_name"]: r["value"]["text"][0]
        for r in prediction_result(admin, after[first].id)
        if r["type"] == "textarea"
    }
    assert values["value_monthly_rent"] == "$9,999.00"


def test_push_with_a_personal_access_token_through_the_environment(
    review_store, ls_server, admin, personal_token, monkeypatch
):
    fixture = add_lease(review_store, 21)
    monkeypatch.setenv("LABEL_STUDIO_URL", ls_server.url)
    monkeypatch.setenv("LABEL_STUDIO_API_KEY", personal_token)

    done = run_cli("review", "push", fixture, store=review_store.root)

    assert done.exit_code == 0, done.stderr
    assert "1 created" in done.stdout
    assert list(tasks_by_fixture(admin, project_id(admin, review_store, "document/lease"))) == [
        fixture
    ]
    assert personal_token not in done.stdout + done.stderr
    assert files_containing(review_store.root, personal_token) == []


def test_labels_that_do_not_fit_the_config_are_refused_before_anything_is_sent(
    review_store, ls_server, admin
):
    from curator.model import FieldLabel
    from tests.conftest import snapshot

    fixture = add_lease(review_store, 31)
    record = review_store.load(fixture)
    odd = record.labels.model_copy(
        update={
            "fields": {
                **record.labels.fields,
                "pet_policy": FieldLabel(type="text", value="no cats"),
            }
        }
    )
    labels_file = record.directory / "labels.jsonl"
    labels_file.write_text(
        labels_file.read_text() + odd.model_copy(update={"rev": 2}).model_dump_json() + "\n"
    )
    before = snapshot(review_store.root)

    done = _push(review_store, ls_server)

    assert done.exit_code == 2
    assert done.stderr.count("\n") == 1 and fixture in done.stderr and "pet_policy" in done.stderr
    assert snapshot(review_store.root) == before
    from curator.review.push import project_title

    title = project_title(review_store, "document/lease")
    assert [p for p in admin.projects.list(title=title) if p.title == title] == []


def test_only_chosen_fixtures_are_pushed(review_store, ls_server, admin):
    chosen, other = add_lease(review_store, 41), add_lease(review_store, 42)

    assert _push(review_store, ls_server, chosen).exit_code == 0

    assert list(tasks_by_fixture(admin, project_id(admin, review_store, "document/lease"))) == [
        chosen
    ]
    assert review_store.load_fixture(other).status.value == "draft"


def test_a_labeller_gets_the_updated_labels_pre_filled(review_store, ls_server, admin, alice):
    fixture = add_lease(review_store, 51)
    assert _push(review_store, ls_server).exit_code == 0
    set_labels(
        review_store,
        fixture,
        assignments={"tenant": "Pat Example"},
        author="lead",
        no_evidence="the tenant changed",
    )
    assert _push(review_store, ls_server).exit_code == 0
    project = project_id(admin, review_store, "document/lease")

    # What the labelling stream hands the browser: the task and the pre-annotations it shows.
    shown = alice.api("GET", f"/api/projects/{project}/next").json()

    assert shown["data"]["fixture_id"] == fixture and shown["data"]["label_rev"] == 2
    assert len(shown["predictions"]) == 1
    values = {
        r["from_name"]: r["value"]["text"]
        for r in shown["predictions"][0]["result"]
        if r["type"] == "textarea"
    }
    assert values["value_tenant"] == ["Pat Example"]


def test_a_thread_with_more_rubrics_grows_the_project_and_pads_earlier_tasks(
    review_store, ls_server, admin
):
    few = add_thread(review_store, 61, ["One"])
    assert _push(review_store, ls_server).exit_code == 0
    project = project_id(admin, review_store, "thread")
    assert (
        configs.rubric_slots(admin.projects.get(id=project).label_config)
        == configs.MIN_RUBRIC_SLOTS
    )
    many = add_thread(review_store, 62, [f"Rubric {n}" for n in range(1, 8)])

    done = _push(review_store, ls_server, many)

    assert done.exit_code == 0, done.stderr
    assert configs.rubric_slots(admin.projects.get(id=project).label_config) == 7
    tasks = tasks_by_fixture(admin, project)
    assert tasks[many].data["rubric_7"] == "Rubric 7"
    assert tasks[few].data["rubric_1"] == "One" and tasks[few].data["rubric_7"] == ""
    again = json.loads(_push(review_store, ls_server, few, many).stdout)["projects"][0]
    assert sorted(again["unchanged"]) == sorted([few, many])
