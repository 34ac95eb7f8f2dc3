"""`curator audit` keeps each fixture's verdict in .curator/cache/ and judges again only what
changed: a fixture's bytes, or anything the judge depends on (the vault, keep terms). A
second audit of an unchanged store finds the same leaks without importing the detector; a
cache that is unreadable or malformed is never trusted."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from curator.anonymise import Vault
from tests.anonymise.test_anon_audit import _fill
from tests.anonymise.test_fast_doors import DETECTOR, PROBE
from tests.conftest import run_cli, subprocess_env

KEY = "dGVzdCBrZXkgZm9yIHRoZSBhdWRpdCB0ZXN0cyEhISE="
CACHE = ".curator/cache/audit-verdicts.json"
LEASE = "goldens/lease-sample-0000bbbb/content.json"
THREAD = "goldens/thread-sample-0000aaaa/content.json"


@pytest.fixture(autouse=True)
def fixed_vault_key(monkeypatch):
    monkeypatch.setenv("CURATOR_VAULT_KEY", KEY)


def _plant(store, relative: str, text: str) -> None:
    """Append `text` to the first page or post of a stored fixture, as a hand edit would."""
    path = store.root / relative
    data = json.loads(path.read_text(encoding="utf-8"))
    if "pages" in data["content"]:
        data["content"]["pages"][0]["text"] += text
    else:
        post = next(iter(data["content"]["export"]["posts"].values()))
        post["message"] += text
    path.write_text(json.dumps(data), encoding="utf-8")


def _audit(store, tmp_path) -> tuple[list[dict], list[str]]:
    """(leaks, detector modules loaded) of `curator audit --json` in a fresh interpreter."""
    result = tmp_path / "probe.json"
    argv = ["--store", str(store.root), "audit", "--json"]
    run = subprocess.run(
        [sys.executable, "-c", PROBE % (DETECTOR,), str(result), *argv],
        env=subprocess_env(CURATOR_VAULT_KEY=KEY),
        check=True,
        capture_output=True,
    )
    probe = json.loads(result.read_text(encoding="utf-8"))
    report = json.loads(run.stdout)
    assert probe["code"] == (1 if report["leaks"] else 0)
    return report["leaks"], probe["loaded"]


def _texts(leaks: list[dict]) -> list[str]:
    return sorted(leak["text"] for leak in leaks)


def test_an_unchanged_store_keeps_its_verdicts_and_a_changed_fixture_is_judged_again(
    store, export, tmp_path
):
    _fill(store, export)
    _plant(store, LEASE, "\nCall 415-867-2231 about the keys.")
    first, loaded = _audit(store, tmp_path)
    assert _texts(first) == ["415-867-2231"] and "curator.anonymise.finders.detector" in loaded
    second, loaded = _audit(store, tmp_path)
    assert second == first and loaded == []
    _plant(store, THREAD, " Card on file: 4111 1111 1111 1111.")
    third, loaded = _audit(store, tmp_path)
    assert _texts(third) == ["4111 1111 1111 1111", "415-867-2231"] and loaded


def test_a_vault_add_and_a_keep_term_judge_every_fixture_again(store, export):
    _fill(store, export)
    _plant(store, LEASE, "\nThe key safe code is quimbletoast.")
    assert run_cli("audit", store=store.root).exit_code == 0
    vault = Vault.load(store)
    vault.pseudonym("quimbletoast", "username")  # a decision made after the first verdict
    vault.save()
    found = run_cli("audit", "--json", store=store.root)
    assert found.exit_code == 1
    assert _texts(json.loads(found.stdout)["leaks"]) == ["quimbletoast"]
    toml = store.root / "curator.toml"
    text = toml.read_text(encoding="utf-8")
    assert text.count("\nkeep = []\n") == 1
    toml.write_text(text.replace("\nkeep = []\n", '\nkeep = ["quimbletoast"]\n'), encoding="utf-8")
    assert run_cli("audit", store=store.root).exit_code == 0


@pytest.mark.parametrize(
    "damage",
    [
        b"{not json",
        b"\xff\xfe",
        b"[]",
        b'{"format": "curator-audit-verdicts-1", "context": 1, "fixtures": {}}',
        "wrong leak",
    ],
)
def test_a_damaged_cache_is_never_trusted(store, export, damage):
    _fill(store, export)
    _plant(store, LEASE, "\nCall 415-867-2231 about the keys.")
    assert run_cli("audit", store=store.root).exit_code == 1
    cache = store.root / CACHE
    if damage == "wrong leak":  # well-formed JSON, the right context, a verdict of bad shape
        data = json.loads(cache.read_bytes())
        for verdict in data["fixtures"].values():
            verdict["leaks"] = [{"location": 3}]
        damage = json.dumps(data).encode()
    cache.write_bytes(damage)
    again = run_cli("audit", "--json", store=store.root)
    assert again.exit_code == 1, again.stderr
    assert _texts(json.loads(again.stdout)["leaks"]) == ["415-867-2231"]
    assert json.loads(cache.read_bytes())["format"] == "curator-audit-verdicts-1"
