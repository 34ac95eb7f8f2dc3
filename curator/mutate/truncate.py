"""`--truncate [F]` / `--pages N`: cut the input short, as a stalled upload or export would.

Documents are cut at fraction F of their characters, mid-sentence, or after N pages; a
field whose evidence lies past the cut becomes expected-absent (a system must not invent
it). Threads keep the first fraction of posts by create_at; a rubric whose evidence posts
are all cut is dropped, and rubrics that name no evidence posts make the variant
needs-review, since nobody can tell mechanically whether they still hold.
"""

from __future__ import annotations

import math
import random
from typing import Any

from curator.errors import CuratorError
from curator.labels import locate
from curator.model import Content, DocumentContent, FieldLabel, ThreadContent
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
        Option("--truncate", "fraction", float, "F", bare=DEFAULT_FRACTION,
               help=f"Cut documents at fraction F (default {DEFAULT_FRACTION}) mid-sentence; "
                    "threads keep the first F of posts."),
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
        if isinstance(subject.content, ThreadContent):
            raise CuratorError(f"{subject.fixture.id} is a thread: --pages applies to documents")
        return _truncate_pages(subject, int(pages))
    if fraction is None:
        raise CuratorError("truncate takes a fraction or a page count")
    if isinstance(subject.content, ThreadContent):
        return _truncate_thread(subject, fraction)
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

    fields: dict[str, FieldLabel] = {}
    cut_off: list[str] = []
    for name, label in subject.labels.fields.items():
        span = label.evidence
        past = span is not None and (span.page > page.number or (span.page == page.number and span.end > cut))  # type: ignore[operator]
        if past:
            cut_off.append(name)
            fields[name] = _absent(label)
        else:
            fields[name] = label
    trimmed = content.model_copy(update={"pages": kept_pages})
    new_content, fields, _, _ = rewrite(trimmed, fields, {place: [Edit(cut, len(page.text), "")]})
    fields, unanchored = _recheck_unanchored(new_content, fields)
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
            "expected_absent": sorted(cut_off + unanchored),
        },
    )


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
    if not 1 <= keep < len(content.pages):
        raise CuratorError(
            f"--pages {keep}: {subject.fixture.id} has {len(content.pages)} page(s); keep between 1 and {len(content.pages) - 1}"
        )
    fields: dict[str, FieldLabel] = {}
    cut_off: list[str] = []
    for name, label in subject.labels.fields.items():
        if label.evidence is not None and label.evidence.page is not None and label.evidence.page > keep:
            cut_off.append(name)
            fields[name] = _absent(label)
        else:
            fields[name] = label
    new_content = content.model_copy(update={"pages": content.pages[:keep]})
    fields, unanchored = _recheck_unanchored(new_content, fields)
    return Outcome(
        content=new_content,
        fields=fields,
        rubrics=list(subject.labels.rubrics),
        measured={"kept_pages": keep, "total_pages": len(content.pages), "expected_absent": sorted(cut_off + unanchored)},
    )


def _recheck_unanchored(
    content: Content, fields: dict[str, FieldLabel]
) -> tuple[dict[str, FieldLabel], list[str]]:
    """Fields that had no evidence: keep them only if their value is still in the text."""
    checked, gone = {}, []
    for name, label in fields.items():
        if label.expected_absent or label.evidence is not None:
            checked[name] = label
            continue
        found = locate(content, label.value or "")
        if found is None:
            gone.append(name)
            checked[name] = _absent(label)
        else:
            checked[name] = label.model_copy(update={"evidence": found})
    return checked, gone


def _truncate_thread(subject: Subject, fraction: float) -> Outcome:
    content = subject.content
    assert isinstance(content, ThreadContent)
    ordered = content.export.ordered_posts()
    if len(ordered) < 2:
        raise CuratorError(f"cannot truncate {subject.fixture.id}: a 1-post thread has nothing to cut")
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
    gone = {k for k, v in infos.items() if isinstance(v, dict) and v.get("post_id") and v["post_id"] not in kept_ids}
    if gone:
        changes["file_infos"] = {k: v for k, v in infos.items() if k not in gone}
        changes["files"] = {k: v for k, v in content.export.files.items() if k not in gone}
    export = content.export.model_copy(update=changes)
    new_content = content.model_copy(
        update={"export": export, "orphan_post_ids": [p for p in content.orphan_post_ids if p in kept_ids]}
    )

    fields: dict[str, FieldLabel] = {}
    cut_off = []
    for name, label in subject.labels.fields.items():
        if label.evidence is not None and label.evidence.where[1] not in kept_ids:
            cut_off.append(name)
            fields[name] = _absent(label)
        else:
            fields[name] = label
    fields, unanchored = _recheck_unanchored(new_content, fields)

    rubrics, dropped = [], []
    for rubric in subject.labels.rubrics:
        if not rubric.evidence_posts:
            rubrics.append(rubric)
            continue
        remaining = [p for p in rubric.evidence_posts if p in kept_ids]
        if remaining:
            rubrics.append(rubric.model_copy(update={"evidence_posts": remaining}))
        else:
            dropped.append(rubric.text)
    unanchored_rubrics = [r.text for r in rubrics if not r.evidence_posts]
    warnings = (
        [f"{len(unanchored_rubrics)} rubric(s) name no evidence posts; check they still hold after the cut"]
        if unanchored_rubrics
        else []
    )
    return Outcome(
        content=new_content,
        fields=fields,
        rubrics=rubrics,
        measured={
            "kept_posts": keep,
            "total_posts": len(ordered),
            "dropped_rubrics": dropped,
            "expected_absent": sorted(cut_off + unanchored),
        },
        needs_review=bool(unanchored_rubrics),
        warnings=warnings,
    )
