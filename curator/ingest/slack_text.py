"""Slack's message markup in Mattermost's: what a Slack export writes in `text`.

Slack escapes `&`, `<` and `>` and writes references in angle brackets: `<@U024BE7LH>` a
user (`@name` here, so the anonymiser finds the mention as it finds any @mention),
`<#C024BE7LR|general>` a channel (`~general`), `<!here>` and `<!channel>` (`@here`,
`@channel`), `<!subteam^S012|@team>` a user group and `<!date^…|fallback>` a date (their
label), and `<https://…|label>` a link (`[label](https://…)`). Source:
https://api.slack.com/reference/surfaces/formatting ("Formatting text for app surfaces").
"""

from __future__ import annotations

import re
from collections.abc import Mapping

REFERENCE = re.compile(r"<([^<>\n]+)>")
SPECIAL = {"here": "@here", "channel": "@channel", "everyone": "@all"}


def to_mattermost(text: str, users: Mapping[str, str], channels: Mapping[str, str]) -> str:
    """`text` with Slack's references written as Mattermost writes them; `users` and
    `channels` map Slack ids to names."""

    def replace(match: re.Match[str]) -> str:
        target, _, label = match.group(1).partition("|")
        if target.startswith("@"):
            user = target[1:]
            return "@" + (users.get(user) or label or user)
        if target.startswith("#"):
            return "~" + (channels.get(target[1:]) or label or target[1:])
        if target.startswith("!"):
            word = target[1:].split("^")[0]
            return SPECIAL.get(word) or label or "@" + word
        if target.startswith("mailto:"):
            return label or target.removeprefix("mailto:")
        return f"[{label}]({target})" if label and label != target else target

    converted = REFERENCE.sub(replace, text)
    return converted.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
