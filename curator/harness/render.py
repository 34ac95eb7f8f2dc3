"""A fixture's input as a harness passes it to the system under test.

A document is its pages' text, pages separated by a form feed (the page break pdftotext
writes); a thread is printed as Mattermost's ThreadExport.String() prints it (the Go eval
package's rendering, mirrored in tests/go/threads_test.go); a conversation (a conversation
fixture, or a chat log whose authors are roles: user, assistant, ...) is its list of
messages ({role, content}), and as one string each message on a line of its own after its
role.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from curator.model import (
    CHAT_ROLES,
    Content,
    ConversationContent,
    DocumentContent,
    Fixture,
    Message,
    ThreadContent,
)

PAGE_BREAK = "\n\f\n"


def input_text(content: Content, fixture: Fixture) -> str:
    """The input as one string: what every harness can take."""
    if isinstance(content, DocumentContent):
        return PAGE_BREAK.join(page.text for page in content.pages)
    if isinstance(content, ConversationContent):
        return content.transcript()
    return thread_string(content, fixture)


def chat_messages(content: Content) -> list[dict[str, str]] | None:
    """A conversation's messages ({role, content}, in order), or None when the input is not
    a conversation between roles. Harnesses take text contents only: a conversation's tool
    call is written out in its message ("called name(arguments)"), a tool result keeps its
    tool_call_id."""
    if isinstance(content, ConversationContent):
        return [_harness_message(message) for message in content.messages]
    if not isinstance(content, ThreadContent):
        return None
    posts = content.export.ordered_posts()
    roles = [content.export.author(post).strip().casefold() for post in posts]
    if not posts or not all(role in CHAT_ROLES for role in roles):
        return None
    return [
        {"role": role, "content": post.message} for role, post in zip(roles, posts, strict=True)
    ]


def _harness_message(message: Message) -> dict[str, str]:
    said = [message.content] if message.content is not None else []
    for call in message.tool_calls or ():
        name, arguments = call.function.get("name", ""), call.function.get("arguments", "")
        said.append(f"called {name}({arguments})")
    out = {"role": message.role, "content": "\n".join(said)}
    if message.tool_call_id is not None:
        out["tool_call_id"] = message.tool_call_id
    return out


def thread_string(content: ThreadContent, fixture: Fixture) -> str:
    """ThreadExport.String(): a header, then each post oldest first with its author and time."""
    from curator.bundle.thread_file import go_export  # not at import: the adapters stay light

    data = go_export(content, fixture)  # team, channel and every author completed as Go reads it
    users: dict[str, Any] = data["users"]
    posts = content.export.ordered_posts()
    out = [
        f"Thread Export: {data['team'].get('display_name', '')} > "
        f"{data['channel'].get('display_name', '')}\n",
        f"Posts: {len(posts)}\n\n",
    ]
    for post in posts:
        user = users[post.user_id]
        full = f"{user.get('first_name', '')} {user.get('last_name', '')}".strip()
        username = user.get("username", "")
        when = datetime.fromtimestamp(post.create_at // 1000, tz=UTC).strftime("%Y-%m-%d %H:%M:%S")
        tag = "[ROOT]" if not post.root_id else "[REPLY]"
        out.append(f"{tag} {full or username} (@{username}) - {when}\n")
        if post.message:
            out.append(f"  {post.message}\n")
        infos = data.get("file_infos", {})
        for file_id in post.file_ids or []:
            info = infos.get(file_id)
            if info:
                out.append(f"    - {info.get('name', '')} ({info.get('mime_type', '')})\n")
            else:
                out.append(f"    - File ID: {file_id} (info not available)\n")
        out.append("\n")
    return "".join(out)
