"""A task shows every suspect `curator audit --suspects` lists, with the kind it is
suggested as; what the reviewer ticks comes back through `vault add --kind` (personal, of
that kind or another) and `vault forget` (not personal), recorded in provenance."""

from __future__ import annotations

import base64
import json

import pytest
from review_helpers import files_containing, prediction_result, project_id, tasks_by_fixture

from curator.anonymise import Vault, find_suspects
from curator.ingest.api import import_sources
from curator.review import configs
from tests.conftest import run_cli

pytestmark = pytest.mark.labelstudio

KEY = base64.b64encode(b"suspects-review-key-000000000000").decode()
LINES = [
    {"author": "dana", "text": "The boiler at the Zorbek Quellmire site is fixed.", "time": 1},
    {"author": "omar", "text": "Thanks, the meter is clear now.", "time": 2},
]


def _cli(store, server, command, *args):
    return run_cli(
        "review", command, "--url", server.url, "--api-key", server.legacy_token, *args,
        store=store.root,
    )  # fmt: skip


def test_a_reviewer_confirms_one_suspect_and_dismisses_another(
    review_store, ls_server, admin, alice, tmp_path, monkeypatch
):
    monkeypatch.setenv("CURATOR_VAULT_KEY", KEY)
    source = tmp_path / "boiler.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in LINES), encoding="utf-8")
    import_sources(review_store, [source])
    [fixture] = review_store.ids()
    assert _cli(review_store, ls_server, "push").exit_code == 0
    task = tasks_by_fixture(admin, project_id(admin, review_store, "thread"))[fixture]

    shown = task.data[configs.SUSPECTS]
    assert len(shown) == 2
    zorbek, quellmire = (
        next(o["value"] for o in shown if o["html"].startswith(f"<b>{word}</b>"))
        for word in ("Zorbek", "Quellmire")
    )
    result = prediction_result(admin, task.id) + [
        {
            "from_name": control,
            "to_name": configs.DIALOGUE,
            "type": "choices",
            "value": {"choices": [key]},
        }
        for control, key in (
            (configs.SUSPECT_NAMES, quellmire),
            (configs.SUSPECT_NOT_PERSONAL, zorbek),
        )
    ]
    alice.annotate(task.id, result)

    done = _cli(review_store, ls_server, "pull", "--json")

    assert done.exit_code == 0, done.stderr
    outcomes = sorted(d["outcome"] for d in json.loads(done.stdout)["decisions"])
    assert outcomes == ["added as person", "kept as not personal"]
    record = review_store.load(fixture)
    text = record.content.model_dump_json()
    assert "Zorbek" in text and "Quellmire" not in text
    vault = Vault.load(review_store)
    assert vault is not None and vault.is_forgotten("Zorbek")
    assert [r.action for r in record.fixture.provenance.repairs] == ["vault add"]
    # pulled again: nothing is decided twice
    again = json.loads(_cli(review_store, ls_server, "pull", "--json").stdout)
    assert again["decisions"] == []


# synthetic: a badge number no finder takes for a phone, in two fixtures; an order number;
# two words no list knows
BADGE, ORDER = "450 0840", "613 2277"
BADGE_LOG = [
    {"author": "dana", "text": f"The Zorbek Quellmire badge reads {BADGE}.", "time": 1},
    {"author": "omar", "text": f"Order {ORDER} is shipped.", "time": 2},
]
DOOR_LOG = [{"author": "omar", "text": f"The side door takes badge {BADGE} too.", "time": 3}]


def _choice(region_control, key):
    return {
        "from_name": region_control,
        "to_name": configs.DIALOGUE,
        "type": "choices",
        "value": {"choices": [key]},
    }


def test_a_digit_run_confirmed_as_a_phone_is_rewritten_everywhere_and_a_dismissed_one_stays(
    review_store, ls_server, admin, alice, tmp_path, monkeypatch
):
    monkeypatch.setenv("CURATOR_VAULT_KEY", KEY)
    for name, lines in (("badge.jsonl", BADGE_LOG), ("door.jsonl", DOOR_LOG)):
        source = tmp_path / name
        source.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
        import_sources(review_store, [source])
    badge_fixture, door_fixture = (
        next(
            i for i in review_store.ids() if text in review_store.load(i).content.model_dump_json()
        )
        for text in (ORDER, "side door")
    )
    listed = {(s.value, s.kind) for s in find_suspects(review_store, ids=[badge_fixture])}
    assert {(BADGE, "phone"), (ORDER, "phone"), ("Quellmire", "person")} <= listed
    assert _cli(review_store, ls_server, "push").exit_code == 0
    task = tasks_by_fixture(admin, project_id(admin, review_store, "thread"))[badge_fixture]

    # every suspect the audit lists is offered, the kind it is suggested as beside it, and
    # as written: the task shows the posts it stands in anyway
    shown = {o["html"]: o["value"] for o in task.data[configs.SUSPECTS]}
    assert len(shown) == len(listed)

    def key_of(value):
        return next(v for html, v in shown.items() if html.startswith(f"<b>{value}</b>"))

    assert "a phone number" in next(h for h in shown if h.startswith(f"<b>{BADGE}</b>"))
    badge, order, quellmire = key_of(BADGE), key_of(ORDER), key_of("Quellmire")
    other_kinds = {o["value"] for o in task.data[configs.SUSPECT_KINDS]}
    assert {f"{badge}:credit_card", f"{badge}:ssn", f"{quellmire}:last_name"} <= other_kinds
    assert f"{badge}:phone" not in other_kinds and f"{quellmire}:ssn" not in other_kinds
    result = prediction_result(admin, task.id) + [
        _choice(configs.SUSPECT_NAMES, badge),
        _choice(configs.SUSPECT_NOT_PERSONAL, order),
        _choice(configs.SUSPECT_OTHER_KIND, f"{quellmire}:last_name"),
    ]
    alice.annotate(task.id, result)

    done = _cli(review_store, ls_server, "pull", "--json")

    assert done.exit_code == 0, done.stderr
    decisions = json.loads(done.stdout)["decisions"]
    assert sorted(d["outcome"] for d in decisions) == [
        "added as last_name",
        "added as phone",
        "kept as not personal",
    ]
    vault = Vault.load(review_store)
    assert vault is not None
    phone = vault.lookup(BADGE, "phone")
    assert phone is not None and phone != BADGE
    assert vault.lookup("Quellmire", "last_name") is not None
    assert vault.is_forgotten(ORDER)
    # the badge is gone from every fixture of the store, its phone pseudonym in its place;
    # the order number is kept as written
    assert [p for p in files_containing(review_store.root, BADGE) if "/.curator/" not in p] == []
    assert f"badge {phone} too" in review_store.load(door_fixture).content.model_dump_json()
    badge_text = review_store.load(badge_fixture).content.model_dump_json()
    assert f"reads {phone}." in badge_text and f"Order {ORDER} is" in badge_text
    assert "Quellmire" not in badge_text
    for fixture in (badge_fixture, door_fixture):
        assert "vault add" in [
            r.action for r in review_store.load(fixture).fixture.provenance.repairs
        ]
    assert {s.value for s in find_suspects(review_store)} == {"Zorbek"}  # left undecided
