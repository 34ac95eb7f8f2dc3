"""What an import (and a promotion) refuses: content the anonymiser could not make safe.

No flag turns it off: whatever the audit would report is rewritten first, so a refusal means
a value truly could not be rewritten, and nothing raw is ever written.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

from curator.errors import CuratorError
from curator.model import Content, DocTypeSpec, LabelRevision

if TYPE_CHECKING:
    from curator.anonymise import Anonymised, Keep, Vault


def anonymise_one(
    name: str,
    content: Content,
    revisions: list[LabelRevision],
    vault: Vault,
    doc_spec: DocTypeSpec | None,
    keep: Keep,
) -> Anonymised:
    """Anonymised content and revisions (evidence spans moved with the text), and the kept
    terms and hosts that stood in them.

    A refusal names the value and where it is (this is the user's own terminal; nothing is
    written) and how to keep it if it is not personal.
    """
    from curator.anonymise import anonymise

    try:
        result = anonymise(content, vault, revisions=revisions, doc_spec=doc_spec, keep=keep)
    except CuratorError as error:
        raise CuratorError(f"{name}: {error}") from None
    if result.leaks:
        first = result.leaks[0]
        raise CuratorError(
            f"{name}: {len(result.leaks)} piece(s) of personal data could not be rewritten, first "
            f"{first.text!r} ({first.kind}) at {first.location} [{first.start}:{first.end}]; "
            "refusing to import it. "
            f"If {first.text!r} names no one, keep it: "
            f"curator import --keep {shlex.quote(first.text)} ..., "
            "or add it to keep under [anonymise] in curator.toml"
        )
    _check_same_shape(name, content, result.content)
    return result


def _check_same_shape(name: str, before: Content, after: Content) -> None:
    """Anonymising rewrites text, never drops posts or pages nor changes structure: refuse a
    fixture whose shape it changed."""
    if before.kind != after.kind:
        raise CuratorError(
            f"{name}: the anonymiser changed the kind of content; refusing to import it"
        )
    counts = (len(before.texts()), len(after.texts()))
    if counts[0] != counts[1]:
        raise CuratorError(
            f"{name}: anonymisation turned {counts[0]} {before.part}s into {counts[1]} "
            "(colliding pseudonyms); "
            "refusing to import it"
        )
    from curator.anonymise import skeleton

    if skeleton(before.model_dump(mode="json")) != skeleton(after.model_dump(mode="json")):
        # keys, roles, types and ids' shape are structure, never text (anonymise/structure.py)
        raise CuratorError(
            f"{name}: the anonymiser changed the structure of the content (a key, a type or "
            "an id's shape); refusing to import it"
        )
