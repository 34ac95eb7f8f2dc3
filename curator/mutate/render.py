"""`--ocr-noise [CER] --render`: the real path: render, degrade, OCR with Tesseract, realign.

Each page's text is drawn with Pillow, degraded (slight rotation, downscale, blur, pixel
noise, JPEG artefacts; stronger for a higher requested CER), and read back with Tesseract
through pytesseract. The OCR text is aligned to the original (difflib), the alignment's
differences become `Edit`s, and `apply_edits` both rebuilds the OCR text and maps every
evidence span into it; a value whose characters were lost entirely becomes expected-absent.
The CER Tesseract really produced is measured and recorded next to the requested one.
"""

from __future__ import annotations

import io
import random
from typing import TYPE_CHECKING, Any

from curator.errors import CuratorError
from curator.model import DocumentContent, FieldLabel
from curator.mutate._measure import cer as rate
from curator.mutate._measure import levenshtein
from curator.mutate._textops import rewrite
from curator.mutate.ocr_noise import DEFAULT_CER, MAX_CER
from curator.mutate.registry import Outcome, Subject, Switch, register
from curator.spans import Edit

if TYPE_CHECKING:
    from PIL import Image

FONT_SIZE = 24
MARGIN = 40


@register(
    "ocr-render",
    category="ocr-noise",
    owns="evidence_text (what Tesseract read); values stay clean",
    options=[Switch("--render", of="--ocr-noise", help="With --ocr-noise: render, degrade and really OCR the pages.")],
)
def ocr_render(subject: Subject, rng: random.Random, params: dict[str, Any]) -> Outcome:
    content = subject.content
    if not isinstance(content, DocumentContent):
        raise CuratorError(f"{subject.fixture.id}: --render applies to documents (pages), not threads")
    target = float(params.get("cer", DEFAULT_CER))
    if not 0 < target <= MAX_CER:
        raise CuratorError(f"--ocr-noise CER must be in (0, {MAX_CER}], got {target}")
    strength = strength_for(target)
    edits: dict[Any, list[Edit]] = {}
    confidences: dict[int, float] = {}
    distance = length = 0
    for page in content.pages:
        image = degrade(draw(page.text), strength, rng)
        read, confidence = ocr(image)
        confidences[page.number] = confidence
        page_edits = align(page.text, read)
        edits[("page", page.number)] = page_edits
        distance += levenshtein(page.text, read)
        length += len(page.text)
    new_content, fields, _, lost = rewrite(content, subject.labels.fields, edits)
    for name in lost:
        fields[name] = FieldLabel(type=fields[name].type, value=None, expected_absent=True)
    pages = [
        p.model_copy(update={"origin": "ocr", "ocr_confidence": confidences[p.number]}) for p in new_content.pages
    ]
    return Outcome(
        content=new_content.model_copy(update={"pages": pages}),
        fields=fields,
        rubrics=list(subject.labels.rubrics),
        measured={"cer": round(rate(distance, length), 4), "requested_cer": target,
                  "char_errors": distance, "chars": length, "lost_fields": sorted(lost)},
        warnings=[f"Tesseract lost the value of {name}; it is expected-absent in this variant" for name in lost],
    )


# Degradation strength that made Tesseract 5 reach a CER on the sample leases (measured
# once by sweeping strength; Tesseract's error rate is steep in it, so this is approximate
# and the CER really reached is what gets recorded).
_STRENGTH_FOR_CER = [(0.0, 0.3), (0.02, 0.48), (0.05, 0.52), (0.08, 0.55), (0.16, 0.6), (0.24, 0.65), (0.3, 0.7)]


def strength_for(target: float) -> float:
    for (low_cer, low), (high_cer, high) in zip(_STRENGTH_FOR_CER, _STRENGTH_FOR_CER[1:], strict=False):
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
    small = image.resize((max(1, int(image.width * factor)), max(1, int(image.height * factor))), Image.Resampling.BILINEAR)
    image = small.resize(image.size, Image.Resampling.BILINEAR)
    image = image.filter(ImageFilter.GaussianBlur(radius=0.4 + 1.1 * strength))
    noise = np.random.default_rng(rng.randrange(2**32)).normal(0, 8 + 40 * strength, (image.height, image.width))
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
    return [Edit(i1, i2, read[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]
