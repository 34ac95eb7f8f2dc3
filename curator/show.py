"""What `curator show` says about one fixture (and, with --text, its pages or posts)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from curator.model import ConversationContent, DocumentContent, Where
from curator.store import FixtureRecord


@dataclass
class FixtureView:
    """One fixture as `curator show` gives it: metadata, a content summary, current labels."""

    record: FixtureRecord
    with_text: bool = False
    exit_code = 0

    def as_json(self) -> dict[str, Any]:
        record = self.record
        labels = record.labels
        shown: dict[str, Any] = {
            "fixture": record.fixture.model_dump(mode="json"),
            "content": _content_summary(record),
            "labels": labels.model_dump(mode="json") if labels else None,
        }
        if self.with_text:
            shown["text"] = [
                {"where": list(where), "heading": heading, "text": text}
                for where, heading, text in _texts(record)
            ]
        return shown

    def render(self) -> str:
        record = self.record
        fixture = record.fixture
        lines = [
            f"{fixture.id}  "
            f"({fixture.kind.value}{', ' + fixture.doc_type if fixture.doc_type else ''})",
            f"  status {fixture.status.value}, category {fixture.category}, "
            f"{'adversarial' if fixture.adversarial else 'golden'}",
            f"  source {fixture.provenance.source_name} ({fixture.provenance.importer}, "
            f"sha256 {fixture.provenance.source_sha256[:12]})",
        ]
        if fixture.lineage:
            steps = " + ".join(f"{m.name}{m.params or ''}" for m in fixture.lineage.mutations)
            lines.append(
                f"  from {fixture.lineage.parent} rev {fixture.lineage.parent_label_rev}: {steps}"
            )
        summary = _content_summary(record)
        lines.append("  content: " + ", ".join(f"{k} {v}" for k, v in summary.items()))
        lines += _label_lines(record)
        if self.with_text:
            for _, heading, text in _texts(record):
                lines += [f"--- {heading}", text]
        return "\n".join(lines)


def _label_lines(record: FixtureRecord) -> list[str]:
    labels = record.labels
    if labels is None:
        return ["  no labels"]
    lines = [f"  labels rev {labels.rev} by {labels.author} ({labels.source})"]
    for name, label in labels.fields.items():
        value = "(expected absent)" if label.expected_absent else repr(label.value)
        lines.append(
            f"    {name} [{label.type.value}] = {value}"
            + "".join(f" | {v!r}" for v in label.variants)
            + (f"  (no evidence: {label.no_evidence})" if label.no_evidence else "")
            + (f"  (unanswerable: {label.unanswerable})" if label.unanswerable else "")
        )
    for task in labels.task_names():
        if task is not None:
            lines.append(f"    task {task}:")
        for rubric in labels.for_task(task).rubrics:
            posts = f"  (posts {', '.join(rubric.evidence_posts)})" if rubric.evidence_posts else ""
            lines.append(f"    {'  ' if task else ''}rubric: {rubric.text}{posts}")
    return lines


def _texts(record: FixtureRecord) -> list[tuple[Where, str, str]]:
    """Each page or post with a heading that says where it came from."""
    content = record.content
    if isinstance(content, DocumentContent):
        return [
            (
                ("page", p.number),
                f"page {p.number} ({p.origin}" + (f", {p.language}" if p.language else "") + ")",
                p.text,
            )
            for p in content.pages
        ]
    if isinstance(content, ConversationContent):
        return [
            (("message", number), f"message {number} ({message.role})", message.content or "")
            for number, message in enumerate(content.messages, 1)
            if message.content is not None
        ]
    export = content.export
    return [
        (
            ("post", post.id),
            f"post {post.id} by {export.author(post)} at {post.written_at()}"
            + (f" (reply to {post.root_id})" if post.root_id else ""),
            post.message,
        )
        for post in export.ordered_posts()
    ]


def _content_summary(record: FixtureRecord) -> dict[str, Any]:
    content = record.content
    # what is worth saying differs: pages and OCR for a document, people and orphans for a thread
    if isinstance(content, DocumentContent):
        return {
            "pages": len(content.pages),
            "chars": sum(len(p.text) for p in content.pages),
            "ocr_pages": sum(p.origin == "ocr" for p in content.pages),
            "languages": sorted({p.language for p in content.pages if p.language}),
        }
    if isinstance(content, ConversationContent):
        return {
            "messages": len(content.messages),
            "roles": sorted({m.role for m in content.messages}),
            "model": content.model,
        }
    export = content.export
    return {
        "posts": len(export.posts),
        "users": len(export.users),
        "orphan_posts": len(content.orphan_post_ids),
    }
