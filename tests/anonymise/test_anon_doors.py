"""Every door into the store goes through the vault: what a reviewer types into `curator label
set` (values, rubrics, reasons, reference answers) and rubrics given at import read like the
content, with the same pseudonyms; a typed value is then located in the content as usual."""

from __future__ import annotations

import json

import pytest

from curator.anonymise import Vault, anonymise
from curator.store import Store
from tests.anonymise.conftest import lease
from tests.conftest import run_cli
from tests.ingest.conftest import EXAMPLES


@pytest.fixture(autouse=True)
def fixed_vault_key(monkeypatch):
    monkeypatch.setenv("CURATOR_VAULT_KEY", "ZG9vcnMgdGhyb3VnaCB0aGUgdmF1bHQgdGVzdCBrZXk=")


def _stored_lease(store) -> str:
    from curator.model import Fixture, Provenance

    vault = Vault.open(store)
    content, revisions = lease()
    done = anonymise(content, vault, revisions=revisions, doc_spec=store.config.doc_types["lease"])
    vault.save()
    fixture = Fixture(
        id="lease-sample-0000dddd",
        kind="document",
        doc_type="lease",
        category="clean",
        title="lease",
        created_at="2026-01-01T00:00:00Z",
        provenance=Provenance(
            source_sha256="0" * 64,
            source_name="lease.pdf",
            importer="pdf",
            imported_at="2026-01-01T00:00:00Z",
            vault_id=vault.fingerprint,
        ),
    )
    store.create_fixture(fixture, done.content, done.revisions)
    return fixture.id


def _fixture_text(store, fixture_id: str) -> str:
    return "".join(
        p.read_text(encoding="utf-8") for p in sorted(store.directory(fixture_id).iterdir())
    )


def test_label_set_stores_the_pseudonym_for_a_typed_real_name_and_finds_its_evidence(store):
    fixture_id = _stored_lease(store)
    vault = Vault.load(store)
    tenant = vault.lookup("Claudio Costa", "person")
    run = run_cli(
        "label",
        "set",
        fixture_id,
        "tenant=Claudio Costa",
        "--rubric",
        "Claudio Costa pays the rent",
        "--reason",
        "checked with CLAUDIO COSTA by mail claudio.costa@gmail.com",
        "--json",
        store=store.root,
    )
    assert run.exit_code == 0, run.stderr
    revision = json.loads(run.stdout)
    assert revision["fields"]["tenant"]["value"] == tenant
    evidence = revision["fields"]["tenant"]["evidence"]
    page = store.load(fixture_id).content.pages[evidence["page"] - 1].text
    assert page[evidence["start"] : evidence["end"]] == tenant
    assert f"{tenant} pays the rent" in [r["text"] for r in revision["rubrics"]]
    assert revision["reason"].startswith(f"checked with {tenant.upper()} by mail ")
    stored = _fixture_text(store, fixture_id)
    assert "Costa" not in stored and "COSTA" not in stored and "gmail" not in stored
    assert run_cli("audit", store=store.root).exit_code == 0


def test_a_pseudonym_typed_as_the_reviewer_read_it_stays_and_drop_rubric_finds_a_typed_name(store):
    fixture_id = _stored_lease(store)
    tenant = Vault.load(store).lookup("Claudio Costa", "person")
    assert (
        run_cli(
            "label",
            "set",
            fixture_id,
            f"tenant={tenant}",
            "--rubric",
            "Claudio Costa is the tenant",
            store=store.root,
        ).exit_code
        == 0
    )
    assert store.load(fixture_id).labels.fields["tenant"].value == tenant
    dropped = run_cli(
        "label", "set", fixture_id, "--drop-rubric", "Claudio Costa is the tenant", store=store.root
    )
    assert dropped.exit_code == 0, dropped.stderr
    assert f"{tenant} is the tenant" not in [r.text for r in store.load(fixture_id).labels.rubrics]


