"""The one door to the anonymiser: nothing an import writes has skipped it.

No flag turns it off. When curator.anonymise is missing the import fails rather than
write raw text.
"""

from __future__ import annotations

from typing import Any

from curator.errors import CuratorError
from curator.model import Content, DocTypeSpec, LabelRevision


def open_vault(store: Any) -> Any:
    try:
        from curator.anonymise import Vault
    except ImportError:
        raise CuratorError(
            "the anonymiser (curator.anonymise) is not available; import never writes raw data"
        ) from None
    return Vault.open(store)


def anonymise_one(
    name: str,
    content: Content,
    revisions: list[LabelRevision],
    vault: Any,
    doc_spec: DocTypeSpec | None,
) -> tuple[Content, list[LabelRevision]]:
    """Anonymised content and revisions (evidence spans moved with the text); leaks refuse."""
    from curator.anonymise import anonymise

    result = anonymise(content, vault, revisions=revisions, doc_spec=doc_spec)
    if result.leaks:
        first = result.leaks[0]  # where and what kind, never the personal text itself
        raise CuratorError(
            f"{name}: anonymisation left {len(result.leaks)} piece(s) of personal data "
            f"(first: {first.kind} at {first.location}); refusing to import it"
        )
    _check_same_shape(name, content, result.content)
    return result.content, list(result.revisions)


def anonymise_name(name: str, vault: Any) -> str:
    """A source's file name with the same mapping as its content ("jane-doe-lease.pdf")."""
    from curator.anonymise import anonymise_text

    stem, dot, suffix = name.rpartition(".")
    if not dot:
        return anonymise_text(name, vault)
    # Word separators in file names become spaces for detection, then come back.
    spaced = stem.replace("-", " ").replace("_", " ")
    rewritten = anonymise_text(spaced, vault)
    if rewritten == spaced:
        return name
    return f"{rewritten.replace(' ', '-')}.{suffix}"


def _check_same_shape(name: str, before: Content,
                      after: Content) -> None:
    """Anonymising rewrites values, never drops posts or pages: refuse a fixture that lost some."""
    if before.kind != after.kind:
        raise CuratorError(f"{name}: the anonymiser changed the kind of content; refusing to import it")
    counts = (len(before.texts()), len(after.texts()))
    if counts[0] != counts[1]:
        raise CuratorError(
            f"{name}: anonymisation turned {counts[0]} {before.part}s into {counts[1]} (colliding pseudonyms); "
            "refusing to import it"
        )
