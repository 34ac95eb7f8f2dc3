"""`curator audit --suspects`: what was kept but looks personal, masked, for a person to
decide; and the decision (`vault add` / `vault forget`) takes it off the list."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from curator.anonymise import (
    NOTHING_KEPT,
    Vault,
    add_name,
    audit_store,
    detector_for,
    find_suspects,
    forget_word,
)
from curator.anonymise.suspects import (
    BESIDE,
    DIGITS,
    FILE_NAME,
    NAME_SHAPED,
    suggested_kind,
    suspects_in,
)
from curator.ingest.api import import_sources
from curator.store import Store
from tests.conftest import run_cli

KEY = base64.b64encode(b"suspects-test-key-00000000000000").decode()
# synthetic: two words no list knows, a short local phone, a reserved example line
LOG_LINES = [
    {"author": "dana", "text": "Morning all, the boiler at the Zorbek Quellmire site is fixed."},
    {"author": "omar", "text": "Dr. Charles Sevilla signed it; his badge reads 450 0840."},
    {"author": "dana", "text": "The example line 212 555 0134 works, figures 1,178 0 14 15 too."},
    {"author": "omar", "text": "Thanks Dana, the Display is clear now."},
]


@pytest.fixture(autouse=True)
def fixed_key(monkeypatch):
    monkeypatch.setenv("CURATOR_VAULT_KEY", KEY)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")


@pytest.fixture(scope="module")
def detector():
    return detector_for()


@pytest.fixture
def store(tmp_path: Path) -> Store:
    source = tmp_path / "maintenance-quellmire.jsonl"
    lines = [dict(line, time=n) for n, line in enumerate(LOG_LINES, start=1)]
    source.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    store = Store.init(tmp_path / "store")
    import_sources(store, [source])
    return store


def _listed(suspects) -> set[tuple[str, str]]:
    return {(s.reason, s.value) for s in suspects}


def test_lists_what_was_kept_and_looks_personal_and_nothing_settled(store, detector):
    suspects = find_suspects(store, detector)
    assert _listed(suspects) == {
        (NAME_SHAPED, "Zorbek"),
        (NAME_SHAPED, "Quellmire"),
        (DIGITS, "450 0840"),
        (FILE_NAME, "quellmire"),
    }
    # the pseudonym of Charles Sevilla, the reserved example line, the table's figures and
    # everyday words are not there: listed above is everything
    assert all(s.fixture == store.ids()[0] for s in suspects)
    assert [s.location for s in suspects] == sorted(s.location for s in suspects)


def test_a_suspect_is_shown_masked(store, detector):
    suspects = find_suspects(store, detector)
    shown = "\n".join(str(s) for s in suspects) + json.dumps([s.as_dict() for s in suspects])
    for value in ("Zorbek", "Quellmire", "quellmire", "450 0840", "0840"):
        assert value not in shown
    zorbek = next(s for s in suspects if s.value == "Zorbek")
    assert zorbek.masked == "Z····· (6)"
    # the neighbour that is no everyday word is masked too; the function words are not
    assert zorbek.context == "e boiler at the [Z····· (6)] Q········ site"
    assert "posts" in zorbek.location and zorbek.end - zorbek.start == len("Zorbek")


def test_a_decision_takes_a_suspect_off_the_list(store, detector):
    forget_word(store, "Zorbek")  # not personal
    add_name(store, "Quellmire", "last_name", detector)  # a name: rewritten everywhere
    left = _listed(find_suspects(store, detector))
    assert (NAME_SHAPED, "Zorbek") not in left
    assert (NAME_SHAPED, "Quellmire") not in left
    assert audit_store(store, detector) == []


def test_a_leak_is_reported_by_audit_not_listed_as_a_suspect(store, detector):
    path = store.directory(store.ids()[0]) / "content.json"
    text = path.read_text(encoding="utf-8")
    vault = Vault.load(store)
    assert vault is not None
    pseudonym = vault.lookup("Charles Sevilla", "person")
    assert pseudonym is not None and pseudonym in text
    path.write_text(text.replace(pseudonym, "Charles Sevilla"), encoding="utf-8")
    assert any(leak.text == "Charles Sevilla" for leak in audit_store(store, detector))
    assert not any("sevilla" in s.value.casefold() for s in find_suspects(store, detector))


def test_a_kept_surname_beside_a_rewritten_first_name_is_a_suspect():
    # issue 28: "CHARLES M. SEVILLA, ESQ." became "NICHOLAS F. SEVILLA, ESQ."
    vault = Vault(base64.b64decode(KEY))
    first = vault.pseudonym("Charles", "first_name").upper()
    text = f"{first} F. SEVILLA, ESQ., for the respondent"
    found = list(suspects_in(text, vault, NOTHING_KEPT))
    start = text.index("SEVILLA")
    assert found == [(start, start + 7, BESIDE, "SEVILLA")]


def test_the_cli_prints_suspects_in_a_fixed_order_and_never_fails(store):
    first = run_cli("audit", "--suspects", store=store.root)
    again = run_cli("audit", "--suspects", store=store.root)
    assert first.exit_code == 0 and first.stdout == again.stdout
    assert first.stdout.rstrip().endswith(
        "4 suspect(s): curator vault add TERM --kind KIND if one is "
        "personal (of the kind shown), curator vault forget TERM if it is not"
    )
    as_json = run_cli("audit", "--suspects", "--json", store=store.root)
    assert as_json.exit_code == 0
    listed = json.loads(as_json.stdout)["suspects"]
    assert [s["reason"] for s in listed] == [
        s.split(": ")[0].split("] ")[1] for s in first.stdout.splitlines()[:-1]
    ]
    assert "Zorbek" not in as_json.stdout


def test_a_suspect_is_suggested_as_the_kind_its_reason_implies(store, detector):
    kinds = {s.value: s.kind for s in find_suspects(store, detector)}
    assert kinds == {
        "Zorbek": "person",
        "Quellmire": "person",
        "quellmire": "person",  # of the file name
        "450 0840": "phone",
    }
    # a Luhn-valid run of a card's length is a card, one in an SSN's groups an SSN
    assert suggested_kind(DIGITS, "4556 7375 8689 9855") == "credit_card"
    assert suggested_kind(DIGITS, "078-05-1120") == "ssn"
    assert suggested_kind(DIGITS, "(212) 555-0134") == "phone"
    badge = next(s for s in find_suspects(store, detector) if s.reason == DIGITS)
    assert badge.kinds == ("phone", "credit_card", "ssn")


def test_a_number_added_as_a_phone_is_rewritten_and_a_forgotten_one_asked_no_more(store):
    added = run_cli("vault", "add", "450 0840", "--kind", "phone", store=store.root)
    assert added.exit_code == 0, added.stderr
    vault = Vault.load(store)
    assert vault is not None
    phone = vault.lookup("450 0840", "phone")
    text = store.load(store.ids()[0]).content.model_dump_json()
    assert phone is not None and f"reads {phone}." in text and "450 0840" not in text
    assert not any(s.reason == DIGITS for s in find_suspects(store))


def test_a_forgotten_number_is_no_suspect_any_more(store, detector):
    assert run_cli("vault", "forget", "450 0840", store=store.root).exit_code == 0
    assert not any(s.reason == DIGITS for s in find_suspects(store, detector))
    assert "450 0840" in store.load(store.ids()[0]).content.model_dump_json()
