"""What people type into a store (label values, rubrics, reasons, reference answers, evidence
post ids, a Label Studio reviewer's text) goes through the same vault as the content.

A reviewer who types "Ingrid Solberg" into a rubric stores the pseudonym the fixture's
content uses for her, so the labels read like the content and nothing personal lands in
labels.jsonl. A store with no vault (or one that holds only reviewer handles) has anonymised
nothing: there is no mapping to follow, and what is typed is stored as typed. A label's
author is always stored as a reviewer handle.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from curator.anonymise.keep import Keep
from curator.anonymise.kinds import FIELD_KINDS
from curator.anonymise.safe import is_safe

if TYPE_CHECKING:
    from curator.anonymise.vault import Vault
    from curator.model import Fixture, StoreConfig
    from curator.store import Store


class UserInput:
    """The store's vault and kept terms, applied to typed text; `save()` keeps new pseudonyms."""

    def __init__(self, vault: Vault | None, keep: Keep) -> None:
        self.vault = vault
        self.keep = keep
        self._size = len(vault) if vault is not None else 0
        # a vault of reviewer handles alone anonymised no content: typed text stays as typed
        self.anonymised = vault is not None and any(e.kind != "reviewer" for e in vault.entries())

    @classmethod
    def of(cls, store: Store, fixture: Fixture | None = None) -> UserInput:
        """For typing into `fixture` (its kept terms count); call under the store lock."""
        from curator.anonymise.vault import Vault

        # opened even when the store has none yet (made, unsaved, for a first author): every
        # fixture's copy below then shares one vault
        typed = cls(Vault.open(store), Keep.of(store.config.anonymise))
        return typed if fixture is None else typed.for_fixture(fixture)

    def for_fixture(self, fixture: Fixture) -> UserInput:
        """The same vault, with what `fixture`'s provenance records as kept."""
        typed = UserInput(
            self.vault, self.keep.merged(fixture.provenance.kept, fixture.provenance.kept_hosts)
        )
        typed._size = self._size
        typed.anonymised = self.anonymised
        return typed

    def text(self, text: str) -> str:
        """Free text with the vault's mapping and pattern PII rewritten."""
        if not self.anonymised or self.vault is None or not text.strip():
            return text
        from curator.anonymise.free_text import anonymise_text  # the detector: only when needed

        return anonymise_text(text, self.vault, keep=self.keep)

    def value(self, value: str, kind: str | None) -> str:
        """A value; one of a field that names a person, organisation or address becomes its
        pseudonym even where no detector sees a name ("Waterman" alone). A pseudonym typed
        as the reviewer read it stays."""
        if not self.anonymised or self.vault is None or not value.strip():
            return value
        if kind is not None and not self.keep.kept_spans(value):
            # the vault first: a value it already knows needs no detector (nor its import)
            known = self.vault.lookup(value, kind)
            if known is not None:
                return known
            if is_safe(self.vault, kind, value):
                return value
        from curator.anonymise.free_text import anonymise_value

        return anonymise_value(value, self.vault, kind, keep=self.keep)

    def field_value(self, config: StoreConfig, doc_type: str | None, field: str, value: str) -> str:
        """A `FIELD=VALUE` a reviewer typed, by the field's type in curator.toml."""
        spec = config.doc_types.get(doc_type or "")
        field_spec = spec.fields.get(field) if spec is not None else None
        return self.value(
            value, FIELD_KINDS.get(field_spec.type) if field_spec is not None else None
        )

    def post_id(self, post_id: str, posts: Collection[str]) -> str:
        """A post id as the fixture (whose posts are `posts`) stores it: an id from the source
        export (a reviewer reads it there, or in Mattermost's own permalinks) becomes the
        pseudonymous id the vault gave it at import; a stored id, or one that is no post of
        the fixture either way, stays as typed (a long id's pseudonym is derived from the key,
        so "the vault never saw it" is no longer something the vault can say)."""
        typed = post_id.strip()
        if self.vault is None or not typed or typed in posts:
            return post_id
        mapped = self.vault.lookup(typed, "id")
        return mapped if mapped is not None and mapped in posts else post_id

    def author(self, author: str) -> str:
        """A label author (a login, $CURATOR_AUTHOR, a Label Studio login e-mail) as the store's
        pseudonymous reviewer handle: one person, one handle; a handle stays as it is. A login
        names someone even in a store that anonymised nothing yet: its vault is made for it."""
        from curator.anonymise.pseudonyms import REVIEWER_HANDLE

        if self.vault is None or not author.strip() or REVIEWER_HANDLE.fullmatch(author):
            return author
        return self.vault.pseudonym(author.strip(), "reviewer")

    def save(self) -> None:
        """Write the vault when typing gave a new original its pseudonym."""
        if self.vault is not None and len(self.vault) != self._size:
            self.vault.save()
            self._size = len(self.vault)
