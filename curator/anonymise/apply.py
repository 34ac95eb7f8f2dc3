"""anonymise(): content and its label revisions rewritten with one mapping, plus their audit."""

from __future__ import annotations

from dataclasses import dataclass, field

from curator.anonymise.audit import Leak
from curator.anonymise.vault import Vault
from curator.model import DocTypeSpec, DocumentContent, LabelRevision, ThreadContent


@dataclass(frozen=True)
class Anonymised:
    content: DocumentContent | ThreadContent
    revisions: list[LabelRevision] = field(default_factory=list)
    leaks: list[Leak] = field(default_factory=list)


def anonymise(
    content: DocumentContent | ThreadContent,
    vault: Vault,
    *,
    revisions: list[LabelRevision] | tuple[LabelRevision, ...] = (),
    doc_spec: DocTypeSpec | None = None,
) -> Anonymised:
    raise NotImplementedError


def anonymise_text(text: str, vault: Vault) -> str:
    raise NotImplementedError
