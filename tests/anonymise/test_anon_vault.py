"""The pseudonym vault: per-store keys, shapes, no collisions, no token reuse, refusal of bad
files."""

from __future__ import annotations

import json
import re
import stat

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from curator.anonymise import Vault
from curator.anonymise.vault import normal, tokens
from curator.errors import CuratorError
from curator.store import Store


def test_open_creates_a_private_vault_and_load_never_creates(store):
    assert Vault.load(store) is None
    assert not (store.root / ".curator" / "vault.json").exists()
    vault = Vault.open(store)
    path = store.root / ".curator" / "vault.json"
    assert not path.exists()  # written by the first save: a refused command leaves none
    vault.pseudonym("Claudio Costa", "person")
    vault.save()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = Vault.load(store)
    assert again is not None and again.originals() == vault.originals()
    assert again.pseudonym("Claudio Costa", "person") == vault.pseudonym("Claudio Costa", "person")


def test_same_original_same_pseudonym_in_a_store_different_across_stores(tmp_path):
    one = Vault.open(Store.init(tmp_path / "one"))
    two = Vault.open(Store.init(tmp_path / "two"))
    names = ["Claudio Costa", "Harrison Ford", "Ana Ruiz", "Wei Chen", "Olga Petrova"]
    first = [one.pseudonym(n, "person") for n in names]
    assert first == [one.pseudonym(n, "person") for n in names]
    second = [two.pseudonym(n, "person") for n in names]
    assert first != second
    # deterministic: a fresh vault with the same key replays the same choices
    replay = Vault(one.key)
    assert [replay.pseudonym(n, "person") for n in names] == first


def test_shapes_are_kept(vault):
    assert re.fullmatch(r"[A-Z][a-z]+ [A-Z][a-z]+", vault.pseudonym("Claudio Costa", "person"))
    assert re.fullmatch(r"[a-z]+\.[a-z]+", vault.pseudonym("claudio.costa", "username"))
    # the username follows the person mapping
    assert vault.pseudonym("claudio.costa", "username") == vault.pseudonym(
        "Claudio Costa", "person"
    ).lower().replace(" ", ".")
    email = vault.pseudonym("claudio.costa@acme-corp.com", "email")
    assert re.fullmatch(r"[a-z]+\.[a-z]+@[a-z]+-[a-z]+\.example", email)
    mm = "k3p9x1m2q8r7t6y5u4i3o2p1a0"
    new_id = vault.pseudonym(mm, "id")
    assert len(new_id) == 26 and re.fullmatch(r"[a-z0-9]{26}", new_id) and new_id != mm
    uuid = "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b"
    assert re.fullmatch(
        r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", vault.pseudonym(uuid, "id")
    )
    assert re.fullmatch(r"\(\d{3}\) 555-01\d\d", vault.pseudonym("(217) 482-7731", "phone"))
    assert vault.pseudonym("10.20.30.40", "ip").startswith(
        ("192.0.2.", "198.51.100.", "203.0.113.")
    )
    assert vault.pseudonym("CLAUDIO", "first_name").isupper()


def test_no_collisions_and_no_reused_name_tokens(vault):
    from faker import Faker

    fake = Faker("en_US")
    fake.seed_instance(3)
    originals = sorted({fake.name() for _ in range(400)})
    pseudonyms = []
    seen_tokens: set[str] = set()
    reused = []
    for name in originals:
        seen_tokens.update(tokens(name))
        pseudonym = vault.pseudonym(name, "person")
        pseudonyms.append(pseudonym)
        # when a pseudonym is made, it reuses no name token of any original known so far
        new_tokens = set(tokens(pseudonym)) - {t for p in pseudonyms[:-1] for t in tokens(p)}
        reused += sorted(new_tokens & seen_tokens)
    assert len(set(pseudonyms)) == len(pseudonyms)
    assert reused == []
    ids = [vault.pseudonym(f"{i:026d}", "id") for i in range(300)]
    assert len(set(ids)) == 300


def _corrupt(path):
    path.write_text("{ not json", encoding="utf-8")


