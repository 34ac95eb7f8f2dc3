"""Documents: labelled person/organisation/address values everywhere they occur, plus free text.

A labelled value is the strongest evidence: "Claudio Costa" as the tenant is replaced on every
page (and "Costa" alone, and "Mr. Costa"), whatever the gazetteer would have thought of it.
The rest of the text goes through pattern PII and the name gazetteer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from curator.anonymise.finders.detector import Detector
from curator.anonymise.kinds import FIELD_KINDS
from curator.anonymise.pseudonyms import folded_names
from curator.anonymise.rewrite import reserve_hits
from curator.anonymise.terms import TermIndex
from curator.anonymise.vault import Vault
from curator.model import DocTypeSpec, FieldType, LabelRevision

PSEUDONYMISED_TYPES = {FieldType(field_type): kind for field_type, kind in FIELD_KINDS.items()}


def field_kind(name: str, field_type: FieldType, doc_spec: DocTypeSpec | None) -> str | None:
    """The vault kind of a field's values, or None when the value is not itself PII."""
    if doc_spec is not None and name in doc_spec.fields:
        field_type = doc_spec.fields[name].type
    return PSEUDONYMISED_TYPES.get(field_type)


def document_terms(
    revisions: Iterable[LabelRevision], vault: Vault, doc_spec: DocTypeSpec | None
) -> TermIndex:
    terms = TermIndex()
    revisions = list(revisions)
    for revision in revisions:
        for name, label in revision.fields.items():
            kind = field_kind(name, label.type, doc_spec)
            if kind is None:
                continue
            for value in [label.value, *label.variants]:
                if value and value.strip():
                    vault.reserve(value.strip(), kind)
    for revision in revisions:
        for name, label in revision.fields.items():
            kind = field_kind(name, label.type, doc_spec)
            if kind is None:
                continue
            for value in [label.value, *label.variants]:
                if not value or not value.strip():
                    continue
                register(value.strip(), kind, vault, terms)
    return terms


def register(value: str, kind: str, vault: Vault, terms: TermIndex) -> None:
    if kind == "person":
        words = [w for w in value.split() if len(w.strip(".")) > 1]
        if len(words) == 1:
            # a name labelled alone: a first name if Faker knows it as one, else a surname
            female, male, _ = folded_names(vault.locale)
            alone = "first_name" if words[0].casefold() in female | male else "last_name"
            vault.pseudonym(words[0], alone)
        if len(words) >= 2:
            for word in words[:-1]:
                vault.pseudonym(word, "first_name")
                terms.add(word, "first_name")
            vault.pseudonym(words[-1], "last_name")
            terms.add(words[-1], "last_name")
    vault.pseudonym(value, kind)
    terms.add(value, kind)


def reserved_document_terms(
    revisions: Iterable[LabelRevision],
    vault: Vault,
    doc_spec: DocTypeSpec | None,
    detector: Detector,
    texts: Sequence[str] = (),
) -> TermIndex:
    """The labelled values as terms, after every name in `texts` and the rubrics is reserved."""
    revisions = list(revisions)
    reserved = [*texts, *(r.text for revision in revisions for r in revision.all_rubrics())]
    reserve_hits(vault, detector, reserved)
    return document_terms(revisions, vault, doc_spec)
