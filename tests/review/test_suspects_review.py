"""A task shows the fixture's suspects masked; what the reviewer ticks comes back through
`vault add` (a name) and `vault forget` (not personal), recorded in provenance."""

from __future__ import annotations

import base64
import json

import pytest
from review_helpers import prediction_result, project_id, tasks_by_fixture

from curator.anonymise import Vault
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
    assert len(shown) == 2 and "Zorbek" not in json.dumps(shown)
    zorbek, quellmire = (
        next(o["value"] for o in shown if o["html"].startswith(initial)) for initial in "ZQ"
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
    assert outcomes == ["added as a name", "kept as not personal"]
    record = review_store.load(fixture)
    text = record.content.model_dump_json()
    assert "Zorbek" in text and "Quellmire" not in text
    vault = Vault.load(review_store)
    assert vault is not None and vault.is_forgotten("Zorbek")
    assert [r.action for r in record.fixture.provenance.repairs] == ["vault add"]
    # pulled again: nothing is decided twice
    again = json.loads(_cli(review_store, ls_server, "pull", "--json").stdout)
    assert again["decisions"] == []
