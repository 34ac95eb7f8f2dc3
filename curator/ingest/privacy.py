"""The one door to the anonymiser: nothing an import writes has skipped it.

No flag turns it off. When curator.anonymise is missing the import fails rather than
write raw text.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import Any

from curator.errors import CuratorError
from curator.model import Content, DocTypeSpec, LabelRevision, StoreConfig


def open_vault(store: Any) -> Any:
    try:
        from curator.anonymise import Vault
    except ImportError:
        raise CuratorError(
            "the anonymiser (curator.anonymise) is not available; import never writes raw data"
        ) from None
    return Vault.open(store)


def kept_terms(config: StoreConfig, terms: Sequence[str] = ()) -> Any:
    """What is kept as written: `[anonymise]` in curator.toml plus `terms` for this run."""
    from curator.anonymise.keep import Keep

    return Keep.of(config.anonymise, terms)


def anonymise_one(
    name: str,
    content: Content,
    revisions: list[LabelRevision],
    vault: Any,
    doc_spec: DocTypeSpec | None,
    keep: Any = None,
) -> Any:
    """Anonymised content and revisions (evidence spans moved with the text), and the kept
    terms and hosts that stood in them (`curator.anonymise.Anonymised`).

    Whatever the audit would report is rewritten first, so a refusal means a value truly
    could not be rewritten: the message names it and where it is (this is the user's own
    terminal; nothing is written) and how to keep it if it is not personal.
    """
    from curator.anonymise import anonymise
    from curator.anonymise.keep import NOTHING_KEPT

    try:
        result = anonymise(content, vault, revisions=revisions, doc_spec=doc_spec, keep=keep or NOTHING_KEPT)
    except CuratorError as error:
        raise CuratorError(f"{name}: {error}") from None
    if result.leaks:
        first = result.leaks[0]
        raise CuratorError(
            f"{name}: {len(result.leaks)} piece(s) of personal data could not be rewritten, first "
            f"{first.text!r} ({first.kind}) at {first.location} [{first.start}:{first.end}]; refusing to import it. "
            f"If {first.text!r} names no one, keep it: curator import --keep {shlex.quote(first.text)} ..., "
            "or add it to keep under [anonymise] in curator.toml"
        )
    _check_same_shape(name, content, result.content)
    return result


def anonymise_name(name: str, vault: Any, keep: Any = None) -> str:
    """A source's file name with the same mapping as its content ("jane-doe-lease.pdf"),
    rewritten only where it names someone."""
    from curator.anonymise.free_text import anonymise_file_name
    from curator.anonymise.keep import NOTHING_KEPT

    return anonymise_file_name(name, vault, keep=keep or NOTHING_KEPT)


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
