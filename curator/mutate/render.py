"""`--ocr-noise [CER] --render`: the real path: render, degrade, OCR with Tesseract, realign.

Each page's text is drawn with Pillow, degraded (slight rotation, downscale, blur, pixel
noise, JPEG artefacts) and read back with Tesseract through pytesseract. The OCR text is
aligned to the original (difflib), the alignment's differences become `Edit`s, and
`apply_edits` both rebuilds the OCR text and maps every evidence span into it.

Calibrated by search, as `--ocr-noise` is: Tesseract's error rate is steep and uneven in
the degradation, so the strength is bisected (each trial renders every page with the same
random damage, only stronger or weaker) until the measured CER is within 10% of the
request, or at most twice it. Then, unless it landed, that trial's real misreadings are
kept one at a time, in random order, while the measured distance stays within the budget
CER x characters. The CER of the final text is measured and recorded with the strength
and the trials it took.

Labelled values are left intact by default: Tesseract's misreadings inside an evidence
span are dropped, so the noise stays on labels and surrounding text. `--noise-values`
keeps them; then the truth records what a reader can recover (see ocr_noise), and a value
Tesseract lost entirely becomes expected-absent.
"""

from __future__ import annotations

import io
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from curator.errors import CuratorError
from curator.model import ConversationContent, DocumentContent, FieldLabel, Where
from curator.mutate._measure import cer as rate
from curator.mutate._measure import levenshtein
from curator.mutate._textops import evidence_ranges, rewrite
from curator.mutate.ocr_noise import check_rate, settle_noised_values
from curator.mutate.registry import Outcome, Subject, Switch, register
from curator.spans import Edit, apply_edits

if TYPE_CHECKING:
    from PIL import Image

FONT_SIZE = 24
MARGIN = 40
MAX_TRIALS = 6
CLOSE_ENOUGH = 0.10  # a trial within 10% of the requested CER ends the search
THINNABLE = 2.0  # so does one with at most this many times the errors: thinning keeps half or more
THINNING_ORDERS = 20


@register(
    "ocr-render",
    category="ocr-noise",
    owns="nothing by default (values are left intact); with noise_values, variants, "
    "unanswerable, expected_absent",
    options=[
        Switch(
            "--render",
            of="--ocr-noise",
            help="With --ocr-noise: render, degrade and really OCR the pages, calibrated to CER.",
        )
    ],
)
def ocr_render(subject: Subject, rng: random.Random, params: dict[str, Any]) -> Outcome:
    content = subject.content
    if isinstance(content, ConversationContent):
        raise CuratorError(f"{subject.fixture.id}: --render does not apply to conversations")
    if not isinstance(content, DocumentContent):
        raise CuratorError(
            f"{subject.fixture.id}: --render applies to documents (pages), not threads"
        )
    target = check_rate(params)
    noise_values = bool(params.get("noise_values", False))
    fields = subject.labels.fields
    pages: list[tuple[Where, str]] = [(("page", page.number), page.text) for page in content.pages]
    if not sum(len(text) for _, text in pages):
        raise CuratorError(f"{subject.fixture.id} has no text to render")
    kept_clean = (
        {} if noise_values else {place: evidence_ranges(fields, place) for place, _ in pages}
    )
    damage_seed = rng.randrange(2**32)  # every trial gets the same damage, scaled by its strength

    def attempt(strength: float) -> Trial:
        return read_pages(pages, strength, damage_seed, kept_clean)

    trials = search(attempt, target)
    chosen = closest(trials, target)
    thinned = abs(chosen.cer - target) > CLOSE_ENOUGH * target and any(
        t.cer > target for t in trials
    )
    edits = chosen.edits
    if thinned:
        chosen = min((t for t in trials if t.cer > target), key=lambda t: t.cer)
        edits = thin(pages, chosen.edits, target, rng)
    new_content, new_fields, _, lost = rewrite(content, fields, edits)
    distance = sum(levenshtein(text, new_content.text_at(place) or "") for place, text in pages)
    length = sum(len(text) for _, text in pages)
    for name in lost:
        new_fields[name] = FieldLabel(type=new_fields[name].type, value=None, expected_absent=True)
    if noise_values:
        new_fields = settle_noised_values(new_content, new_fields)
    new_pages = [
        p.model_copy(update={"origin": "ocr", "ocr_confidence": chosen.confidences[p.number]})
        for p in new_content.pages
    ]
    return Outcome(
        content=new_content.model_copy(update={"pages": new_pages}),
        fields=new_fields,
        rubrics=list(subject.labels.rubrics),
        measured={
            "cer": round(rate(distance, length), 4),
            "requested_cer": target,
            "strength": round(chosen.strength, 4),
            "trials": len(trials),
            "thinned": thinned,
            "char_errors": distance,
            "chars": length,
            "lost_fields": sorted(lost),
        },
        warnings=[
            f"Tesseract lost the value of {name}; it is expected-absent in this variant"
            for name in lost
        ],
    )