def _swap_key(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    data["key"] = "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE="
    path.write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.parametrize("damage", [_corrupt, _swap_key], ids=["corrupt", "wrong-key"])
def test_corrupt_or_wrong_key_vault_is_refused(store, damage):
    vault = Vault.open(store)
    vault.pseudonym("Claudio Costa", "person")
    vault.save()
    damage(store.root / ".curator" / "vault.json")
    with pytest.raises(CuratorError, match="vault"):
        Vault.load(store)
    with pytest.raises(CuratorError, match="vault"):
        Vault.open(store)


def test_key_from_environment_must_match(store, monkeypatch):
    Vault.open(store).save()
    monkeypatch.setenv("CURATOR_VAULT_KEY", "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE=")
    with pytest.raises(CuratorError, match="different key"):
        Vault.load(store)


def test_a_name_used_alone_follows_the_full_name(vault):
    full = vault.pseudonym("Claudio Costa", "person")
    assert vault.pseudonym("Costa", "person") == full.split()[-1]
    assert vault.pseudonym("Claudio", "person") == full.split()[0]


@given(
    st.text(
        alphabet=st.characters(codec="ascii", categories=("L", "N", "P")), min_size=1, max_size=40
    )
)
@settings(max_examples=200, deadline=None)
def test_ids_keep_length_and_character_classes(original):
    vault = Vault(b"property test key, 32 bytes....!")
    new = vault.pseudonym(original, "id")
    assert len(new) == len(original)
    for hexdigits in ("0123456789abcdef-", "0123456789ABCDEF-"):
        if set(original) <= set(hexdigits) and set(original) - set("0123456789-"):
            assert set(new) <= set(hexdigits)  # a hex id stays hex
            return
    for a, b in zip(original, new, strict=True):
        if not a.isalnum():
            assert a == b
        elif a.isdigit() or a.islower():
            assert b.isdigit() or b.islower()
        else:
            assert b.isupper() or b.isdigit()
    assert vault.pseudonym(original, "id") == new


# A pinned key: two vaults loaded before either saved draw independently, and with some keys
# both give "Maria" to a different first name; that case must refuse (test below), not merge.
PINNED_KEY = "cGlubmVkIGtleSBmb3IgdGhlIG1lcmdlIHRlc3QhIQ=="


def test_save_keeps_entries_another_process_saved(store, monkeypatch):
    monkeypatch.setenv("CURATOR_VAULT_KEY", PINNED_KEY)
    Vault.open(store).save()
    one = Vault.open(store)
    two = Vault.load(store)
    a = one.pseudonym("Claudio Costa", "person")
    one.save()
    b = two.pseudonym("Harrison Ford", "person")
    two.save()
    merged = Vault.load(store)
    assert merged.lookup("Claudio Costa", "person") == a
    assert merged.lookup("Harrison Ford", "person") == b


def test_save_refuses_when_another_process_gave_the_same_pseudonym_to_someone_else(
    store, monkeypatch
):
    # pinned: with some keys the pseudonym taken holds "Harrison" or "Ford", which `two` may
    # never hand to Harrison Ford, so assign would rightly pick another
    monkeypatch.setenv("CURATOR_VAULT_KEY", PINNED_KEY)
    Vault.open(store).save()
    one = Vault.open(store)
    two = Vault.load(store)
    taken = one.pseudonym("Claudio Costa", "person")
    one.save()
    assert two.assign("Harrison Ford", "person", taken) == taken  # free as far as `two` knows
    with pytest.raises(CuratorError, match="changed under this command"):
        two.save()
    assert Vault.load(store).lookup("Harrison Ford", "person") is None  # nothing was saved


def test_an_initial_is_no_name_token_and_a_listed_surname_keeps_a_surname_pseudonym(store):
    assert tokens("K DRUMMOND") == ["drummond"] and tokens("J.R. Pemberton") == ["pemberton"]
    assert tokens("王") == ["王"]  # a one-character name of an uncased script is a name
    vault = Vault.open(store)
    drummond = vault.pseudonym("DRUMMOND", "person")  # no en_US Faker surname, but the census's
    assert [e.kind for e in vault.entries() if e.original == "DRUMMOND" and e.kind != "person"] == [
        "last_name"
    ]
    vault.pseudonym("K DRUMMOND", "person")
    assert (
        drummond.isupper()
        and vault.is_original_token("DRUMMOND")
        and not vault.is_original_token("K")
    )


@settings(max_examples=200, deadline=None)
@given(
    st.text(
        alphabet="0123456789 ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnoprstuvwxyzéÉßñ.,-",
        max_size=12,
    )
)
def test_the_start_of_an_address_pseudonym_is_found_for_one_word_as_for_any_text(prefix):
    """A one-word start is looked up in a set, any other text in the sorted list: same answers."""
    vault = Vault(b"address openings test key......")
    addresses = [
        vault.pseudonym(a, "address")
        for a in ("12 Elm Street", "Calle Mayor 5", "9 rue de la Paix")
    ]
    wholes = [normal(a) for a in vault._address_pseudonyms]
    for text in (prefix, *(a[:k] for a in addresses for k in range(1, len(a) + 1))):
        assert vault.starts_an_address_pseudonym(text) == any(
            w.startswith(normal(text)) for w in wholes
        ), text
        if text[:1].isalnum() and vault.starts_an_address_pseudonym(
            text
        ):  # a word, as the judge asks
            assert vault.may_start_an_address_pseudonym(text[0]), (
                text
            )  # the quick test never says no wrongly
    assert not vault.may_start_an_address_pseudonym(
        "Q"
    )  # and does say no: no pseudonym here starts with q
