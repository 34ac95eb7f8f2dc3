"""An example system under evaluation: a rule-based field extractor and thread summariser.

    PYTHONPATH=examples/evals curator eval run bundles/1.0.0 --system extractor:answer --judge rules

A real system would call a model here; `answer` is all curator needs: it takes one
fixture (a curator.eval.EvalItem) and returns an Answer.
"""

from __future__ import annotations

import re

from curator.eval import Answer, EvalItem

# Field labels that are not just the field's name ("monthly_rent" -> "Monthly Rent:").
LABELS = {"customer": ["Bill To"], "premises_address": ["Premises Address", "Address"]}
WORTH_SAYING = re.compile(r"[$€£]\s?\d|\b\d{4}\b|@\w|\b(?:Mon|Tues|Wednes|Thurs|Fri)day\b")


def answer(item: EvalItem) -> Answer:
    if item.kind == "document":
        return Answer(fields=extract(item.text, item.fields))
    return Answer(text=summarise(item.thread or {}))


def extract(text: str, fields: dict[str, str]) -> dict[str, dict]:
    """Each field's value from a "Label: value" line, with a made-up confidence."""
    found = {}
    for name in fields:
        labels = [name.replace("_", " ")] + LABELS.get(name, [])
        for label in labels:
            match = re.search(
                rf"^\s*{re.escape(label)}\s*:\s*(.+?)\s*$", text, re.IGNORECASE | re.MULTILINE
            )
            if match:
                found[name] = {"value": match.group(1), "confidence": 0.9}
                break
        else:
            found[name] = {"value": None, "confidence": 0.7}
    return found


def summarise(thread: dict) -> str:
    """The messages that carry amounts, years or @mentions, with their authors."""
    users = thread.get("users", {})
    posts = sorted(thread.get("posts", {}).values(), key=lambda post: post.get("create_at", 0))
    said = [
        f"@{users.get(post['user_id'], {}).get('username', '?')} said: {post['message']}"
        for post in posts
        if WORTH_SAYING.search(post.get("message", ""))
    ]
    return " ".join(said) or (posts[0]["message"] if posts else "")
