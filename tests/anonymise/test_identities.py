"""Identities outside messages go through the vault: source file names and label authors."""

from __future__ import annotations

import json
import re

import pytest

from curator.anonymise import Vault
from curator.ingest.api import import_sources
from curator.labels import pseudonymise_authors, set_labels
from curator.store import Store
from tests.conftest import run_cli
from tests.factories import add_lease

HANDLE = re.compile(r"reviewer-[a-z]+-\d{2}")


def _chat(tmp_path, name: str) -> object:
    path = tmp_path / name
    path.write_text(json.dumps({"author": "dana", "text": "The boiler is fixed.", "time": 1}))
    return path


@pytest.mark.parametrize(
    ("name", "kept"),
    [("handover_Kowalczyk.jsonl", False), ("Invoice_March.jsonl", True), ("notes.jsonl", True)],
)
def test_a_listed_name_in_a_source_file_name_is_rewritten_in_provenance(tmp_path, name, kept):
    store = Store.init(tmp_path / "store")
    [created] = import_sources(store, [_chat(tmp_path, name)]).created
    source_name = store.load_fixture(created["id"]).provenance.source_name
    assert (source_name == name) is kept, source_name
    assert source_name.endswith(".jsonl")


def test_label_authors_are_stored_as_one_handle_per_person(tmp_path, monkeypatch):
    store = Store.init(tmp_path / "store")
    lease = add_lease(store)
    for author in ("dana.whitfield@globex.io", "omar", "dana.whitfield@globex.io"):
        set_labels(store, lease, assignments={"monthly_rent": "$1,250.00"}, author=author)
    monkeypatch.setenv("CURATOR_AUTHOR", "omar")
    set_labels(store, lease, assignments={"tenant": "Dana Whitfield"})
    authors = [r.author for r in store.load(lease).revisions[1:]]
    assert all(HANDLE.fullmatch(a) for a in authors), authors
    assert authors[0] == authors[2] and authors[1] == authors[3] and authors[0] != authors[1]
    labels = store.fixture_files(lease)["labels.jsonl"].read_text()
    assert "globex" not in labels and "omar" not in labels
    # a store whose vault holds only handles anonymised no content: values stay as typed
    assert store.load(lease).labels.fields["tenant"].value == "Dana Whitfield"


def test_a_store_written_before_handles_is_repaired_by_vault_authors(tmp_path):
    store = Store.init(tmp_path / "store")
    lease = add_lease(store)  # its first revision is by "tester", written before handles
    with store.transaction() as txn:
        revision = store.load(lease).labels.model_copy(update={"author": "lee@corp.io"})
        txn.append_revision(lease, revision)
    done = run_cli("vault", "authors", store=store.root)
    assert done.exit_code == 0 and f"{lease}: authors rewritten" in done.stdout
    first, second = (r.author for r in store.load(lease).revisions)
    assert HANDLE.fullmatch(first) and HANDLE.fullmatch(second) and first != second
    vault = Vault.open(store)
    assert vault.lookup("lee@corp.io", "reviewer") == second
    assert pseudonymise_authors(store) == []  # handles stay handles
