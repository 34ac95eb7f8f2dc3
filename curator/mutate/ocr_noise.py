"""`--ocr-noise [CER] [--noise-values]`: a character channel that imitates Tesseract's errors.

Substitutions from a weighted confusion table (l/1/I, O/0, rn/m, cl/d, e/c/3, S/5, B/8...),
deletions, insertions, split words ("Tena nt"), merged words (a dropped space) and
punctuation swaps. It is calibrated: errors are placed one at a time, each with a known
Levenshtein cost, until the budget CER x characters is spent, never two within a
character of each other; the achieved CER is then measured (curator.mutate._measure) and
recorded.

By default the characters of labelled values (their evidence spans) are left intact and
the noise lands on field labels and the text around them ("T3nant: Dana Whitfield"), so
every item stays answerable. `--noise-values` lets it hit values too; then the truth
records what a reader can still recover (`settle_noised_values`): a noisy spelling that
differs from the value only by spacing and known glyph confusions becomes an accepted
variant, anything worse marks the field unanswerable.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Mapping
from functools import cache, lru_cache
from itertools import accumulate
from typing import Any

from curator.errors import CuratorError
from curator.labels import evidence_text, shows
from curator.model import ConversationContent, DocumentContent, FieldLabel, Where
from curator.mutate._measure import cer as rate
from curator.mutate._measure import edits_distance, levenshtein
from curator.mutate._textops import evidence_ranges, protected_bounds, rewrite
from curator.mutate.registry import Option, Outcome, Subject, Switch, register
from curator.spans import Edit

DEFAULT_CER = 0.05
MAX_CER = 0.3

# What Tesseract reads a glyph (or glyph pair) as, with how often relative to the others.
CONFUSIONS: dict[str, list[tuple[str, float]]] = {
    "rn": [("m", 1.0)],
    "m": [("rn", 1.0)],
    "cl": [("d", 1.0)],
    "d": [("cl", 0.4)],
    "vv": [("w", 1.0)],
    "w": [("vv", 0.5)],
    "li": [("h", 0.5)],
    "fi": [("f", 0.5)],
    "l": [("1", 1.0), ("I", 0.8), ("|", 0.2)],
    "1": [("l", 1.0), ("I", 0.6)],
    "I": [("l", 1.0), ("1", 0.6)],
    "O": [("0", 1.0), ("Q", 0.2)],
    "0": [("O", 1.0), ("o", 0.4)],
    "o": [("0", 0.5), ("c", 0.3)],
    "e": [("c", 1.0), ("o", 0.3), ("3", 0.2)],
    "c": [("e", 0.8), ("o", 0.3)],
    "a": [("o", 0.6), ("e", 0.3)],
    "S": [("5", 1.0), ("$", 0.2)],
    "5": [("S", 1.0), ("6", 0.3)],
    "s": [("5", 0.3)],
    "B": [("8", 1.0)],
    "8": [("B", 1.0), ("3", 0.4)],
    "3": [("8", 0.4)],
    "6": [("b", 0.5)],
    "b": [("6", 0.5)],
    "n": [("u", 0.6), ("ri", 0.3)],
    "u": [("n", 0.6)],
    "i": [("l", 0.6), ("1", 0.3)],
    "t": [("f", 0.3)],
    "h": [("b", 0.3)],
    "g": [("q", 0.4), ("9", 0.3)],
    "9": [("g", 0.4)],
    "Z": [("2", 0.5)],
    "2": [("Z", 0.4)],
    "G": [("6", 0.4)],
    "D": [("0", 0.4)],
    "E": [("F", 0.3)],
    "y": [("v", 0.3)],
}
PUNCTUATION_SWAPS: dict[str, list[tuple[str, float]]] = {
    ",": [(".", 1.0)],
    ".": [(",", 1.0)],
    ";": [(":", 1.0)],
    ":": [(";", 1.0), (".", 0.3)],
    "-": [("~", 0.4), ("_", 0.3)],
    "'": [("`", 0.5)],
    "$": [("S", 0.6)],
}
INSERTIONS = ["'", ".", ",", "i", "l", "-"]
# How often each kind of error is tried where it can apply.
WEIGHTS = {"confuse": 6.0, "punct": 2.0, "delete": 1.0, "insert": 0.6, "split": 1.0, "merge": 1.0}


@register(
    "ocr-noise",
    category="ocr-noise",
    owns="nothing by default (values are left intact); with noise_values, variants and "
    "unanswerable",
    options=[
        Option(
            "--ocr-noise",
            "cer",
            float,
            "CER",
            bare=DEFAULT_CER,
            help=f"Tesseract-like character errors at rate CER (default {DEFAULT_CER}), "
            "calibrated; labelled values are left intact.",
        ),
        Switch(
            "--noise-values",
            of="--ocr-noise",
            param="noise_values",
            help="With --ocr-noise: let the noise hit labelled values too; the truth then accepts "
            "recoverable noisy spellings and marks the rest unanswerable.",
        ),
    ],
)
def ocr_noise(subject: Subject, rng: random.Random, params: dict[str, Any]) -> Outcome:
    if isinstance(subject.content, ConversationContent):
        # a conversation was typed, never scanned: OCR errors are no failure it can meet
        raise CuratorError(f"{subject.fixture.id}: --ocr-noise does not apply to conversations")
    target = check_rate(params)
    noise_values = bool(params.get("noise_values", False))
    fields = subject.labels.fields
    all_texts = subject.content.texts()
    length = sum(len(text) for _, text in all_texts)
    if not length:
        raise CuratorError(f"{subject.fixture.id} has no text to noise")
    bounds = {place: protected_bounds(fields, place) for place, _ in all_texts}
    kept_clean = (
        {} if noise_values else {place: evidence_ranges(fields, place) for place, _ in all_texts}
    )
    edits = plan_noise(all_texts, target, rng, bounds, kept_clean)
    new_content, new_fields, _, _ = rewrite(subject.content, fields, edits)
    if noise_values:
        new_fields = settle_noised_values(new_content, new_fields)
    distance = sum(edits_distance(text, edits[place]) for place, text in all_texts if edits[place])
    if isinstance(new_content, DocumentContent):  # only pages say where their text came from
        pages = [
            p.model_copy(update={"origin": "ocr"}) if edits.get(("page", p.number)) else p
            for p in new_content.pages
        ]
        new_content = new_content.model_copy(update={"pages": pages})
    return Outcome(
        content=new_content,
        fields=new_fields,
        rubrics=list(subject.labels.rubrics),
        measured={
            "cer": round(rate(distance, length), 4),
            "char_errors": distance,
            "chars": length,
        },
    )


def check_rate(params: dict[str, Any]) -> float:
    target = float(params.get("cer", DEFAULT_CER))
    if not 0 < target <= MAX_CER:
        raise CuratorError(f"--ocr-noise CER must be in (0, {MAX_CER}], got {target}")
    return target


def plan_noise(
    all_texts: list[tuple[Where, str]],
    target: float,
    rng: random.Random,
    bounds: dict[Where, set[int]],
    kept_clean: Mapping[Where, list[tuple[int, int]]] | None = None,
) -> dict[Where, list[Edit]]:
    """Choose edits across all texts whose summed Levenshtein cost is round(target x chars).

    No edit straddles an offset in `bounds`, and none touches a range in `kept_clean`.
    """
    starts = list(accumulate((len(text) for _, text in all_texts), initial=0))
    total = starts[-1]
    budget = round(target * total)
    used = [bytearray(len(text) + 2) for _, text in all_texts]  # 1 = an edit touches or borders it
    for index, (place, _) in enumerate(all_texts):
        for start, end in (kept_clean or {}).get(place, []):
            used[index][start:end] = b"\x01" * (end - start)
    edits: dict[Where, list[Edit]] = {place: [] for place, _ in all_texts}
    # Random positions until the budget is spent; give up after many misses (a text too
    # short or too protected for the rate), and the measured CER will say so.
    misses = 0
    draw = rng.random
    while budget > 0 and misses < 20 * total + 100:
        position = int(draw() * total)
        index = bisect_right(starts, position) - 1
        offset = position - starts[index]
        place, text = all_texts[index]
        taken = used[index]
        if taken[offset]:
            misses += 1
            continue
        choice = _error_at(text, offset, rng, budget)
        if choice is None:
            misses += 1
            continue
        end, replacement, cost = choice
        # Keep a clean character between errors so each one's cost stays its own.
        low = offset - 1 if offset else 0
        if 1 in taken[low : end + 1] or (
            end - offset > 1 and any(offset < b < end for b in bounds[place])
        ):
            misses += 1
            continue
        taken[low : end + 1] = b"\x01" * (end + 1 - low)
        edits[place].append(Edit(offset, end, replacement))
        budget -= cost
    return edits


def _error_at(
    text: str, offset: int, rng: random.Random, budget: int
) -> tuple[int, str, int] | None:
    """One plausible OCR error starting at `offset`: (end, replacement, Levenshtein cost)."""
    prev_alnum = offset > 0 and text[offset - 1].isalnum()
    cumulative, options = _options(text[offset : offset + 2], prev_alnum, budget >= 2)
    if not options:
        return None
    length, replacement, cost = options[bisect_right(cumulative, rng.random() * cumulative[-1])]
    if replacement is None:  # an insertion: which stray glyph is drawn now
        replacement = rng.choice(INSERTIONS)
    return offset + length, replacement, cost


@lru_cache(maxsize=4096)
def _options(
    pair: str, prev_alnum: bool, two_allowed: bool
) -> tuple[tuple[float, ...], tuple[tuple[int, str | None, int], ...]]:
    """The errors possible at a character (given the next one): cumulative weights and
    (length, replacement, cost) of each."""
    char = pair[0]
    found: list[tuple[float, tuple[int, str | None, int]]] = []
    if char == "\n":
        return (), ()
    if len(pair) == 2 and pair in CONFUSIONS:
        found += [(WEIGHTS["confuse"] * w, (2, r, _cost(pair, r))) for r, w in CONFUSIONS[pair]]
    if char in CONFUSIONS:
        found += [(WEIGHTS["confuse"] * w, (1, r, _cost(char, r))) for r, w in CONFUSIONS[char]]
    if char in PUNCTUATION_SWAPS:
        found += [(WEIGHTS["punct"] * w, (1, r, 1)) for r, w in PUNCTUATION_SWAPS[char]]
    if char == " ":
        found.append((WEIGHTS["merge"], (1, "", 1)))
    elif char.isalnum():
        found.append((WEIGHTS["delete"], (1, "", 1)))
        if prev_alnum:
            found.append((WEIGHTS["split"], (0, " ", 1)))
            found.append((WEIGHTS["insert"], (0, None, 1)))
    found = [(w, o) for w, o in found if o[2] <= (2 if two_allowed else 1)]
    return tuple(accumulate(w for w, _ in found)), tuple(o for _, o in found)


@lru_cache(maxsize=512)
def _cost(old: str, new: str) -> int:
    return levenshtein(old, new)


# ---------------------------------------------------------------- what a reader can recover


def recoverable(value: str, noisy: str) -> bool:
    """Can a reader tell `value` from `noisy`? Yes when they differ only by spacing and by
    glyph confusions OCR is known for: `noisy` is `value`, spaces aside, with some glyphs (or
    glyph pairs) read as one they are confused with (CONFUSIONS), and nothing lost or added."""
    clean, read = "".join(value.split()), "".join(noisy.split())

    @cache
    def readable(i: int, j: int) -> bool:  # clean[i:] can be read as read[j:]
        if i == len(clean):
            return j == len(read)
        if j < len(read) and clean[i] == read[j] and readable(i + 1, j + 1):
            return True
        for size in (1, 2):
            for wrong, _ in (
                CONFUSIONS.get(clean[i : i + size], []) if i + size <= len(clean) else []
            ):
                if read.startswith(wrong, j) and readable(i + size, j + len(wrong)):
                    return True
        return False

    return readable(0, 0)


def settle_noised_values(content: Any, fields: Mapping[str, FieldLabel]) -> dict[str, FieldLabel]:
    """The truth after noise hit values: what a reader can still recover, field by field.

    A value whose text at its evidence no longer shows it gets that noisy spelling as an
    accepted variant when it is `recoverable`, else it is marked unanswerable.
    """
    settled = {}
    for name, label in fields.items():
        found = evidence_text(content, label.evidence) if label.evidence is not None else None
        if label.value is None or found is None or shows(found, label):
            settled[name] = label
        elif recoverable(label.value, found):
            settled[name] = label.model_copy(
                update={"variants": [*label.variants, found], "unanswerable": None}
            )
        else:
            settled[name] = label.model_copy(
                update={"unanswerable": f"OCR noise on the value: its evidence reads {found!r}"}
            )
    return settled