@dataclass(frozen=True)
class Trial:
    strength: float
    edits: dict[Where, list[Edit]]  # Tesseract's misreadings, outside kept-clean ranges
    confidences: dict[int, float]  # page number -> mean word confidence
    cer: float  # of the text those edits make


def read_pages(
    pages: Sequence[tuple[Where, str]],
    strength: float,
    damage_seed: int,
    kept_clean: Mapping[Where, list[tuple[int, int]]],
) -> Trial:
    """Render, degrade and OCR every page at one strength; the misreadings as edits."""
    edits: dict[Where, list[Edit]] = {}
    confidences: dict[int, float] = {}
    distance = length = 0
    for place, text in pages:
        damage = random.Random(f"{damage_seed}:{place[1]}")
        read, confidences[int(place[1])] = ocr(degrade(draw(text), strength, damage))
        edits[place] = [e for e in align(text, read) if not _touches(e, kept_clean.get(place, []))]
        distance += levenshtein(text, apply_edits(text, edits[place])[0])
        length += len(text)
    return Trial(strength, edits, confidences, rate(distance, length))


def _touches(edit: Edit, ranges: list[tuple[int, int]]) -> bool:
    # Text inserted exactly at a range's edge stays outside it (see curator.spans.OffsetMap).
    if edit.start == edit.end:
        return any(start < edit.start < end for start, end in ranges)
    return any(edit.start < end and start < edit.end for start, end in ranges)


def search(attempt: Any, target: float) -> list[Trial]:
    """Bisect the strength towards `target`, from the strength that usually gives it, until a
    trial lands within CLOSE_ENOUGH of it, or reads at most twice too many errors to thin."""
    low, high = 0.0, 1.0
    strength = strength_for(target)
    trials: list[Trial] = []
    for _ in range(MAX_TRIALS):
        trial = attempt(strength)
        trials.append(trial)
        if (
            abs(trial.cer - target) <= CLOSE_ENOUGH * target
            or target < trial.cer <= THINNABLE * target
        ):
            break
        if trial.cer < target:
            low = strength
        else:
            high = strength
        strength = (low + high) / 2
    return trials


def closest(trials: list[Trial], target: float) -> Trial:
    return min(trials, key=lambda t: (abs(t.cer - target), t.strength))


def thin(
    pages: Sequence[tuple[Where, str]],
    edits: Mapping[Where, list[Edit]],
    target: float,
    rng: random.Random,
) -> dict[Where, list[Edit]]:
    """Keep Tesseract's misreadings one at a time, in random order, while the measured
    distance stays within CER x chars (then one more if that ends nearer the budget); of
    THINNING_ORDERS random orders, the selection that ends nearest the budget. (Each
    misreading is one difference of the alignment; the distance is measured, not summed,
    so neighbours that interact are counted right.)"""
    budget = target * sum(len(text) for _, text in pages)
    texts = dict(pages)
    misreadings = [(place, edit) for place, page_edits in edits.items() for edit in page_edits]
    best: tuple[float, dict[Where, list[Edit]]] | None = None
    for _ in range(THINNING_ORDERS):
        rng.shuffle(misreadings)
        kept, reached = _keep_within(texts, misreadings, budget)
        if best is None or abs(reached - budget) < best[0]:
            best = (abs(reached - budget), kept)
    assert best is not None
    return best[1]


def _keep_within(
    texts: Mapping[Where, str], misreadings: list[tuple[Where, Edit]], budget: float
) -> tuple[dict[Where, list[Edit]], int]:
    kept: dict[Where, list[Edit]] = {place: [] for place in texts}
    distance = dict.fromkeys(kept, 0)
    left_out = []
    for place, edit in misreadings:
        tried = sorted([*kept[place], edit])
        page_distance = levenshtein(texts[place], apply_edits(texts[place], tried)[0])
        if sum(distance.values()) - distance[place] + page_distance <= budget:
            kept[place], distance[place] = tried, page_distance
        else:
            left_out.append((place, edit))
    # One more misreading, when the distance it ends at is nearer the budget than stopping short.
    reached = sum(distance.values())
    nearest: tuple[float, Where, list[Edit], int] | None = None
    for place, edit in left_out:
        tried = sorted([*kept[place], edit])
        page_distance = levenshtein(texts[place], apply_edits(texts[place], tried)[0])
        miss = abs(reached - distance[place] + page_distance - budget)
        if nearest is None or miss < nearest[0]:
            nearest = (miss, place, tried, page_distance)
    if nearest is not None and nearest[0] < budget - reached:
        _, place, kept[place], distance[place] = nearest
    return kept, sum(distance.values())


