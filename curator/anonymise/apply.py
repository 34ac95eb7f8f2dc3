"""anonymise(): content and its label revisions rewritten with one mapping, plus their audit.

The caller owns persistence: the vault gains entries in memory, and `vault.save()` must run
before the anonymised fixture is committed (a vault with extra entries is harmless; a
fixture whose pseudonyms the vault forgot is not).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from curator.anonymise.audit import Leak, find_leaks
from curator.anonymise.detect import Detector, detector_for
from curator.anonymise.documents import document_rewriter, field_kind
from curator.anonymise.rewrite import Rewriter, vault_terms
from curator.anonymise.strings import strings_of
from curator.anonymise.threads import ThreadRewriter
from curator.anonymise.vault import Vault
from curator.model import (
    Content,
    DocTypeSpec,
    DocumentContent,
    FieldLabel,
    LabelRevision,
    Page,
    Rubric,
    Span,
    ThreadContent,
)
from curator.spans import OffsetMap


@dataclass(frozen=True)
class Anonymised:
    content: Content
    revisions: list[LabelRevision] = field(default_factory=list)
    leaks: list[Leak] = field(default_factory=list)


def anonymise(
    content: Content,
    vault: Vault,
    *,
    revisions: Sequence[LabelRevision] = (),
    doc_spec: DocTypeSpec | None = None,
    detector: Detector | None = None,
) -> Anonymised:
    """Rewrite content and label revisions with the vault's mapping; audit the result.

    Inputs are not mutated. Evidence spans are carried through the same offset maps as the
    text they point into, so every label still points at its (pseudonymised) value.
    `detector` defaults to `detector_for()`.
    """
    revisions = list(revisions)
    detector = detector if detector is not None else detector_for()
    # A thread is rewritten as its whole export (user records, ids, attachments, not only the
    # messages); a document page by page, with the labels naming the values to replace.
    if isinstance(content, ThreadContent):
        export = content.model_dump(mode="json")["export"]
        threads = ThreadRewriter(export, vault, detector, [r.text for rev in revisions for r in rev.rubrics])
        new_content: Content = threads.content(content)
        rewriter = threads.rewriter
        messages = {pid: post.get("message", "") for pid, post in export["posts"].items()}

        def remap(span: Span) -> Span | None:
            if span.post is None or span.post not in messages:
                return None
            _, offsets = rewriter.rewrite(messages[span.post])
            return _moved(span, offsets, post=threads.id(span.post))

        def post_id(value: str) -> str:
            return threads.id(value)
    else:
        rewriter = document_rewriter(revisions, vault, doc_spec, detector, [page.text for page in content.pages])
        pages: dict[int, OffsetMap] = {}
        new_pages = []
        rewriter.prefetch([page.text for page in content.pages])
        for page in content.pages:
            text, offsets = rewriter.rewrite(page.text)
            pages[page.number] = offsets
            new_pages.append(Page.model_validate({**page.model_dump(), "text": text}))
        new_content = DocumentContent(pages=new_pages)

        def remap(span: Span) -> Span | None:
            offsets = pages.get(span.page or 0)
            return None if offsets is None else _moved(span, offsets, page=span.page)

        def post_id(value: str) -> str:
            return value

    new_revisions = [_revision(r, rewriter, vault, doc_spec, remap, post_id) for r in revisions]
    leaks = find_leaks(_content_strings(new_content, new_revisions), vault, detector=detector)
    return Anonymised(new_content, new_revisions, leaks)


def anonymise_text(text: str, vault: Vault, detector: Detector | None = None) -> str:
    """Free text (a failure note, a model output, a rubric) with the vault's mapping and pattern PII."""
    rewriter = Rewriter(vault, vault_terms(vault), detector if detector is not None else detector_for())
    rewriter.reserve([text])
    return rewriter.text(text)


def _moved(span: Span, offsets: OffsetMap, **where: object) -> Span | None:
    if span.end > offsets.old_length:
        return None
    moved = offsets.span(span.start, span.end)
    if moved is None:
        return None
    return Span.model_validate({"page": None, "post": None, **where, "start": moved[0], "end": moved[1]})


def _revision(revision: LabelRevision, rewriter: Rewriter, vault: Vault, doc_spec: DocTypeSpec | None,
              remap, post_id) -> LabelRevision:  # noqa: ANN001 - closures from anonymise()
    fields = {}
    for name, label in revision.fields.items():
        kind = field_kind(name, label.type, doc_spec)

        def value_of(value: str, kind: str | None = kind) -> str:
            if kind is not None and value.strip():
                # through the text rewriter first, so the value reads exactly as its evidence does
                rewritten = rewriter.text(value)
                return rewritten if rewritten != value else vault.pseudonym(value, kind)
            return rewriter.text(value)

        fields[name] = FieldLabel(
            type=label.type,
            value=None if label.value is None else value_of(label.value),
            expected_absent=label.expected_absent,
            evidence=None if label.evidence is None else remap(label.evidence),
            evidence_text=None if label.evidence_text is None else rewriter.text(label.evidence_text),
            variants=[value_of(v) for v in label.variants],
            authority=None if label.authority is None else rewriter.text(label.authority),
            no_evidence=None if label.no_evidence is None else rewriter.text(label.no_evidence),
            unanswerable=None if label.unanswerable is None else rewriter.text(label.unanswerable),
        )
    rubrics = [
        Rubric(text=rewriter.text(r.text), evidence_posts=[post_id(p) for p in r.evidence_posts])
        for r in revision.rubrics
    ]
    return revision.model_copy(update={
        "author": rewriter.text(revision.author),
        "reason": None if revision.reason is None else rewriter.text(revision.reason),
        "fields": fields,
        "rubrics": rubrics,
    })


def _content_strings(content: Content, revisions: list[LabelRevision]) -> list[tuple[str, str]]:
    texts = list(strings_of(content.model_dump(mode="json"), "content.json"))
    for revision in revisions:
        texts.extend(strings_of(revision.model_dump(mode="json"), f"labels.jsonl#rev{revision.rev}"))
    return texts
