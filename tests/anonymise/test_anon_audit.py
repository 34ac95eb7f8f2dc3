"""The audit: clean after anonymise, finds surviving originals and pattern PII, CLI exit codes."""

from __future__ import annotations

import json

import pytest

from curator.anonymise import Vault, anonymise, audit_store, find_leaks
from curator.model import ThreadContent
from tests.anonymise.conftest import fixture_record, lease
from tests.conftest import run_cli, snapshot


@pytest.fixture(autouse=True)
def fixed_vault_key(monkeypatch):
    """Store vaults get a fixed key here, so these tests see the same pseudonyms every run."""
    monkeypatch.setenv("CURATOR_VAULT_KEY", "dGVzdCBrZXkgZm9yIHRoZSBhdWRpdCB0ZXN0cyEhISE=")


def _fill(store, export) -> Vault:
    vault = Vault.open(store)
    thread = anonymise(ThreadContent.model_validate({"kind": "thread", "export": export}), vault)
    content, revisions = lease()
    document = anonymise(
        content, vault, revisions=revisions, doc_spec=store.config.doc_types["lease"]
    )
    vault.save()
    store.create_fixture(
        fixture_record("thread-sample-0000aaaa", "thread"), thread.content, thread.revisions
    )
    store.create_fixture(
        fixture_record("lease-sample-0000bbbb", "document"), document.content, document.revisions
    )
    return vault


def test_originals_are_found_case_insensitively_across_breaks(vault):
    vault.pseudonym("Claudio Costa", "person")
    vault.pseudonym("claudio.costa@acme-corp.com", "email")
    texts = [
        ("a", "ask CLAUDIO COSTA"),
        ("b", "ask Claudio\n        Costa about it"),
        ("c", "the owner is claudio.costa"),
        ("d", "Clau-\ndio signed"),
        ("e", "mail CLAUDIO.COSTA@ACME-CORP.COM"),
        ("f", "call 415-867-2231 or write to someone@globex.io"),
        ("g", "nothing to see: claudiocostanza and a costal road"),
    ]
    leaks = find_leaks(texts, vault)
    by_place: dict[str, list[str]] = {}
    for leak in leaks:
        by_place.setdefault(leak.location, []).append(leak.text)
    assert by_place["a"] == ["CLAUDIO COSTA"]
    assert by_place["b"] == ["Claudio\n        Costa"]
    assert by_place["c"] == ["claudio.costa"]
    assert by_place["d"] == ["Clau-\ndio"]
    assert by_place["e"] == ["CLAUDIO.COSTA@ACME-CORP.COM"]
    assert sorted(by_place["f"]) == ["415-867-2231", "someone@globex.io"]
    assert "g" not in by_place


def test_pseudonyms_are_not_leaks_but_the_same_values_without_the_vault_are_flagged(vault):
    safe = [
        (
            "x",
            f"mail {vault.pseudonym('ana@globex.io', 'email')}, call "
            f"{vault.pseudonym('(415) 867-2231', 'phone')}, ip "
            f"{vault.pseudonym('10.1.1.1', 'ip')}, card "
            f"{vault.pseudonym('4111 1111 1111 1111', 'credit_card')}, thanks "
            f"{vault.pseudonym('Jennifer Walsh', 'person')}",
        )
    ]
    assert find_leaks(safe, vault) == []
    # emails, phones, IPs and cards sit in reserved ranges: safe even without the vault
    assert find_leaks(safe, None) == []
    iban = vault.pseudonym("DE89 3704 0044 0532 0130 00", "iban")
    assert find_leaks([("y", f"pay to {iban}")], vault) == []
    assert [leak.kind for leak in find_leaks([("y", f"pay to {iban}")], None)] == ["iban"]


def test_audit_store_is_clean_after_anonymise_and_cli_exits_0(store, export):
    _fill(store, export)
    assert audit_store(store) == []
    done = run_cli("audit", "--json", store=store.root)
    assert done.exit_code == 0, done.stderr
    assert json.loads(done.stdout) == {"clean": True, "leaks": []}


def test_a_surviving_original_in_a_fixture_or_bundle_is_reported_with_exit_1(store, export):
    _fill(store, export)
    user = next(iter(export["users"].values()))
    content = store.root / "goldens" / "thread-sample-0000aaaa" / "content.json"
    data = json.loads(content.read_text())
    post = next(iter(data["content"]["export"]["posts"].values()))
    post["message"] += f" (thanks {user['first_name'].upper()})"
    content.write_text(json.dumps(data))
    bundle = store.root / "bundles" / "v1"
    bundle.mkdir(parents=True)
    (bundle / "fixtures.jsonl").write_text(json.dumps({"note": f"owner {user['email']}"}) + "\n")
    done = run_cli("audit", "--json", store=store.root)
    assert done.exit_code == 1
    leaks = json.loads(done.stdout)["leaks"]
    assert {(leak["kind"], leak["text"]) for leak in leaks} == {
        ("original:first_name", user["first_name"].upper()),
        ("original:email", user["email"]),
    }
    assert any(
        leak["location"].startswith("goldens/thread-sample-0000aaaa/content.json") for leak in leaks
    )
    assert any(leak["location"].startswith("bundles/v1/fixtures.jsonl:1") for leak in leaks)
    text = run_cli("audit", store=store.root)
    assert text.exit_code == 1 and "2 leak(s) found" in text.stdout


