"""Ids for exports that have none (Mattermost's bulk export) or none of Mattermost's shape
(Slack's "U024BE7LH"): 26 characters of Mattermost's base32 alphabet, made from what names
the thing (channel and time of a post, a username), so the same export gives the same ids.

The shape matters: the anonymiser knows an id by it (curator.anonymise.structure) and remaps
it with the vault's id mapping instead of reading it as text.
"""

from __future__ import annotations

import hashlib

# Mattermost's NewId alphabet (base32 without the letters a reader confuses).
ALPHABET = "ybndrfg8ejkmcpqxot1uwisza345h769"
LENGTH = 26


def mattermost_id(*parts: str) -> str:
    """A Mattermost-shaped id for the thing `parts` names; it holds a letter and a digit, as
    the anonymiser's id shape wants."""
    salt = 0
    while True:
        seed = "\x1f".join((*parts, str(salt))) if salt else "\x1f".join(parts)
        number = int.from_bytes(hashlib.sha256(seed.encode()).digest()[:17], "big")
        chars = [ALPHABET[(number >> (5 * i)) & 31] for i in range(LENGTH)]
        made = "".join(chars)
        if any(c.isdigit() for c in made) and any(c.isalpha() for c in made):
            return made
        salt += 1
