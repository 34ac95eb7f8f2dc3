"""`--truncate [F]` / `--pages N`: cut the input short, as a stalled upload or export would.

Documents are cut at fraction F of their characters, mid-sentence, or after N pages.
Expected-absent is decided only from located evidence: a field whose evidence span the
cut removed is looked for again in the kept text (the same value may be written twice),
and becomes expected-absent (a system must not invent it) only when it is not there.
Threads keep the first fraction of posts by create_at; a rubric whose evidence posts are
all cut is dropped, and rubrics that name no evidence posts are for a person to decide
(`to_review`), since nobody can tell mechanically whether they still hold. Each named task's
rubrics are cut by the same rule, so a cut that removes one task's evidence leaves the
other tasks whole.
Conversations keep their first fraction of turns (messages), never parting a tool call
from its results: the cut moves back to before the assistant message that made the call.
Their rubrics are for a person to decide, as a thread's that name no posts.
"""

from __future__ import annotations

import math
import random
from typing import Any

from curator.errors import CuratorError
from curator.labels import locate
from curator.model import (
    Content,
    ConversationContent,
    DocumentContent,
    FieldLabel,
    Rubric,
    ThreadContent,
    rubric_item,
)
from curator.mutate._textops import rewrite
from curator.mutate.registry import Option, Outcome, Subject, register
from curator.spans import Edit

DEFAULT_FRACTION = 0.6
_SENTENCE_END = ".!?:;\n"


@register(
    "truncate",
    category="truncated",
    owns="expected_absent of fields cut off; rubrics cut off",
    options=[
        Option(
            "--truncate",
            "fraction",
            float,
            "F",
            bare=DEFAULT_FRACTION,
            help=f"Cut documents at fraction F (default {DEFAULT_FRACTION}) mid-sentence; "
            "threads keep the first F of posts, conversations the first F of turns.",
        ),
        Option("--pages", "pages", int, "N", help="Cut documents after N pages."),
    ],
)
def truncate(subject: Subject, rng: random.Random, params: dict[str, Any]) -> Outcome:
    pages = params.get("pages")
    fraction = params.get("fraction", DEFAULT_FRACTION if pages is None else None)
    if pages is not None and fraction is not None:
        raise CuratorError("truncate takes a fraction or a page count, not both")
    if fraction is not None and not 0 < fraction < 1:
        raise CuratorError(f"truncate fraction must be between 0 and 1 (exclusive), got {fraction}")
    if pages is not None:
        if not isinstance(subject.content, DocumentContent):
            raise CuratorError(
                f"{subject.fixture.id} is a {subject.content.kind}: --pages applies to documents"
            )
        return _truncate_pages(subject, int(pages))
    if fraction is None:
        raise CuratorError("truncate takes a fraction or a page count")
    if isinstance(subject.content, ThreadContent):
        return _truncate_thread(subject, fraction)
    if isinstance(subject.content, ConversationContent):
        return _truncate_conversation(subject, fraction)
    return _truncate_document(subject, fraction)


def _absent(label: FieldLabel) -> FieldLabel:
    return FieldLabel(type=label.type, value=None, expected_absent=True)


def _truncate_document(subject: Subject, fraction: float) -> Outcome:
    content = subject.content
    assert isinstance(content, DocumentContent)
    total = sum(len(page.text) for page in content.pages)
    if total < 2:
        raise CuratorError(f"{subject.fixture.id} has no text to truncate")
    target = max(1, min(total - 1, round(total * fraction)))
    # Find the page holding the cut and its offset there.
    consumed, page_index = 0, 0
    while consumed + len(content.pages[page_index].text) < target:
        consumed += len(content.pages[page_index].text)
        page_index += 1
    page = content.pages[page_index]
    cut = _mid_sentence(page.text, target - consumed)
    kept_pages = content.pages[: page_index + 1]
    place = ("page", page.number)

    cut_off = [
        name
        for name, label in subject.labels.fields.items()
        if label.evidence is not None
        and label.evidence.page is not None
        and (
            label.evidence.page > page.number
            or (label.evidence.page == page.number and label.evidence.end > cut)
        )
    ]
    kept_fields = {
        name: label for name, label in subject.labels.fields.items() if name not in cut_off
    }
    trimmed = content.model_copy(update={"pages": kept_pages})
    new_content, fields, _, _ = rewrite(
        trimmed, kept_fields, {place: [Edit(cut, len(page.text), "")]}
    )
    fields, absent, relocated = _settle_cut(new_content, subject.labels.fields, fields, cut_off)
    assert isinstance(new_content, DocumentContent)
    kept = sum(len(p.text) for p in new_content.pages)
    return Outcome(
        content=new_content,
        fields=fields,
        rubrics=list(subject.labels.rubrics),
        measured={
            "kept_chars": kept,
            "total_chars": total,
            "kept_fraction": round(kept / total, 4),
            "cut_page": page.number,
            "expected_absent": absent,
            "relocated": relocated,
        },
    )


