"""A system that reads a conversation's messages, as `curator eval run` gives them:
`--system tests.eval.conversation_system:answer`."""

from __future__ import annotations

import re

from curator.eval import Answer, EvalItem

CORRECTION = re.compile(r"Correction: the tenant is (.+?), not ")
INTRODUCED = re.compile(r"I'm (.+?) \(")
DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
AMOUNT = re.compile(r"\$\d[\d,]*\.\d{2}")


def answer(item: EvalItem) -> Answer:
    """The tenant as the latest message names them, the end date and rent the messages
    give, and the last assistant reply."""
    assert item.kind == "conversation" and item.messages
    said = [m["content"] for m in item.messages if m["role"] == "user" and m.get("content")]
    told = "\n".join(m.get("content") or "" for m in item.messages if m["role"] != "user")
    found = {
        "tenant": CORRECTION.search(said[-1]) or INTRODUCED.search(said[0]),
        "lease_end_date": DATE.search(told),
        "monthly_rent": AMOUNT.search(told),
    }
    fields = {
        name: {"value": match.group(1 if name == "tenant" else 0), "confidence": 0.9}
        for name, match in found.items()
        if name in item.fields and match is not None
    }
    replies = [m["content"] for m in item.messages if m["role"] == "assistant" and m.get("content")]
    return Answer(fields=fields, text=replies[-1] if replies else "I cannot see that yet.")
