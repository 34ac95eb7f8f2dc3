"""`curator vault add` and `vault forget`: a person's decision applied to a whole store, with
the same result as if the store had known it before the import."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from curator.anonymise import (
    ADDABLE_KINDS,
    Vault,
    add_name,
    audit_store,
    detector_for,
    find_leaks,
    forget_word,
)
from curator.cli.vault_cmd import ADDABLE
from curator.errors import CuratorError
from curator.ingest.api import import_sources
from curator.store import Store
from tests.conftest import run_cli, snapshot

KEY = base64.b64encode(b"vault-decisions-test-key-0000000").decode()
# a surname no finder knows, with no cue: the import misses it
MISSED = "Quellmire"
LOG_LINES = [
    {"author": "dana", "text": "Morning all, the boiler is fixed.", "time": 1},
    {"author": "omar", "text": f"I sent the Quellmire paperwork to {MISSED}'s desk.", "time": 2},
    {"author": "dana", "text": "Press MAX Display to zoom in on the meter photo.", "time": 3},
    {"author": "omar", "text": "Thanks, the Display is clear now.", "time": 4},
]


@pytest.fixture(autouse=True)
def fixed_key(monkeypatch):
    monkeypatch.setenv("CURATOR_VAULT_KEY", KEY)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")


@pytest.fixture(scope="module")
def detector():
    return detector_for()


def _log(tmp_path: Path) -> Path:
    path = tmp_path / "maintenance.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in LOG_LINES), encoding="utf-8")
    return path


def _files(store: Store) -> dict[str, object]:
    """Every fixture file; fixture.json without what records when and after what it was
    written (the repair itself, the vault's size then)."""
    out: dict[str, object] = {}
    for path in sorted(store.root.glob("*/*/*")):
        if ".curator" in path.parts or path.parent.parent != store.root / path.parts[-3]:
            continue
        name = str(path.relative_to(store.root))
        if path.name == "fixture.json":
            data = json.loads(path.read_bytes())
            for member in ("vault_entries", "repairs"):
                data["provenance"].pop(member, None)
            out[name] = data
        else:
            out[name] = path.read_bytes()
    return out


def _texts(store: Store) -> str:
    return "\n".join(
        p.read_text(encoding="utf-8")
        for p in store.root.rglob("*")
        if p.is_file() and ".curator" not in p.parts and p.suffix in (".json", ".jsonl")
    )


def test_add_after_import_equals_the_decision_made_before(tmp_path, detector):
    source = _log(tmp_path)
    after = Store.init(tmp_path / "after")
    import_sources(after, [source])
    assert MISSED in _texts(after)  # what the finders missed
    decision = add_name(after, MISSED, "last_name", detector)
    assert decision.fixtures and MISSED not in _texts(after)
    assert decision.shown not in ("", MISSED)

    before = Store.init(tmp_path / "before")
    add_name(before, MISSED, "last_name", detector)
    import_sources(before, [source])
    assert _files(after) and _files(after) == _files(before)
    assert audit_store(after, detector) == []
    [fixture] = after.select()
    assert [r.action for r in fixture.provenance.repairs] == ["vault add"]
    assert fixture.provenance.repairs[0].shown == decision.shown  # the pseudonym, never the name


def test_an_added_name_is_rewritten_in_later_imports_and_flagged_when_planted(tmp_path, detector):
    store = Store.init(tmp_path / "store")
    add_name(store, MISSED, "last_name", detector)
    vault = Vault.open(store)
    planted = [("x", f"see the {MISSED} file")]
    assert [leak.text for leak in find_leaks(planted, vault, detector=detector)] == [MISSED]


def test_forget_after_import_equals_the_decision_made_before(tmp_path, detector):
    source = _log(tmp_path)
    after = Store.init(tmp_path / "after")
    import_sources(after, [source])
    assert "MAX Display" not in _texts(after)  # taken for a person
    decision = forget_word(after, "Display")
    assert decision.fixtures
    texts = _texts(after)
    assert "Display to zoom" in texts and "the Display is clear" in texts

    before = Store.init(tmp_path / "before")
    forget_word(before, "Display")
    import_sources(before, [source])
    assert _files(after) and _files(after) == _files(before)
    assert audit_store(after, detector) == []


def test_a_forgotten_word_is_no_original_any_more(tmp_path):
    store = Store.init(tmp_path / "store")
    vault = Vault.open(store)
    pseudonym = vault.pseudonym("Display", "last_name")
    vault.save()
    forget_word(store, "Display")
    vault = Vault.open(store)
    assert find_leaks([("x", "Open the Display settings of Display")], vault) == []
    assert vault.lookup("Display", "last_name") == pseudonym  # its entry stays, unsearched


def test_decisions_survive_the_vault_file_and_its_mac(tmp_path, detector):
    store = Store.init(tmp_path / "store")
    add_name(store, MISSED, "last_name", detector)
    forget_word(store, "Display")
    path = store.local_path("vault.json")
    data = json.loads(path.read_text())
    assert data["forgotten"] == ["display"] and data["decided"] == [["last_name", "quellmire"]]
    vault = Vault.open(store)
    assert vault.is_decided(MISSED, "last_name") and vault.is_forgotten("display")
    data["forgotten"] = []
    path.write_text(json.dumps(data))
    with pytest.raises(CuratorError, match="does not match its key"):
        Vault.open(store)


def test_bad_input_is_one_error_line_and_exit_2_with_the_store_unchanged(tmp_path):
    source = _log(tmp_path)
    store = Store.init(tmp_path / "store")
    import_sources(store, [source])
    before = snapshot(store.root)
    for args in (["vault", "forget", "two words"], ["vault", "add", "--kind", "planet", "X"]):
        done = run_cli(*args, store=store.root)
        assert done.exit_code == 2, done
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert snapshot(store.root) == before


def test_the_commands_print_the_pseudonym_never_the_name(tmp_path):
    store = Store.init(tmp_path / "store")
    import_sources(store, [_log(tmp_path)])
    done = run_cli("vault", "add", MISSED, "--kind", "last_name", store=store.root)
    assert done.exit_code == 0 and MISSED not in done.stdout + done.stderr
    assert "1 fixture(s) rewritten" in done.stdout
    done = run_cli("vault", "forget", "Display", "--json", store=store.root)
    assert json.loads(done.stdout)["action"] == "forget"


def test_the_command_offers_the_kinds_the_library_takes():
    assert ADDABLE == ADDABLE_KINDS