def test_a_store_that_anonymised_nothing_stores_what_is_typed(store):
    """No vault, no mapping to follow (a hand-made store): nothing to read like."""
    from tests.bundle.conftest import add_lease

    fixture = add_lease(store, "maple lease", "Jordan Blake", "$1,250.00")
    assert (
        run_cli(
            "label", "set", fixture, "--rubric", "Mentions Jordan Blake", store=store.root
        ).exit_code
        == 0
    )
    assert "Mentions Jordan Blake" in [r.text for r in store.load(fixture).labels.rubrics]
    # its vault holds the labeller's handle alone: no content was anonymised
    assert {entry.kind for entry in Vault.open(store).entries()} == {"reviewer"}


def test_a_rubric_given_at_import_reads_like_the_content(store):
    thread = EXAMPLES / "threads" / "lease-question.json"
    export = json.loads(thread.read_text(encoding="utf-8"))
    user = next(u for u in export["users"].values() if u.get("first_name") and u.get("last_name"))
    name = f"{user['first_name']} {user['last_name']}"
    run = run_cli(
        "import", str(thread), "--rubric", f"Thanks {name} by name", "--json", store=store.root
    )
    assert run.exit_code == 0, run.stderr
    fixture_id = json.loads(run.stdout)["created"][0]["id"]
    pseudonym = Vault.load(store).lookup(name, "person")
    assert [r.text for r in store.load(fixture_id).labels.rubrics] == [
        f"Thanks {pseudonym} by name"
    ]
    assert user["last_name"] not in _fixture_text(store, fixture_id)


LOG = (
    '{"author": "Dana Whitfield", "text": "Linn Electronics ships the LinnDrum; ask LINN '
    'ELECTRONICS support, Dana Whitfield says.", "time": "2024-05-06T07:58:00Z"}\n'
)


def _import_log(store, tmp_path, *args: str) -> str:
    log = tmp_path / "brochure-chat.jsonl"
    log.write_text(LOG, encoding="utf-8")
    run = run_cli("import", str(log), *args, "--json", store=store.root)
    assert run.exit_code == 0, run.stderr
    return json.loads(run.stdout)["created"][0]["id"]


def test_import_keep_keeps_a_term_records_the_decision_and_the_audit_respects_it(store, tmp_path):
    fixture_id = _import_log(store, tmp_path, "--keep", "Linn Electronics")
    record = store.load(fixture_id)
    [post] = record.content.export.posts.values()
    assert post.message.startswith(
        "Linn Electronics ships the LinnDrum; ask LINN ELECTRONICS support, "
    )
    assert "Whitfield" not in post.message
    assert record.fixture.provenance.kept == ["Linn Electronics"]
    assert run_cli("audit", store=store.root).exit_code == 0  # a decision, not a miss


def test_without_the_decision_the_same_words_are_taken_for_a_name_and_rewritten(store, tmp_path):
    fixture_id = _import_log(store, tmp_path)
    [post] = store.load(fixture_id).content.export.posts.values()
    assert "Linn Electronics" not in post.message and "LINN ELECTRONICS" not in post.message
    assert store.load_fixture(fixture_id).provenance.kept == []


def test_keep_in_curator_toml_applies_to_every_import(store, tmp_path):
    config = store.root / "curator.toml"
    config.write_text(
        config.read_text(encoding="utf-8").replace("keep = []", 'keep = ["Linn Electronics"]'),
        encoding="utf-8",
    )
    fixture_id = _import_log(Store(store.root), tmp_path)
    [post] = store.load(fixture_id).content.export.posts.values()
    assert "LINN ELECTRONICS" in post.message


def test_a_pseudonym_written_with_the_originals_separators_typed_back_stays(vault):
    """'Wade-Owens' becomes 'Spears-Media' in the content (the rewriter keeps the hyphen of
    the pseudonym 'Spears Media'); a reviewer typing what they read gets that pseudonym,
    not a pseudonym of it that the content does not hold."""
    from curator.anonymise import anonymise_text
    from curator.anonymise.keep import NOTHING_KEPT
    from curator.anonymise.user_input import UserInput

    vault.assign("Wade-Owens", "organisation", "Spears Media")
    content = anonymise_text("Vendor: Wade-Owens", vault)
    assert content == "Vendor: Spears-Media"
    size = len(vault)
    assert UserInput(vault, NOTHING_KEPT).value("Spears-Media", "organisation") == "Spears-Media"
    assert len(vault) == size
