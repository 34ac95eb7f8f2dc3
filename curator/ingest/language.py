"""Language of a page of text, deterministic: langdetect with its seed fixed."""

from __future__ import annotations

# Enough text for a stable guess; longer pages only cost time.
SAMPLE_CHARS = 2000
MIN_LETTERS = 20


def detect_language(text: str) -> str | None:
    """ISO 639-1 code (zh-cn style for Chinese), or None when there is too little text."""
    if sum(ch.isalpha() for ch in text) < MIN_LETTERS:
        return None
    from langdetect import DetectorFactory, detect
    from langdetect.lang_detect_exception import LangDetectException

    # langdetect samples randomly; a fixed seed makes the same text give the same answer.
    DetectorFactory.seed = 0
    try:
        return detect(text[:SAMPLE_CHARS])
    except LangDetectException:
        return None