def _wrong_key(path):
    data = json.loads(path.read_text())
    data["key"] = "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE="
    path.write_text(json.dumps(data))


@pytest.mark.parametrize(
    "damage", [lambda p: p.write_text("{ broken"), _wrong_key], ids=["corrupt", "wrong-key"]
)
def test_bad_vault_is_exit_2_and_nothing_is_rewritten(store, export, damage):
    _fill(store, export)
    damage(store.root / ".curator" / "vault.json")
    before = snapshot(store.root)
    done = run_cli("audit", store=store.root)
    assert done.exit_code == 2
    assert "vault" in done.stderr and done.stderr.startswith("curator: error:")
    assert snapshot(store.root) == before


def test_a_missing_ner_model_is_a_usage_error(store):
    done = run_cli("audit", "--ner-model", "xx_no_such_model", store=store.root)
    assert done.exit_code == 2
    assert "not installed" in done.stderr and "never downloads" in done.stderr


def test_an_empty_store_without_a_vault_is_clean(store):
    done = run_cli("audit", store=store.root)
    assert done.exit_code == 0 and "no leaks found" in done.stdout
    assert not (store.root / ".curator" / "vault.json").exists()


def test_an_installed_model_directory_is_used_offline(store, tmp_path):
    import os

    import spacy

    from curator.anonymise.finders.detector import detector_for

    model = tmp_path / "model"
    spacy.blank("en").to_disk(model)  # an installed pipeline (no NER: nothing more is found)
    assert "CURATOR_NER_MODEL" not in os.environ
    done = run_cli("audit", "--ner-model", str(model), store=store.root)
    assert done.exit_code == 0, done.stderr
    assert detector_for(str(model))._nlp is not None


def test_an_unreadable_bundle_file_is_a_clear_error(store):
    bundle = store.root / "bundles" / "v1"
    bundle.mkdir(parents=True)
    (bundle / "fixtures.jsonl").write_text("{ not json\n")
    done = run_cli("audit", store=store.root)
    assert done.exit_code == 2 and "fixtures.jsonl: not valid JSON" in done.stderr


def test_attachment_text_is_audited(vault):
    import base64

    vault.pseudonym("Claudio Costa", "person")
    payload = base64.b64encode(b"notes by Claudio Costa").decode()
    from curator.anonymise.json_strings import texts_of

    leaks = find_leaks(texts_of({"export": {"files": {"f1": payload}}}, "content.json"), vault)
    assert [(leak.location, leak.text) for leak in leaks] == [
        ("content.json.export.files.f1(decoded)", "Claudio Costa")
    ]


def test_everyday_word_names_count_when_capitalised_or_mentioned(vault):
    vault.pseudonym("Will", "first_name")
    vault.pseudonym("support", "username")
    leaks = find_leaks([("a", "I will ask Will"), ("b", "more support for @support")], vault)
    assert [(leak.location, leak.text, leak.start) for leak in leaks] == [
        ("a", "Will", 11),
        ("b", "support", 18),
    ]


def test_a_fixture_is_judged_against_the_originals_the_vault_held_when_it_was_anonymised(
    store, tmp_path
):
    """A word a later source taught the vault ("Parker", a surname there) is no name the
    earlier fixture could have known ("Parker Hannifin", a company): no leak there. What the
    vault knew then is still an original, and a whole later name is still a detector's hit."""

    def chat(name: str, author: str, text: str) -> str:
        log = tmp_path / name
        log.write_text(
            json.dumps({"author": author, "text": text, "time": "2024-05-06T07:58:00Z"}) + "\n"
        )
        run = run_cli("import", str(log), "--json", store=store.root)
        assert run.exit_code == 0, run.stderr
        return json.loads(run.stdout)["created"][0]["id"]

    first = chat("valves.jsonl", "Dana Whitfield", "Parker Hannifin shipped the valves.")
    chat("later.jsonl", "Chris Parker", "hi all, Chris Parker here")
    assert store.load_fixture(first).provenance.vault_entries < len(Vault.load(store))
    assert run_cli("audit", store=store.root).exit_code == 0
    path = store.directory(first) / "content.json"
    stored = json.loads(path.read_text(encoding="utf-8"))
    [post] = stored["content"]["export"]["posts"].values()
    post["message"] += " Dana Whitfield and Chris Parker agreed."
    path.write_text(json.dumps(stored), encoding="utf-8")
    run = run_cli("audit", "--json", store=store.root)
    assert run.exit_code == 1
    found = {(leak["text"], leak["kind"]) for leak in json.loads(run.stdout)["leaks"]}
    assert ("Dana Whitfield", "original:person") in found and ("Chris Parker", "person") in found
