"""What looks personal but is not: a pseudonym this vault handed out (also one garbled by a
mutation, or cut short by a length limit) and a value in a reserved example range.

The rewriter's replacements are safe by these rules, so rewriting is idempotent; what is
personal (personal.py) and the rewriter's reservations (rewrite.reserve_hits) are read
through them.
"""

from __future__ import annotations

import re

from curator.anonymise import pseudonyms as gen
from curator.anonymise.vault import Vault, normal, tokens

MIN_CUT_ADDRESS = 8  # characters: a shorter start ("12 Ma") is no evidence of any one pseudonym
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def is_safe(
    vault: Vault | None, kind: str, value: str, until: int | None = None, *, composed: bool = True
) -> bool:
    """A detected value that is not a leak: a pseudonym of this vault or a reserved example.
    `until`: judged with the name words the vault knew when it held that many entries.
    `composed=False`: a name of several words is safe only as a whole pseudonym, not as
    pseudonym words put together (raw input, see PersonalData.spans)."""
    if gen.is_reserved(kind, value):
        return True
    if vault is None:
        return False
    if vault.is_pseudonym(value):
        return True
    if kind == "person":
        words = tokens(value)
        if len(words) == 1 and any(
            len(w) == 1 and w.upper() != w.lower() for w in WORD.findall(value)
        ):
            # "M BERG": an initial and one pseudonym word are someone real unless the vault made
            # them whole
            return False
        return (composed or len(words) < 2) and _pseudonym_name(vault, words, until)
    if kind == "address":
        return cut_address_pseudonym(vault, value)
    return False


def cut_address_pseudonym(vault: Vault, text: str) -> bool:
    """`text` is the start of an address pseudonym, cut short (a title's length limit)."""
    return len(normal(text)) >= MIN_CUT_ADDRESS and vault.starts_an_address_pseudonym(text)


def _pseudonym_name(vault: Vault, words: list[str], until: int | None = None) -> bool:
    """A pseudonym, possibly garbled by a mutation ("Rss Ford" from OCR noise on "Ross Ford").

    Every word is a pseudonym word or a garbled one that is no known name, at least one is a
    pseudonym word, and none is a word of an original: "Karen Ford" stays a hit, since Karen
    is a name, and so does "GRUENDER, BENJAMIN" where Benjamin is a pseudonym word, since
    Gruender is no misreading of one.
    """
    from curator.anonymise.finders.names import known_name_words

    if not words:
        return True  # only titles ("Mr", "Dr."): they name nobody
    if any(vault.is_original_token(w, until) for w in words):
        return False
    known = known_name_words()
    pseudonym_words = [w for w in words if vault.is_pseudonym_token(w)]
    return bool(pseudonym_words) and all(
        w in pseudonym_words or (w not in known and vault.near_pseudonym_token(w)) for w in words
    )
