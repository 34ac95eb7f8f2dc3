"""A fixture-to-be made a fixture: suggested labels and rubrics given at import, anonymised
with the store's vault (refused when the anonymiser could not make it safe), titled from the
anonymised content, and staged in the import's transaction a fixture at a time, with the
line the report says of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from curator import clock
from curator.config import value_locale
from curator.errors import CuratorError
from curator.ingest.mattermost_bulk import BulkExport
from curator.ingest.privacy import anonymise_one
from curator.ingest.report import summary as fixture_summary
from curator.ingest.source import Parsed
from curator.ingest.sources import Items, Source
from curator.ingest.suggest import guess_doc_type, no_type_guessed, suggest_revision
from curator.ingest.threads import anonymised_warnings
from curator.labels import revise
from curator.model import (
    Content,
    ConversationContent,
    DocumentContent,
    Fixture,
    Kind,
    LabelRevision,
    Provenance,
    ThreadContent,
)
from curator.reading import recorded_locale
from curator.spill import Spill
from curator.store import Store, Transaction, fixture_id

if TYPE_CHECKING:
    from curator.anonymise import Keep, Vault


class Builder:
    """Anonymises each fixture-to-be of a source, stages it in the transaction and gives
    its summary: nothing of a fixture stays in memory once it is staged."""

    def __init__(
        self,
        store: Store,
        *,
        doc_type: str | None,
        category: str,
        rubrics: Mapping[str | None, Sequence[str]],
        author: str,
        keep: Keep,
    ) -> None:
        self.store = store
        self.doc_type = doc_type
        self.category = category
        self.rubrics = rubrics
        self.author = author
        self.keep = keep

    def source(self, txn: Transaction, raw: Source, items: Items, vault: Vault) -> Spill:
        """The summaries of `raw`'s fixtures, all staged; on a failure none is."""
        point = txn.savepoint()
        summaries = Spill()
        try:
            for item in items.threads() if isinstance(items, BulkExport) else items:
                fixture, content, revisions = build_fixture(
                    self.store,
                    raw,
                    item,
                    vault,
                    doc_type=self.doc_type,
                    category=self.category,
                    rubrics=self.rubrics,
                    author=self.author,
                    keep=self.keep,
                )
                txn.stage_fixture(fixture, content, revisions)
                # the user's own file name
                summaries.append(self._summary(raw.name, fixture, content, revisions))
        except CuratorError:
            txn.rollback_to(point)  # with keep_going the source is left out whole
            raise
        return summaries

    def _summary(
        self, source_name: str, fixture: Fixture, content: Content, revisions: list[LabelRevision]
    ) -> dict[str, Any]:
        summary = fixture_summary(source_name, fixture, content, revisions)
        if isinstance(content, DocumentContent) and fixture.doc_type is None:
            summary["warnings"] = [
                *summary["warnings"],
                f"{source_name}: " + no_type_guessed(content, self.store.config, fixture.id),
            ]
        return summary


def build_fixture(
    store: Store,
    raw: Source,
    item: Parsed,
    vault: Vault,
    *,
    doc_type: str | None,
    category: str,
    rubrics: Mapping[str | None, Sequence[str]],
    author: str,
    keep: Keep,
) -> tuple[Fixture, Content, list[LabelRevision]]:
    from curator.anonymise import anonymise_file_name

    config = store.config
    content = item.content
    revisions: list[LabelRevision] = []
    chosen = None
    spec = None
    if isinstance(
        content, DocumentContent
    ):  # doc types and their suggested fields are documents' alone
        chosen = doc_type or guess_doc_type(content, config)
        if chosen:
            spec = config.doc_types[chosen]
            locale = recorded_locale(value_locale(config, chosen))
            suggestion = suggest_revision(content, spec, locale)
            if suggestion:
                revisions.append(suggestion)
    elif isinstance(content, ConversationContent):
        chosen = doc_type  # its fields are the user's to label: none is suggested
    if rubrics:
        previous = revisions[-1] if revisions else None
        given = previous
        for task, texts in rubrics.items():
            given = revise(
                config,
                chosen,
                content,
                given,
                add_rubrics=texts,
                task=task,
                author=author,
                source="manual",
                reason="rubrics given at import",
            )
        assert given is not None
        # one revision holds every task's rubrics given at import
        revisions.append(given.model_copy(update={"rev": previous.rev + 1 if previous else 1}))
    anonymised = anonymise_one(raw.name, content, revisions, vault, spec, keep)
    source_name = anonymise_file_name(raw.name, vault, keep=keep)
    content, revisions = anonymised.content, list(anonymised.revisions)
    title = title_of(content, chosen)
    warnings = anonymised_warnings(content, item.warnings)
    fixture = Fixture(
        id=fixture_id(title, f"{raw.sha256}:{item.part}".encode()),
        kind=Kind(content.kind),
        doc_type=chosen,
        category=category,
        title=title,
        created_at=clock.now_iso(),
        # The base name only, and through the anonymiser: file names can name people too.
        provenance=Provenance(
            source_sha256=raw.sha256,
            source_name=source_name,
            # a thread's file keeps this name in a bundle: say whether it is the source's own
            source_name_anonymised=source_name != raw.name
            if isinstance(content, ThreadContent)
            else None,
            importer=item.importer,
            imported_at=clock.now_iso(),
            vault_id=vault.fingerprint,
            vault_entries=len(vault),
            kept=sorted(anonymised.kept.terms),
            kept_hosts=sorted(anonymised.kept.hosts),
        ),
        warnings=warnings,
    )
    return fixture, content, revisions


def title_of(content: Content, doc_type: str | None) -> str:
    """A readable title from the anonymised content (never from the raw source)."""
    # a document's first line of words; a conversation's first user message; a thread's
    # root post, else its channel
    if isinstance(content, ConversationContent):
        asked = [m.content for m in content.messages if m.role == "user" and m.content]
        lines = (asked[0] if asked else "").strip().splitlines()
        return (lines[0] if lines else "conversation")[:80]
    if isinstance(content, DocumentContent):
        for page in content.pages:
            for line in page.text.splitlines():
                if sum(ch.isalpha() for ch in line) >= 3:
                    return line.strip()[:80]
        return doc_type or "document"
    export = content.export
    # System posts ("joined the channel") are not conversation roots.
    roots = [
        p for p in export.ordered_posts() if not p.root_id and not p.type.startswith("system_")
    ]
    channel = str(export.channel.get("display_name") or export.channel.get("name") or "channel")
    if len(roots) == 1 and not content.orphan_post_ids:
        lines = roots[0].message.strip().splitlines()
        return (lines[0] if lines else f"{channel} thread")[:80]
    if not roots:
        return f"{channel} orphan replies"
    return f"{channel} channel"
