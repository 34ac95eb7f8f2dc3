"""What a judge reads of a fixture: its text, as the source an output was made from.

A thread reads as its messages in order, each with its author's @username (which is how
the rules judge knows a thread's people); a document as its pages. An evidence quote is
checked against this text (and the output), so a judge that quotes a message or a page
verbatim is verified.
"""

from __future__ import annotations

import re

from curator.model import DocumentContent, ThreadContent

_PAGE = "[page "
# an @mention as Mattermost writes it; not the middle of an e-mail address
MENTION = re.compile(r"(?<![\w@])@([A-Za-z0-9](?:[\w.-]*[A-Za-z0-9_])?)")


def fixture_context(content: DocumentContent | ThreadContent) -> str:
    if isinstance(content, DocumentContent):
        return "\n\n".join(f"{_PAGE}{page.number}]\n{page.text}" for page in content.pages)
    users = content.export.users
    lines = []
    for post in content.export.ordered_posts():
        user = users.get(post.user_id)
        author = (
            f"@{user.username}" if user is not None and user.username else post.user_id or "unknown"
        )
        lines.append(f"{author}: {post.message}")
    return "\n".join(lines)


def thread_usernames(context: str) -> list[str]:
    """The people of a thread's context: every @username in it (its authors' and the
    messages' @mentions), each once, in order of appearance; none for a document's pages."""
    if context.startswith(_PAGE):
        return []
    return list(dict.fromkeys(match.group(1) for match in MENTION.finditer(context)))
