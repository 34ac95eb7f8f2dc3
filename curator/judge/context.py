"""What a judge reads of a fixture: its text, as the source an output was made from.

A thread reads as its messages in order, each with its author's @username; a conversation
as its messages, each after its role; a document as its pages. An evidence quote is
checked against this text (and the output), so a judge that quotes a message or a page
verbatim is verified.
"""

from __future__ import annotations

from curator.model import ConversationContent, DocumentContent, ThreadContent


def fixture_context(content: DocumentContent | ThreadContent | ConversationContent) -> str:
    if isinstance(content, DocumentContent):
        return "\n\n".join(f"[page {page.number}]\n{page.text}" for page in content.pages)
    if isinstance(content, ConversationContent):
        return content.transcript()
    users = content.export.users
    lines = []
    for post in content.export.ordered_posts():
        user = users.get(post.user_id)
        author = (
            f"@{user.username}" if user is not None and user.username else post.user_id or "unknown"
        )
        lines.append(f"{author}: {post.message}")
    return "\n".join(lines)
