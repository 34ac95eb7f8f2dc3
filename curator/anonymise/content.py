"""anonymise(): content and its label revisions rewritten with one mapping, plus their audit.

The caller owns persistence: the vault gains entries in memory, and `vault.save()` must run
before the anonymised fixture is committed (a vault with extra entries is harmless; a
fixture whose pseudonyms the vault forgot is not).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from curator.anonymise.audit import Leak, find_leaks
from curator.anonymise.documents import field_kind, reserved_document_terms
from curator.anonymise.finders.detector import Detector, detector_for
from curator.anonymise.json_strings import texts_of
from curator.anonymise.keep import NOTHING_KEPT, Keep, Used
from curator.anonymise.rewrite import Rewriter, settle
from curator.anonymise.threads import ThreadRewriter
from curator.anonymise.vault import Vault
from curator.model import (
    Content,
    ConversationContent,
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
    kept: Used = field(default_factory=Used)  # the kept terms and hosts that stood in it


def anonymise(
    content: Content,
    vault: Vault,
    *,
    revisions: Sequence[LabelRevision] = (),
    doc_spec: DocTypeSpec | None = None,
    detector: Detector | None = None,
    keep: Keep = NOTHING_KEPT,
) -> Anonymised:
    """Rewrite content and label revisions with the vault's mapping; audit the result.

    Inputs are not mutated. Evidence spans are carried through the same offset maps as the
    text they point into, so every label still points at its (pseudonymised) value. The
    rewrite is repeated until it teaches the vault no new original (`rewrite.settle`), so a
    name first found on the last page is rewritten on the first one too. `keep` says what
    the user decided is not personal. `detector` defaults to `detector_for()`.
    """
    revisions = list(revisions)
    detector = detector if detector is not None else detector_for()
    rubric_texts = [r.text for rev in revisions for r in rev.all_rubrics()]
    if isinstance(content, ThreadContent):
        export = content.model_dump(mode="json")["export"]
        threads = ThreadRewriter(export, vault, detector, rubric_texts, keep=keep)
        messages = {pid: post.get("message", "") for pid, post in export["posts"].items()}

        def rewrite_thread() -> tuple[Rewriter, Content, list[LabelRevision]]:
            rewriter = threads.new_rewriter()
            new_content = threads.content(content)

            def remap(span: Span) -> Span | None:
                if span.post is None or span.post not in messages:
                    return None
                _, offsets = rewriter.rewrite(messages[span.post])
                return _moved(span, offsets, post=threads.id(span.post))

            return (
                rewriter,
                new_content,
                [_revision(r, rewriter, vault, doc_spec, remap, threads.id) for r in revisions],
            )

        rewriter, new_content, new_revisions = settle(vault, rewrite_thread)
    elif isinstance(content, ConversationContent):
        conversation = content.model_dump(mode="json")
        talk = ThreadRewriter(conversation, vault, detector, rubric_texts, keep=keep)
        said = dict(content.texts())

        def rewrite_conversation() -> tuple[Rewriter, Content, list[LabelRevision]]:
            rewriter = talk.new_rewriter()

            def remap(span: Span) -> Span | None:
                if span.where not in said:
                    return None
                _, offsets = rewriter.rewrite(said[span.where])
                return _moved(span, offsets, message=span.message)

            return (
                rewriter,
                talk.conversation(),
                [_revision(r, rewriter, vault, doc_spec, remap, str) for r in revisions],
            )

        rewriter, new_content, new_revisions = settle(vault, rewrite_conversation)
    else:
        texts = [page.text for page in content.pages]
        terms = reserved_document_terms(revisions, vault, doc_spec, detector, texts)
        rewriter, new_content, new_revisions = settle(
            vault,
            lambda: _rewrite_document(
                content,
                revisions,
                Rewriter(vault, terms, detector, keep=keep, raw_input=True),
                vault,
                doc_spec,
            ),
        )
    leaks = find_leaks(
        _content_strings(new_content, new_revisions, vault),
        vault,
        detector=detector,
        keep=keep,
        # a thread's or conversation's content, as the rewriter read it
        ids_in=None if isinstance(content, DocumentContent) else _in_content,
    )
    return Anonymised(new_content, new_revisions, leaks, rewriter.personal.used)


def _rewrite_document(
    content: DocumentContent,
    revisions: list[LabelRevision],
    rewriter: Rewriter,
    vault: Vault,
    doc_spec: DocTypeSpec | None,
) -> tuple[Rewriter, Content, list[LabelRevision]]:
    pages: dict[int, OffsetMap] = {}
    new_pages = []
    rewriter.prefetch([page.text for page in content.pages])
    for page in content.pages:
        text, offsets = rewriter.rewrite(page.text)
        pages[page.number] = offsets
        new_pages.append(Page.model_validate({**page.model_dump(), "text": text}))

    def remap(span: Span) -> Span | None:
        offsets = pages.get(span.page or 0)
        return None if offsets is None else _moved(span, offsets, page=span.page)

    new_revisions = [
        _revision(r, rewriter, vault, doc_spec, remap, lambda post: post) for r in revisions
    ]
    return rewriter, DocumentContent(pages=new_pages), new_revisions


def _moved(span: Span, offsets: OffsetMap, **where: object) -> Span | None:
    if span.end > offsets.old_length:
        return None
    moved = offsets.span(span.start, span.end)
    if moved is None:
        return None
    return Span.model_validate({**where, "start": moved[0], "end": moved[1]})


def _revision(
    revision: LabelRevision,
    rewriter: Rewriter,
    vault: Vault,
    doc_spec: DocTypeSpec | None,
    remap,  # noqa: ANN001 - closures from anonymise()
    post_id,  # noqa: ANN001
) -> LabelRevision:
    fields = {}
    for name, label in revision.fields.items():
        kind = field_kind(name, label.type, doc_spec)

        def value_of(value: str, kind: str | None = kind) -> str:
            # through the text rewriter first, so the value reads exactly as its evidence does
            rewritten = rewriter.text(value)
            if (
                kind is None
                or not value.strip()
                or rewritten != value
                or rewriter.personal.keep.kept_spans(value)
            ):
                return rewritten
            return vault.pseudonym(value, kind)

        fields[name] = FieldLabel(
            type=label.type,
            value=None if label.value is None else value_of(label.value),
            expected_absent=label.expected_absent,
            evidence=None if label.evidence is None else remap(label.evidence),
            evidence_text=None
            if label.evidence_text is None
            else rewriter.text(label.evidence_text),
            variants=[value_of(v) for v in label.variants],
            authority=None if label.authority is None else rewriter.text(label.authority),
            no_evidence=None if label.no_evidence is None else rewriter.text(label.no_evidence),
            unanswerable=None if label.unanswerable is None else rewriter.text(label.unanswerable),
        )

    def rubric(r: Rubric) -> Rubric:
        return Rubric(
            text=rewriter.text(r.text), evidence_posts=[post_id(p) for p in r.evidence_posts]
        )

    return revision.with_truth_texts(rubric, rewriter.text).model_copy(
        update={
            "author": rewriter.text(revision.author),
            "reason": None if revision.reason is None else rewriter.text(revision.reason),
            "fields": fields,
        }
    )


def _in_content(location: str) -> bool:
    return location.startswith("content.json")


def _content_strings(
    content: Content, revisions: list[LabelRevision], vault: Vault
) -> list[tuple[str, str]]:
    ours = vault.is_pseudonym
    texts = list(texts_of(content.model_dump(mode="json"), "content.json", ours=ours))
    for revision in revisions:
        texts.extend(
            texts_of(revision.model_dump(mode="json"), f"labels.jsonl#rev{revision.rev}", ours=ours)
        )
    return texts
