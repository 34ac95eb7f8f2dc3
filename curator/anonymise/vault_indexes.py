"""The vault's originals and pseudonyms as searchable terms, kept per vault and grown with it.

Every decision about a text searches it for the vault's originals (`vault_index`) and, where
a hit may stand inside one, for its pseudonyms (`pseudonym_index`); a vault only ever gains
entries, so each index is extended with the entries added since it was last read.
"""

from __future__ import annotations

from collections.abc import Callable
from weakref import WeakKeyDictionary

from curator.anonymise.kinds import UNSEARCHED_KINDS, WORDED_KINDS
from curator.anonymise.structure import DISTINCT_ID
from curator.anonymise.terms import TermIndex
from curator.anonymise.vault import Entry, Vault

_INDEXES: WeakKeyDictionary[Vault, dict[str, tuple[int, int, TermIndex]]] = WeakKeyDictionary()


def vault_index(vault: Vault | None) -> TermIndex:
    """Every original in the vault as searchable terms: the list every checker checks.

    Ids are searched only where they are distinctive (Mattermost's 26 characters, UUIDs): a
    chat message id "12" or "m7" is remapped where it is an id, not in every "12" of a text.
    """
    if vault is None:
        return TermIndex()
    known = vault
    return _grown(
        known,
        "originals",
        lambda entry: (
            (entry.original, entry.kind)
            if searched(entry) and not known.is_forgotten(entry.original)
            else None
        ),
    )


def pseudonym_index(vault: Vault | None) -> TermIndex:
    """The vault's pseudonyms made of words (people, usernames, organisations, addresses,
    job titles, channel and team names, e-mails, domains and URLs)."""
    return _grown(
        vault,
        "pseudonyms",
        lambda entry: (entry.pseudonym, "pseudonym") if entry.kind in WORDED_KINDS else None,
    )


def _grown(
    vault: Vault | None, name: str, term: Callable[[Entry], tuple[str, str] | None]
) -> TermIndex:
    """An index of the vault's entries, kept per vault and extended with the entries added
    since: a vault only ever gains entries, and every decision of every rewriting round reads it."""
    if vault is None:
        return TermIndex()
    indexes = _INDEXES.setdefault(vault, {})
    done, generation, index = indexes.get(name, (0, vault.generation, TermIndex()))
    if generation != vault.generation:  # a decision changed what it holds: built again
        done, index = 0, TermIndex()
    if done == vault.added:
        return index
    for entry in vault.added_since(done):
        found = term(entry)
        if found is not None:
            index.add(*found)
    indexes[name] = (vault.added, vault.generation, index)
    return index


def searched(entry: Entry) -> bool:
    return entry.kind not in UNSEARCHED_KINDS and (
        entry.kind != "id" or distinct_id(entry.original)
    )


def distinct_id(value: str) -> bool:
    return DISTINCT_ID.fullmatch(value) is not None
