"""A known name that is also a word is rewritten only where its context says it is that name,
and the audit judges with the same rule (curator/anonymise/context.py)."""

import pytest

from curator.anonymise import Vault, anonymise_text, find_leaks


@pytest.fixture
def vault(tmp_path):
    vault = Vault(b"context-test-key-0123456789abcdef")
    # what an earlier source taught the store: "[FR Doc." and "MAX Display" read as names
    for word in ("Doc", "Display", "Page"):
        vault.pseudonym(word, "first_name")
    vault.pseudonym("Okafor", "last_name")
    vault.pseudonym("Rose", "first_name")
    # stored, as an earlier import leaves it: what this command's own input teaches needs no
    # context
    path = tmp_path / "vault.json"
    vault.path = path
    vault.save()
    return Vault.read(path)


@pytest.mark.parametrize(
    "text",
    [
        "See the attached Doc for details.",
        "Open the Display settings.",
        '{"display_name": "x", "doc_type": "lease"}',
        "Report filed. Page 3 of 7",
        "the roses rose again in spring",
    ],
)
def test_a_word_that_is_also_a_known_name_stays_where_it_is_a_word(vault, text):
    assert anonymise_text(text, vault) == text
    assert find_leaks([("x", text)], vault) == []


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Display Okafor signed the lease.", "Display"),  # beside a known surname
        ("Signed: Mr. Page", "Page"),  # after a title
        ("Rose said the boiler is fixed.", "Rose"),  # a widespread name, capitalised
    ],
)
def test_the_same_word_is_rewritten_where_it_names_the_person(vault, text, name):
    rewritten = anonymise_text(text, vault)
    assert name not in rewritten
    assert [leak.text for leak in find_leaks([("x", text)], vault)] != []


def test_a_name_this_input_taught_needs_no_context():
    vault = Vault(b"context-test-key-0123456789abcdef")
    vault.pseudonym("Page", "first_name")
    assert "Page" not in anonymise_text("Report filed. Page 3 of 7", vault)


def test_a_rare_known_name_is_rewritten_everywhere_without_context():
    vault = Vault(b"context-test-key-0123456789abcdef")
    vault.pseudonym("Kowalczyk", "last_name")
    rewritten = anonymise_text("the kowalczyk file, KOWALCZYK-2024", vault)
    assert "kowalczyk" not in rewritten.lower()
