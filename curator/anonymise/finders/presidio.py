"""Presidio and spaCy, set up never to touch the network.

Offline: no spaCy model is downloaded (a blank English pipeline, or an installed model named
with --ner-model / $CURATOR_NER_MODEL, see `detector.detector_for`).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from curator.errors import CuratorError

NER_ENV = "CURATOR_NER_MODEL"  # the installed spaCy model to find names with, when none is named

if TYPE_CHECKING:
    import spacy
    from presidio_analyzer.nlp_engine import SpacyNlpEngine


def offline_environment() -> None:
    """Belt and braces: tell the libraries we use that there is no network."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


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
    """The spaCy pipeline `model` names: an installed package's NAME or a path to a saved
    spaCy pipeline (`nlp.to_disk`); never downloaded."""
    import spacy

    if not (spacy.util.is_package(model) or os.path.isdir(model)):
        raise CuratorError(f"spaCy model {model!r} is not installed (curator never downloads one)")
    return spacy.load(model)
