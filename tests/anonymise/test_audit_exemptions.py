"""The audit tells curator's own stand-ins (pseudonyms, garbled pseudonyms, made-up values)
from real people, and still finds the real people."""

from curator.anonymise import Vault, find_leaks


def vault_with_overlap():
    vault = Vault(b"k" * 32)
    pseudonym = vault.pseudonym("Dana Whitfield", "person")
    last = pseudonym.split()[-1]
    vault.pseudonym(f"Karen {last}", "person")  # a later original shares the pseudonym's last name
    return vault, pseudonym, last


def test_original_word_inside_a_whole_pseudonym_is_the_pseudonym():
    vault, pseudonym, last = vault_with_overlap()
    assert find_leaks([("t", f"Signed by {pseudonym} on Monday.")], vault) == []
    assert [leak.text for leak in find_leaks([("t", f"Signed by Karen {last}.")], vault)]


def test_a_pseudonym_garbled_by_ocr_noise_is_not_a_leak_but_a_real_name_is():
    vault = Vault(b"k" * 32)
    pseudonym = vault.pseudonym("Dana Whitfield", "person")
    first, last = pseudonym.split()[0], pseudonym.split()[-1]
    garbled = f"{first[:2]}qx{first[2:]} {last}"
    assert find_leaks([("t", f"Tenant: {garbled}\nSigned by Mr. {garbled}")], vault) == []
    leaks = find_leaks([("t", f"Signed by Mr. Karen {last} and Mr. {garbled}")], vault)
    assert any("Karen" in leak.text for leak in leaks)


def test_an_unknown_surname_beside_a_pseudonym_word_is_no_garbled_pseudonym():
    # "Benjamin" handed out as a pseudonym does not make a real "GRUENDER, BENJAMIN L" one
    vault = Vault(b"k" * 32)
    first = vault.pseudonym("Dana Whitfield", "person").split()[0]
    leaks = find_leaks(
        [("t", f"OKONKWOLE, {first.upper()} L FIELD REPRESENTATIVE 1,458.33")], vault
    )
    assert any("OKONKWOLE" in leak.text for leak in leaks)


def test_values_curator_made_up_are_exempt_unless_they_are_originals():
    vault = Vault(b"k" * 32)
    vault.pseudonym("Donald Price", "person")  # "Donald" is now a word of an original
    text = "AMENDMENT: the Tenant is replaced by Donald Huynh."
    assert find_leaks([("t", text)], vault, synthetic=["Donald Huynh"]) == []
    assert find_leaks([("t", text)], vault)  # not recorded as made up: flagged
    assert find_leaks([("t", "Donald Price signed.")], vault, synthetic=["Donald Huynh"])


def test_fixtures_anonymised_by_another_vault_are_judged_on_originals_and_patterns_only(store):
    """A clone of a store has its fixtures but not their vault: their pseudonyms are unknown
    here, so name guesses on them say nothing, while this vault's originals still count."""
    from curator.anonymise import audit_store
    from tests.factories import LEASE_TEXT, add_lease

    vault = Vault.open(store)
    vault.pseudonym("Oakridge Holdings LLC", "organisation")
    vault.save()
    foreign = add_lease(store, text=LEASE_TEXT + "Witness: Mr. Pat Quinn\n")
    handmade = add_lease(store, text=LEASE_TEXT.replace("Oakridge Holdings LLC", "the owner"))
    record = store.load(foreign)
    store.save_fixture(
        record.fixture.model_copy(
            update={
                "provenance": record.fixture.provenance.model_copy(
                    update={"vault_id": "0123456789abcdef"}
                )
            }
        )
    )
    leaks = audit_store(store)
    handmade_hits = {leak.text for leak in leaks if handmade in leak.location}
    foreign_hits = {leak.text for leak in leaks if foreign in leak.location}
    assert any("Dana Whitfield" in t for t in handmade_hits)  # never anonymised: names judged
    assert foreign_hits and all("Oakridge" in t for t in foreign_hits)  # the original, nothing else


def test_a_lone_name_word_that_is_also_an_earlier_pseudonym_word_is_not_a_leak():
    vault = Vault(b"k" * 32)
    pseudonym = vault.pseudonym("Dana Whitfield", "person")
    first = pseudonym.split()[0]
    vault.pseudonym(f"{first} Okonkwo-Reyes", "person")  # a real person imported later shares it
    assert find_leaks([("users.x.first_name", first)], vault) == []
    assert find_leaks([("t", f"Ask {first} Okonkwo-Reyes")], vault)  # the whole name still counts
