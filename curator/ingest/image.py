"""Scanned images (.png, .jpg, .tif): every frame a page, read by the same OCR as PDFs.

An image is checked from its header before any pixel is decoded: its format, its number of
frames (a multi-page TIFF is a document of pages, at most [limits] max_pages) and the
memory each frame takes decoded ([limits] max_image_mb). A frame over the pixel budget is
decoded smaller where the format allows it (JPEG) and scaled down to the budget before OCR.
"""

from __future__ import annotations

import io
import math
from typing import Any

from curator.errors import CuratorError
from curator.ingest.pixels import fitted_scale
from curator.ingest.source import RawSource
from curator.limits import DEFAULT, hint, too_big
from curator.model import MIB, LimitSettings

IMPORTER = "image"
SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff")
FORMATS = {"PNG", "JPEG", "MPO", "TIFF"}  # MPO: a JPEG with extra frames, as phones write them


def frame_sizes(source: RawSource, limits: LimitSettings = DEFAULT) -> list[tuple[int, int]]:
    """(width, height) of every frame, from the headers alone; refused (one line) when the
    file is no image of a known format, has too many frames or a frame too large to decode."""
    sizes = _headers(source, limits)
    for number, (width, height, cost) in enumerate(sizes, start=1):
        if width * height == 0:
            raise CuratorError(f"{source.name}: page {number} has no pixels")
        if cost > limits.max_image_mb * MIB:
            raise CuratorError(
                f"{source.name}: page {number} ({width} x {height} pixels) decodes to "
                f"{too_big(cost, limits.max_image_mb * MIB, 'max_image_mb')}"
            )
    return [(width, height) for width, height, _ in sizes]


def _headers(source: RawSource, limits: LimitSettings) -> list[tuple[int, int, int]]:
    """(width, height, bytes decoded) of each frame; only headers are read."""
    from PIL import UnidentifiedImageError

    try:
        with _opened(io.BytesIO(source.data)) as image:
            if image.format not in FORMATS:
                raise CuratorError(
                    f"{source.name}: a {image.format} image; curator reads PNG, JPEG and TIFF"
                )
            count = getattr(image, "n_frames", 1)
            if count > limits.max_pages:
                raise CuratorError(
                    f"{source.name}: {count} pages is over the limit of {limits.max_pages} "
                    f"({hint('max_pages')})"
                )
            jpeg = image.format in ("JPEG", "MPO")
            sizes = []
            for index in range(count):
                image.seek(index)
                width, height = image.size
                sizes.append(
                    (
                        width,
                        height,
                        decoded_bytes(width, height, image.mode, jpeg, limits.max_page_pixels),
                    )
                )
            return sizes
    except UnidentifiedImageError:
        raise CuratorError(f"{source.name}: not a readable PNG, JPEG or TIFF image") from None
    except (
        OSError,
        ValueError,
        EOFError,
        SyntaxError,
    ) as error:  # Pillow's plugins raise these on damage
        raise CuratorError(f"{source.name}: damaged image ({type(error).__name__})") from None


def decoded_bytes(width: int, height: int, mode: str, jpeg: bool, max_pixels: int) -> int:
    """What Pillow allocates to decode a frame (one byte a pixel for bilevel, grey and
    palette images, two for 16-bit grey, four otherwise); a JPEG over the pixel budget is
    decoded at 1/2, 1/4 or 1/8 of its size (see load_frame)."""
    per_pixel = 1 if mode in ("1", "L", "P") else 2 if mode.startswith("I;16") else 4
    shrink = _jpeg_shrink(width, height, max_pixels) if jpeg else 1
    return (width // shrink + 1) * (height // shrink + 1) * per_pixel


def _jpeg_shrink(width: int, height: int, max_pixels: int) -> int:
    """The factor Pillow's draft mode decodes a JPEG smaller by: the largest of 1, 2, 4, 8
    that still leaves it at least as large as the pixel budget asks."""
    wanted = 1 / fitted_scale(width, height, 1.0, max_pixels)
    return max(factor for factor in (1, 2, 4, 8) if factor <= wanted)


def load_frame(path: str, index: int, max_pixels: int) -> tuple[Any, float]:
    """Frame `index` as a greyscale PIL image within the pixel budget, and the share of its
    width it kept (1.0: read as it is)."""
    from PIL import Image, ImageOps

    with _opened(path) as image:
        image.seek(index)
        width, height = image.size
        scale = fitted_scale(width, height, 1.0, max_pixels)
        if scale < 1 and image.format in ("JPEG", "MPO"):
            # Decoded at 1/2, 1/4 or 1/8 of its size: the full image never exists in memory.
            image.draft("L", (max(1, int(width * scale)), max(1, int(height * scale))))
        image.load()
        page = _greyscale(ImageOps.exif_transpose(image) or image)
    scale = fitted_scale(page.size[0], page.size[1], 1.0, max_pixels)
    if scale < 1:
        size = (max(1, int(page.size[0] * scale)), max(1, int(page.size[1] * scale)))
        page = page.resize(size, Image.Resampling.LANCZOS)
    return page, min(1.0, math.sqrt(page.size[0] * page.size[1] / (width * height)))


def _opened(file: Any) -> Any:
    """Image.open without Pillow's own decompression-bomb check (a warning on stderr, or an
    error that names no limit of ours): `frame_sizes` applies [limits] max_image_mb."""
    from PIL import Image

    pillows = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = None
    try:
        return Image.open(file)
    finally:
        Image.MAX_IMAGE_PIXELS = pillows


def _greyscale(image: Any) -> Any:
    """An 8-bit greyscale page from any mode: transparency over white, 16-bit and float
    samples stretched to 0-255."""
    from PIL import Image

    if image.mode in ("L", "1", "P", "RGB", "CMYK", "YCbCr", "LAB", "HSV"):
        return image.convert("L")
    if image.mode in ("RGBA", "LA", "PA", "RGBa", "La"):
        white = Image.new("RGBA", image.size, (255, 255, 255, 255))
        return Image.alpha_composite(white, image.convert("RGBA")).convert("L")
    import numpy as np

    samples = np.asarray(image, dtype=np.float64)
    low, high = float(samples.min()), float(samples.max())
    stretched = (
        (samples - low) * (255.0 / (high - low)) if high > low else np.full(samples.shape, 255.0)
    )
    return Image.fromarray(stretched.astype(np.uint8), "L")
