"""Presidio and spaCy, set up never to touch the network, and curator's own finders as
Presidio recognizers (`local_recognizer`), so vanilla Presidio can run the very same rules.

Offline: no spaCy model is downloaded (a blank English pipeline, or an installed model named
with --ner-model / $CURATOR_NER_MODEL, see `detector.detector_for`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from curator.errors import CuratorError

if TYPE_CHECKING:
    import spacy
    from presidio_analyzer import LocalRecognizer
    from presidio_analyzer.nlp_engine import SpacyNlpEngine

    from curator.anonymise.finders.spec import Found


def offline_environment() -> None:
    """Belt and braces: tell the libraries we use that there is no network."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def local_recognizer(entity: str, find: Callable[[str], Found]) -> LocalRecognizer:
    """One of curator's own finders as a Presidio recognizer (the detector calls `find` itself)."""
    from presidio_analyzer import LocalRecognizer, RecognizerResult

    class Finder(LocalRecognizer):
        def __init__(self) -> None:
            super().__init__(supported_entities=[entity], supported_language="en", name=f"Curator{entity.title()}Recognizer")

        def load(self) -> None:
            pass

        def analyze(self, text: str, entities: list[str], nlp_artifacts: object = None) -> list[RecognizerResult]:
            return [RecognizerResult(entity, start, end, score) for start, end, score in find(text)]

    return Finder()


def blank_nlp_engine(model: str | None = None) -> SpacyNlpEngine:
    """A Presidio spaCy engine on a blank pipeline (or an installed model), never downloading."""
    offline_environment()
    import spacy
    from presidio_analyzer.nlp_engine import SpacyNlpEngine

    class OfflineSpacyEngine(SpacyNlpEngine):
        def load(self) -> None:
            # presidio's __init__ sets nlp = None unannotated, so its type reads as None
            self.nlp = {"en": load_spacy(model) if model else spacy.blank("en")}  # type: ignore[assignment]

    engine = OfflineSpacyEngine(models=[{"lang_code": "en", "model_name": model or "blank:en"}])
    engine.load()
    return engine


def load_spacy(model: str) -> spacy.Language:
    import spacy

    if not (spacy.util.is_package(model) or os.path.isdir(model)):
        raise CuratorError(f"spaCy model {model!r} is not installed (curator never downloads one)")
    return spacy.load(model)
