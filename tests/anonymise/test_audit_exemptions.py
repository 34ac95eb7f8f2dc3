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
    assert [leak.text for leak in find_leaks([("t", f"{last} signed it.")], vault)] == [last]


def test_a_pseudonym_garbled_by_ocr_noise_is_not_a_leak_but_a_real_name_is():
    vault = Vault(b"k" * 32)
    pseudonym = vault.pseudonym("Dana Whitfield", "person")
    first, last = pseudonym.split()[0], pseudonym.split()[-1]
    garbled = f"{first[:2]}qx{first[2:]} {last}"
    assert find_leaks([("t", f"Tenant: {garbled}\nSigned by Mr. {garbled}")], vault) == []
    leaks = find_leaks([("t", f"Signed by Mr. Karen {last} and Mr. {garbled}")], vault)
    assert any("Karen" in leak.text for leak in leaks)


def test_values_curator_made_up_are_exempt_unless_they_are_originals():
    vault = Vault(b"k" * 32)
    vault.pseudonym("Donald Price", "person")  # "Donald" is now a word of an original
    text = "AMENDMENT: the Tenant is replaced by Donald Huynh."
    assert find_leaks([("t", text)], vault, synthetic=["Donald Huynh"]) == []
    assert find_leaks([("t", text)], vault)  # not recorded as made up: flagged
    assert find_leaks([("t", "Donald Price signed.")], vault, synthetic=["Donald Huynh"])
