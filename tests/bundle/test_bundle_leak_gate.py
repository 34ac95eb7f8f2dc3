"""The leak gate: a bundle is refused, and nothing written, when the audit finds a leak."""

from __future__ import annotations

from curator.anonymise import Vault, anonymise
from curator.bundle.build import build_bundle
from tests.bundle.conftest import THREAD, TIME, add_lease, provenance
from tests.conftest import run_cli, snapshot


def _anonymised_thread(store, vault):
    from curator.model import Fixture, LabelRevision, Rubric, ThreadContent
    from curator.store import fixture_id

    labels = LabelRevision(rev=1, time=TIME, author="tester", source="manual",
                           rubrics=[Rubric(text="mentions that @sam.lee will roll back")])
    done = anonymise(ThreadContent.model_validate({"export": THREAD}), vault, revisions=[labels])
    assert not done.leaks
    fid = fixture_id("deploy rollback", b"x")
    fixture = Fixture(id=fid, kind="thread", category="clean", status="active", title="deploy rollback",
                      created_at=TIME, provenance=provenance("thread.json", "mattermost"))
    store.create_fixture(fixture, done.content, done.revisions)
    return fid


def test_anonymised_fixtures_pass_and_the_vault_never_enters_the_bundle(store):
    vault = Vault.open(store)
    _anonymised_thread(store, vault)
    vault.save()
    run = run_cli("bundle", "build", "1.0.0", "--archive", store=store.root)
    assert run.exit_code == 0, run.stderr
    bundle = store.bundles_dir / "1.0.0"
    texts = b"".join(p.read_bytes() for p in bundle.rglob("*") if p.is_file())
    assert b"sam.lee" not in texts and b"alex.doe" not in texts
    assert not any("vault" in p.name for p in bundle.rglob("*"))


def test_a_vault_original_in_a_fixture_refuses_the_bundle(store):
    vault = Vault.open(store)
    _anonymised_thread(store, vault)
    vault.save()
    # A lease written straight into the store, never anonymised: its tenant is an original.
    vault.pseudonym("Jordan Blake", "person")
    vault.save()
    leaky = add_lease(store, "maple lease", "Jordan Blake", "$1,250.00")
    before = snapshot(store.root)
    run = run_cli("bundle", "build", "1.0.0", store=store.root)
    assert run.exit_code == 2
    assert "refusing to bundle" in run.stderr and f"fixtures.jsonl:{leaky}" in run.stderr
    assert snapshot(store.root) == before
    assert not store.bundles_dir.exists()


def test_no_vault_means_nothing_was_anonymised_here_and_the_gate_passes(sample):
    assert Vault.load(sample) is None
    assert build_bundle(sample, "1.0.0").manifest.counts.total == 4