# Degradation strength that made Tesseract 5 reach a CER on the sample leases: where the
# search starts. Tesseract's error rate is steep in it, so the search does the rest.
_STRENGTH_FOR_CER = [
    (0.0, 0.3),
    (0.02, 0.51),
    (0.05, 0.56),
    (0.1, 0.6),
    (0.16, 0.63),
    (0.24, 0.66),
    (0.3, 0.7),
]


def strength_for(target: float) -> float:
    for (low_cer, low), (high_cer, high) in zip(
        _STRENGTH_FOR_CER, _STRENGTH_FOR_CER[1:], strict=False
    ):
        if target <= high_cer:
            return low + (high - low) * (target - low_cer) / (high_cer - low_cer)
    return _STRENGTH_FOR_CER[-1][1]


def draw(text: str) -> Image.Image:
    """Black text on a white page, one text line per image line (no re-wrapping)."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.load_default(size=FONT_SIZE)  # bundled with Pillow: the same on every machine
    lines = text.split("\n") or [""]
    line_height = int(FONT_SIZE * 1.5)
    width = max(int(font.getlength(line)) for line in lines) + 2 * MARGIN
    image = Image.new("L", (max(width, 200), line_height * len(lines) + 2 * MARGIN), 255)
    pen = ImageDraw.Draw(image)
    for number, line in enumerate(lines):
        pen.text((MARGIN, MARGIN + number * line_height), line, fill=0, font=font)
    return image


def degrade(image: Image.Image, strength: float, rng: random.Random) -> Image.Image:
    """Scan-like damage scaled by strength in [0, 1]: rotation, downscale, blur, noise, JPEG."""
    import numpy as np
    from PIL import Image, ImageFilter

    angle = rng.uniform(-1.0, 1.0) * 1.5 * strength
    image = image.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=255)
    factor = 1.0 - 0.55 * strength
    small = image.resize(
        (max(1, int(image.width * factor)), max(1, int(image.height * factor))),
        Image.Resampling.BILINEAR,
    )
    image = small.resize(image.size, Image.Resampling.BILINEAR)
    image = image.filter(ImageFilter.GaussianBlur(radius=0.4 + 1.1 * strength))
    noise = np.random.default_rng(rng.randrange(2**32)).normal(
        0, 8 + 40 * strength, (image.height, image.width)
    )
    pixels = np.clip(np.asarray(image, dtype=np.float64) + noise, 0, 255).astype(np.uint8)
    image = Image.fromarray(pixels, mode="L")
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=int(75 - 60 * strength))
    buffer.seek(0)
    return Image.open(buffer).convert("L")


def ocr(image: Image.Image) -> tuple[str, float]:
    """Tesseract's text (lines as lines) and its mean word confidence."""
    import pytesseract

    data = pytesseract.image_to_data(image, config="--psm 6", output_type=pytesseract.Output.DICT)
    lines: dict[tuple[int, int, int], list[str]] = {}
    tops: dict[tuple[int, int, int], int] = {}
    confidences = []
    for i, word in enumerate(data["text"]):
        if not word.strip():
            continue
        key = (data["block_num"][i], data["par_num"][i], data["line_num"][i])
        lines.setdefault(key, []).append(word)
        tops[key] = min(tops.get(key, data["top"][i]), data["top"][i])
        if float(data["conf"][i]) >= 0:
            confidences.append(float(data["conf"][i]))
    # Tesseract drops blank lines; put them back from the vertical gaps between lines.
    pieces, previous = [], None
    line_height = FONT_SIZE * 1.5
    for key in sorted(lines, key=lambda k: (tops[k], k)):
        if previous is not None:
            blank = max(0, round((tops[key] - previous) / line_height) - 1)
            pieces.append("\n" * (1 + blank))
        pieces.append(" ".join(lines[key]))
        previous = tops[key]
    text = "".join(pieces)
    return text, round(sum(confidences) / len(confidences), 2) if confidences else 0.0


def align(original: str, read: str) -> list[Edit]:
    """The edits that turn `original` into `read`, from a character alignment."""
    from difflib import SequenceMatcher

    matcher = SequenceMatcher(None, original, read, autojunk=False)
    return [
        Edit(i1, i2, read[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"
    ]