def _settle_cut(
    content: Content, before: dict[str, FieldLabel], kept: dict[str, FieldLabel], cut_off: list[str]
) -> tuple[dict[str, FieldLabel], list[str], list[str]]:
    """Fields in their original order: the kept ones, and each cut one either found again in
    the kept text (relocated) or expected-absent. Returns (fields, absent, relocated)."""
    fields: dict[str, FieldLabel] = {}
    absent, relocated = [], []
    for name, label in before.items():
        if name not in cut_off:
            fields[name] = kept[name]
            continue
        found = locate(content, label.value or "", label.type)
        if found is None:
            absent.append(name)
            fields[name] = _absent(label)
        else:
            relocated.append(name)
            fields[name] = label.model_copy(update={"evidence": found, "evidence_text": None})
    return fields, sorted(absent), sorted(relocated)


def _mid_sentence(text: str, offset: int) -> int:
    """Move a cut to the end of a word that does not end a sentence, so it reads mid-sentence."""
    offset = max(1, min(len(text), offset))
    position = offset
    while position < len(text):
        at_word_end = not text[position - 1].isspace() and text[position].isspace()
        if at_word_end and text[position - 1] not in _SENTENCE_END:
            return position
        position += 1
    return offset  # no such place ahead: cut where asked


def _truncate_pages(subject: Subject, keep: int) -> Outcome:
    content = subject.content
    assert isinstance(content, DocumentContent)
    pages = len(content.pages)
    if pages < 2:
        raise CuratorError(
            f"--pages {keep}: {subject.fixture.id} has 1 page, so no page can be cut "
            "(--pages needs a document of 2 pages or more; --truncate F cuts inside a page)"
        )
    if not 1 <= keep < pages:
        raise CuratorError(
            f"--pages {keep}: {subject.fixture.id} has {pages} pages; keep between 1 and "
            f"{pages - 1}"
        )
    cut_off = [
        name
        for name, label in subject.labels.fields.items()
        if label.evidence is not None
        and label.evidence.page is not None
        and label.evidence.page > keep
    ]
    new_content = content.model_copy(update={"pages": content.pages[:keep]})
    fields, absent, relocated = _settle_cut(
        new_content, subject.labels.fields, subject.labels.fields, cut_off
    )
    return Outcome(
        content=new_content,
        fields=fields,
        rubrics=list(subject.labels.rubrics),
        measured={
            "kept_pages": keep,
            "total_pages": pages,
            "expected_absent": absent,
            "relocated": relocated,
        },
    )


