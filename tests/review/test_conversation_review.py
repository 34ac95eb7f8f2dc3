"""A conversation in Label Studio: its turns under their roles, its rubrics, reference answer
and expected fields to edit; pull writes what the reviewer said as a label revision.

The conversation is tests/ingest/conversation_samples.py's chat line (OpenAI's chat format,
cited there), imported from JSONL."""

from __future__ import annotations

import json
import re

import pytest
from review_helpers import prediction_result, project_id, tasks_by_fixture

from curator.ingest.api import import_sources
from curator.review import configs
from tests.conftest import run_cli
from tests.ingest import conversation_samples as sample

pytestmark = pytest.mark.labelstudio

RUBRIC = "Gives the end date 2025-06-30"
NEW_RUBRIC = "Says the monthly rent"
REFERENCE = "Your lease ends on 2025-06-30 and the rent is $1,450.00 a month."


def _ok(store, *args):
    result = run_cli(*args, store=store.root)
    assert result.exit_code == 0, result.stdout + result.stderr
    return result.stdout


def _review(store, server, command, *args):
    return _ok(
        store, "review", command, "--url", server.url, "--api-key", server.legacy_token, *args
    )


def _box(control, *lines):
    return {
        "from_name": control,
        "to_name": configs.DIALOGUE,
        "type": "textarea",
        "value": {"text": list(lines)},
    }


def test_a_reviewer_edits_a_conversations_reference_rubrics_and_fields(
    review_store, ls_server, admin, alice, tmp_path
):
    import_sources(review_store, [sample.write_jsonl(tmp_path, "talk.jsonl", [sample.chat_line()])])
    [fixture] = review_store.ids()
    messages = review_store.load(fixture).content.messages
    tenant = re.search(r"I'm (.+?) \(", messages[1].content or "").group(1)
    _ok(
        review_store, "label", "set", fixture, "--doc-type", "lease",
        "lease_end_date=2025-06-30", "--rubric", RUBRIC, "--reference", messages[-1].content,
    )  # fmt: skip
    _review(review_store, ls_server, "push")
    task = tasks_by_fixture(admin, project_id(admin, review_store, "conversation/lease"))[fixture]

    # the turns, each under its role as written; the people's names are pseudonyms
    turns = task.data[configs.MESSAGES]
    assert [t["role"] for t in turns] == ["system", "user", "assistant", "tool", "assistant"]
    assert turns[1]["text"] == messages[1].content and tenant in turns[1]["text"]
    assert not [s for s in sample.secrets() if s in json.dumps(task.data)]
    pre = prediction_result(admin, task.id)
    assert {r["from_name"]: r["value"] for r in pre}["reference"] == {
        "text": [messages[-1].content]
    }

    # the reviewer keeps the rubric, adds one, rewrites the reference, types the tenant by
    # the real name they know and accepts the surname in capitals, and gives the rent
    answer = [r for r in pre if r["from_name"] != configs.REFERENCE] + [
        _box(configs.REFERENCE, REFERENCE),
        _box(configs.NEW_RUBRICS, NEW_RUBRIC),
        _box(configs.value_control("tenant"), sample.PEOPLE["tenant"]),
        _box(configs.value_control("monthly_rent"), "$1,450.00"),
        _box(configs.variants_control("tenant"), tenant.split()[-1].upper()),
    ]
    alice.annotate(task.id, answer)
    pulled = json.loads(_review(review_store, ls_server, "pull", "--json"))

    assert [r["fixture"] for r in pulled["revisions"]] == [fixture]
    record = review_store.load(fixture)
    latest = record.revisions[-1]
    assert latest.source.startswith("labelstudio:") and latest.rev == 2
    assert latest.reference == REFERENCE
    assert [r.text for r in latest.rubrics] == [RUBRIC, NEW_RUBRIC]
    # what the reviewer typed went through the vault: the tenant is the pseudonym
    assert latest.fields["tenant"].value == tenant
    rent = latest.fields["monthly_rent"]
    assert rent.value == "$1,450.00" and rent.evidence is not None
    assert rent.evidence.where[0] == "message"
    assert latest.fields["tenant"].variants == [tenant.split()[-1].upper()]
    assert latest.fields["lease_end_date"].value == "2025-06-30"  # kept as it was
    stored = "".join(p.read_text("utf-8") for p in review_store.root.rglob("labels.jsonl"))
    assert not [s for s in sample.secrets() if s in stored]
    # pulled again: nothing new
    again = json.loads(_review(review_store, ls_server, "pull", "--json"))
    assert again["revisions"] == [] and again["already_pulled"] == 1
