"""The leak gate: a bundle is refused, and nothing written, when the audit finds a leak."""

from __future__ import annotations

import json

from curator.anonymise import Vault, anonymise
from curator.bundle.build import build_bundle
from tests.bundle.conftest import THREAD, TIME, add_lease, provenance
from tests.conftest import run_cli, snapshot


def _anonymised_thread(store, vault):
    from curator.model import Fixture, LabelRevision, Rubric, ThreadContent
    from curator.store import fixture_id

    labels = LabelRevision(
        rev=1,
        time=TIME,
        author="tester",
        source="manual",
        rubrics=[Rubric(text="mentions that @sam.lee will roll back")],
    )
    done = anonymise(ThreadContent.model_validate({"export": THREAD}), vault, revisions=[labels])
    assert not done.leaks
    fid = fixture_id("deploy rollback", b"x")
    fixture = Fixture(
        id=fid,
        kind="thread",
        category="clean",
        status="active",
        title="deploy rollback",
        created_at=TIME,
        provenance=provenance("thread.json", "mattermost"),
    )
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


def test_name_guesses_warn_and_strict_audit_refuses(store):
    vault = Vault.open(store)
    vault.save()
    add_lease(
        store, "maple lease", "Jordan Blake", "$1,250.00"
    )  # synthetic, hand-made: not via the vault
    before = snapshot(store.root)
    strict = run_cli("bundle", "build", "1.0.0", "--strict-audit", store=store.root)
    assert strict.exit_code == 2 and "refusing to bundle" in strict.stderr
    assert snapshot(store.root) == before
    run = run_cli("bundle", "build", "1.0.0", "--json", store=store.root)
    assert run.exit_code == 0, run.stderr
    assert "possible personal data hit(s) not from the vault" in run.stderr
    assert json.loads(run.stdout)["warnings"]


def test_pattern_pii_refuses_the_bundle(store):
    Vault.open(store).save()
    add_lease(
        store,
        "maple lease",
        "Jordan Blake",
        "$1,250.00",
        note="Mail jordan.blake@gmail.com for the keys.",
    )
    run = run_cli("bundle", "build", "1.0.0", store=store.root)
    assert run.exit_code == 2 and "refusing to bundle" in run.stderr
    assert not store.bundles_dir.exists()


def test_audit_verdicts_are_cached_per_fixture(sample, monkeypatch):
    import curator.anonymise

    build_bundle(sample, "1.0.0")
    audited = []
    original = curator.anonymise.find_leaks

    def counting(texts, vault, **kwargs):
        texts = list(texts)
        audited.extend(where for where, _ in texts)
        return original(texts, vault, **kwargs)

    monkeypatch.setattr(curator.anonymise, "find_leaks", counting)
    build_bundle(sample, "1.0.1")
    assert all(not where.startswith(("fixtures.jsonl", "mattermost")) for where in audited)
    new = add_lease(sample, "elm lease", "Avery Quinn", "$1,100.00")
    build_bundle(sample, "1.0.2")
    from curator.bundle.leakgate import _fixture_of

    assert {_fixture_of(where) for where in audited if where.startswith("fixtures.jsonl")} == {new}


def test_a_cached_verdict_still_refuses_and_only_a_changed_fixture_is_judged_again(
    store, monkeypatch
):
    import curator.anonymise as anonymise_door
    from curator.errors import CuratorError

    vault = Vault.open(store)
    vault.pseudonym("Jordan Blake", "person")
    vault.save()
    leaky = add_lease(store, "maple lease", "Jordan Blake", "$1,250.00")
    judged: list[str] = []
    find_leaks = anonymise_door.find_leaks

    def counting(texts, *args, **kwargs):
        texts = list(texts)
        judged.extend(where for where, _ in texts)
        return find_leaks(texts, *args, **kwargs)

    monkeypatch.setattr(anonymise_door, "find_leaks", counting)
    for _ in range(2):
        try:
            build_bundle(store, "1.0.0")
        except CuratorError as refused:
            assert f"fixtures.jsonl:{leaky}" in str(refused)
        else:
            raise AssertionError("a bundle holding a vault original was built")
    fixture_texts = [where for where in judged if where.startswith("fixtures.jsonl:")]
    assert fixture_texts and len(fixture_texts) == len(set(fixture_texts))  # judged once
    other = add_lease(store, "oak lease", "Sam Carter", "$900.00")
    judged.clear()
    try:
        build_bundle(store, "1.0.0")
    except CuratorError as refused:
        assert f"fixtures.jsonl:{leaky}" in str(refused)
    judged_ids = {
        where.removeprefix("fixtures.jsonl:").split(".")[0]
        for where in judged
        if where.startswith("fixtures.jsonl:")
    }
    assert judged_ids == {other}