def _truncate_thread(subject: Subject, fraction: float) -> Outcome:
    content = subject.content
    assert isinstance(content, ThreadContent)
    ordered = content.export.ordered_posts()
    if len(ordered) < 2:
        raise CuratorError(
            f"cannot truncate {subject.fixture.id}: a 1-post thread has nothing to cut "
            "(--truncate needs a thread of 2 posts or more)"
        )
    keep = max(1, min(len(ordered) - 1, math.floor(len(ordered) * fraction)))
    kept_ids = {post.id for post in ordered[:keep]}
    posts = {}
    for post_id, post in content.export.posts.items():
        if post_id not in kept_ids:
            continue
        if "reply_count" in post.model_fields_set and not post.root_id:
            replies = sum(1 for p in ordered[:keep] if p.root_id == post_id)
            post = post.model_copy(update={"reply_count": replies})
        posts[post_id] = post
    changes: dict[str, object] = {"posts": posts}
    # Attachments of cut posts go with them (only touched when there are some, so the
    # export keeps exactly the members it had).
    infos = content.export.file_infos
    gone = {
        k
        for k, v in infos.items()
        if isinstance(v, dict) and v.get("post_id") and v["post_id"] not in kept_ids
    }
    if gone:
        changes["file_infos"] = {k: v for k, v in infos.items() if k not in gone}
        changes["files"] = {k: v for k, v in content.export.files.items() if k not in gone}
    export = content.export.model_copy(update=changes)
    new_content = content.model_copy(
        update={
            "export": export,
            "orphan_post_ids": [p for p in content.orphan_post_ids if p in kept_ids],
        }
    )

    cut_off = [
        name
        for name, label in subject.labels.fields.items()
        if label.evidence is not None and label.evidence.where[1] not in kept_ids
    ]
    fields, absent, relocated = _settle_cut(
        new_content, subject.labels.fields, subject.labels.fields, cut_off
    )

    rubrics, dropped = _cut_rubrics(subject.labels.rubrics, kept_ids)
    unanchored = [rubric_item(r.text) for r in rubrics if not r.evidence_posts]
    tasks, dropped_by_task = {}, {}
    for name, task in subject.labels.tasks.items():
        kept, cut = _cut_rubrics(task.rubrics, kept_ids)
        tasks[name] = task.model_copy(update={"rubrics": kept})
        if cut:
            dropped_by_task[name] = cut
        unanchored += [rubric_item(r.text, name) for r in kept if not r.evidence_posts]
    warnings = (
        [
            f"{len(unanchored)} rubric(s) name no evidence posts; check they still hold "
            "after the cut (name them with curator label set --rubric TEXT --evidence-post ID)"
        ]
        if unanchored
        else []
    )
    measured: dict[str, Any] = {
        "kept_posts": keep,
        "total_posts": len(ordered),
        "dropped_rubrics": dropped,
        "expected_absent": absent,
        "relocated": relocated,
    }
    if tasks:  # only for fixtures with named tasks: other variants keep their bytes
        measured["dropped_task_rubrics"] = dropped_by_task
    return Outcome(
        content=new_content,
        fields=fields,
        rubrics=rubrics,
        measured=measured,
        tasks=tasks or None,
        to_review=unanchored,
        warnings=warnings,
    )


def _truncate_conversation(subject: Subject, fraction: float) -> Outcome:
    content = subject.content
    assert isinstance(content, ConversationContent)
    messages = content.messages
    if len(messages) < 2:
        raise CuratorError(
            f"cannot truncate {subject.fixture.id}: a 1-message conversation has nothing to cut "
            "(--truncate needs a conversation of 2 messages or more)"
        )
    keep = max(1, min(len(messages) - 1, math.floor(len(messages) * fraction)))
    # a tool call and its results stand or fall together (a chat API refuses a call unanswered)
    while keep > 1 and (messages[keep].role == "tool" or messages[keep - 1].tool_calls):
        keep -= 1
    if messages[keep].role == "tool" or messages[keep - 1].tool_calls:
        raise CuratorError(
            f"cannot truncate {subject.fixture.id}: every cut would part a tool call from its "
            "results"
        )
    new_content = content.model_copy(update={"messages": messages[:keep]})
    cut_off = [
        name
        for name, label in subject.labels.fields.items()
        if label.evidence is not None
        and label.evidence.message is not None
        and label.evidence.message > keep
    ]
    fields, absent, relocated = _settle_cut(
        new_content, subject.labels.fields, subject.labels.fields, cut_off
    )
    rubrics = list(subject.labels.rubrics)
    return Outcome(
        content=new_content,
        fields=fields,
        rubrics=rubrics,
        measured={
            "kept_messages": keep,
            "total_messages": len(messages),
            "expected_absent": absent,
            "relocated": relocated,
        },
        to_review=[f"rubric: {rubric.text}" for rubric in rubrics],
        warnings=[
            f"{len(rubrics)} rubric(s) of a cut conversation; check they still hold after the cut"
        ]
        if rubrics
        else [],
    )


def _cut_rubrics(rubrics: list[Rubric], kept_ids: set[str]) -> tuple[list[Rubric], list[str]]:
    """The rubrics still answerable after the cut (their kept evidence posts), and the texts
    of those whose evidence posts were all cut. A rubric naming no posts stays, for a person."""
    kept, dropped = [], []
    for rubric in rubrics:
        if not rubric.evidence_posts:
            kept.append(rubric)
            continue
        remaining = [p for p in rubric.evidence_posts if p in kept_ids]
        if remaining:
            kept.append(rubric.model_copy(update={"evidence_posts": remaining}))
        else:
            dropped.append(rubric.text)
    return kept, dropped
