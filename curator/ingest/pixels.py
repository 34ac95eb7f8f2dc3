"""The pixel budget of an OCR page: the scale at which a page fits what OCR may spend on it.

[limits] max_page_pixels bounds the memory and time of one page (Tesseract needs several
bytes per pixel); Tesseract itself refuses an image with a side over 32767 pixels. A PDF
page is rendered at the fitted scale, an image decoded or resized to it: either way the
large image is never made.
"""

from __future__ import annotations

import math

# Tesseract refuses a side over 32767 pixels; a margin for the deskew's rotation.
MAX_SIDE = 30000


def fitted_scale(width: float, height: float, scale: float, max_pixels: int) -> float:
    """`scale`, reduced so that a width x height page comes out within `max_pixels` and
    Tesseract's side limit."""
    pixels = width * height * scale * scale
    if pixels > max_pixels:
        scale *= math.sqrt(max_pixels / pixels)
    side = max(width, height) * scale
    if side > MAX_SIDE:
        scale *= MAX_SIDE / side
    return scale
