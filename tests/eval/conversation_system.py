"""A system that reads a conversation's messages, as `curator eval run` gives them:
`--system tests.eval.conversation_system:answer`."""

from __future__ import annotations

import re

from curator.eval import Answer, EvalItem

CORRECTION = re.compile(r"Correction: the tenant is (.+?), not ")
INTRODUCED = re.compile(r"I'm (.+?) \(")


def answer(item: EvalItem) -> Answer:
    """The tenant as the latest message names them, and the last assistant reply."""
    assert item.kind == "conversation" and item.messages
    said = [m["content"] for m in item.messages if m["role"] == "user" and m.get("content")]
    fields = {}
    if "tenant" in item.fields:
        found = CORRECTION.search(said[-1]) or INTRODUCED.search(said[0])
        fields["tenant"] = {"value": found.group(1) if found else "", "confidence": 0.9}
    replies = [m["content"] for m in item.messages if m["role"] == "assistant" and m.get("content")]
    return Answer(fields=fields, text=replies[-1] if replies else "I cannot see that yet.")
