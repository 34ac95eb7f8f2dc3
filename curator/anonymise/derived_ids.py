"""Pseudonyms of long random ids, derived from the vault's key instead of stored in it.

A Mattermost bulk export has one id per post (and per file and reaction); stored as vault
entries, a million posts held some 1.8 GB of memory in every command that opens the vault. An
id of 20 or more lowercase letters and digits holding both (Mattermost's 26 characters, a
trace's 32 hex digits: structure.DISTINCT_ID) has instead a pseudonym computed from the key:
the same original gets the same pseudonym in every fixture and every later import, with no
table, and nothing learnt from one thread is needed by the next.

The pseudonym keeps the id's length and alphabet (hex stays hex). Its last characters are a
MAC of the others under the key, so the vault recognises every id it made without a list
(`is_derived`): an id that fails the check is nobody's pseudonym, so where the rewriter
would have remapped it, a checker reports it. An original passes the check by chance with
odds of about 2^-30; two originals share a pseudonym with the odds of a collision of the
rest (72 bits for the shortest alphanumeric ids, 48 for the shortest hex ones).
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import re
from functools import lru_cache

SHAPE = re.compile(r"(?=.*[a-z])(?=.*\d)[a-z0-9]{20,}")  # structure.DISTINCT_ID's first shape
HEX = "0123456789abcdef"
ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyz0123456789"
TAG = {HEX: 8, ALPHANUMERIC: 6}  # characters of MAC: 32 and 31 bits
# a thread asks for each of its ids dozens of times (structure, text, labels, checks)
CACHED = 1 << 14


def derivable(original: str) -> bool:
    """Whether `original` is an id whose pseudonym is derived, not stored."""
    return SHAPE.fullmatch(original) is not None


@lru_cache(maxsize=CACHED)
def derive(key: bytes, original: str) -> str:
    """The pseudonym of `original` (a `derivable` id): its length, its alphabet, a letter and
    a digit (as structure.DISTINCT_ID wants), and a tag `is_derived` recognises."""
    alphabet = _alphabet(original)
    size = len(original) - TAG[alphabet]
    for attempt in itertools.count():
        body = _draw(key, f"id\0{original}\0{attempt}", alphabet, size)
        made = body + _tag(key, body, alphabet)
        # an alphanumeric id that came out all hex would be read back as a hex one
        if SHAPE.fullmatch(made) and _alphabet(made) is alphabet:
            return made
    raise AssertionError("unreachable")


@lru_cache(maxsize=CACHED)
def is_derived(key: bytes, value: str) -> bool:
    """Whether `value` is a pseudonym `derive` made under `key`."""
    if SHAPE.fullmatch(value) is None:
        return False
    alphabet = _alphabet(value)
    cut = len(value) - TAG[alphabet]
    return hmac.compare_digest(value[cut:], _tag(key, value[:cut], alphabet))


def _alphabet(value: str) -> str:
    return HEX if all(c in HEX for c in value) else ALPHANUMERIC


def _tag(key: bytes, body: str, alphabet: str) -> str:
    return _draw(key, f"id-tag\0{body}", alphabet, TAG[alphabet])


def _draw(key: bytes, seed: str, alphabet: str, size: int) -> str:
    """`size` characters of `alphabet` from HMAC-SHA256 blocks of `seed` under `key`."""
    blocks = (size * 6 + 255) // 256  # 6 bits per character are more than enough
    stream = b"".join(
        hmac.digest(key, f"{seed}\0{block}".encode(), hashlib.sha256) for block in range(blocks)
    )
    number = int.from_bytes(stream, "big")
    chars = []
    for _ in range(size):
        number, digit = divmod(number, len(alphabet))
        chars.append(alphabet[digit])
    return "".join(chars)
