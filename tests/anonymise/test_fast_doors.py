"""`label set` of a value the vault already knows is a vault look-up: the detector stack
(finders, the address gazetteer, Presidio) is never imported. Checked in a fresh interpreter,
where sys.modules says what the command loaded; an unknown value with a typed reason beside
it shows that the probe sees the detector when it is loaded."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from curator.anonymise import Vault
from tests.anonymise.test_anon_doors import _stored_lease
from tests.conftest import subprocess_env

KEY = "ZG9vcnMgdGhyb3VnaCB0aGUgdmF1bHQgdGVzdCBrZXk="
DETECTOR = (
    "curator.anonymise.finders.detector",
    "curator.anonymise.finders.addresses",
    "presidio_analyzer",
)
PROBE = """
import json, sys
from curator.cli import main
try:
    main(sys.argv[2:])
except SystemExit as done:
    code = done.code
with open(sys.argv[1], "w") as out:
    json.dump({"code": code, "loaded": [m for m in %r if m in sys.modules]}, out)
"""


@pytest.fixture(autouse=True)
def fixed_vault_key(monkeypatch):
    monkeypatch.setenv("CURATOR_VAULT_KEY", KEY)


def _label_set(store, tmp_path, fixture_id: str, value: str, *extra: str) -> dict:
    result = tmp_path / "probe.json"
    argv = ["--store", str(store.root), "label", "set", fixture_id, f"tenant={value}"]
    argv += ["--author", "reviewer", *extra]
    subprocess.run(
        [sys.executable, "-c", PROBE % (DETECTOR,), str(result), *argv],
        env=subprocess_env(CURATOR_VAULT_KEY=KEY),
        check=True,
        capture_output=True,
    )
    return json.loads(result.read_text(encoding="utf-8"))


def test_a_value_the_vault_knows_is_stored_as_its_pseudonym_without_the_detector(store, tmp_path):
    fixture_id = _stored_lease(store)
    run = _label_set(store, tmp_path, fixture_id, "Claudio Costa")
    assert run == {"code": 0, "loaded": []}
    tenant = Vault.load(store).lookup("Claudio Costa", "person")
    assert store.load(fixture_id).labels.fields["tenant"].value == tenant


def test_a_value_the_vault_does_not_know_goes_through_the_detector(store, tmp_path):
    fixture_id = _stored_lease(store)
    run = _label_set(
        store, tmp_path, fixture_id, "Ottoline Waterhouse-Pryce", "--no-evidence", "by phone"
    )
    assert run["code"] == 0
    assert "curator.anonymise.finders.detector" in run["loaded"]
    assert "Waterhouse" not in store.load(fixture_id).labels.fields["tenant"].value


def test_the_door_loads_a_name_only_when_asked_for_it():
    """`import curator.anonymise` alone imports none of its submodules (PEP 562 exports), and
    every exported name resolves."""
    code = (
        "import sys, curator.anonymise as a; "
        "print(sorted(m for m in sys.modules if m.startswith('curator.anonymise.'))); "
        "print(all(getattr(a, n) is not None for n in a.__all__))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], env=subprocess_env(), check=True, capture_output=True
    )
    assert run.stdout.decode().split() == ["[]", "True"]
