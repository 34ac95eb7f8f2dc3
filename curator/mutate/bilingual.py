"""`--bilingual LANG`: field label phrases in LANG, values left in the source language.

Documents that mix languages ("Locataire: Jane Doe") trip extractors keyed on English
labels. Phrases come from the glossaries shipped in curator/data/glossaries/LANG.json,
extended or overridden by [glossaries.LANG] in curator.toml. Only phrases in label
position (followed by a colon) are translated, never text inside an evidence span, so
every value keeps its characters and its span moves with the edits. langdetect (seeded)
must read the translated labels as LANG; what it read is recorded.
"""

from __future__ import annotations

import json
import random
import re
from importlib import resources
from typing import Any

from curator.errors import CuratorError
from curator.model import StoreConfig
from curator.mutate._textops import evidence_ranges, rewrite
from curator.mutate.registry import Option, Outcome, Subject, register
from curator.spans import Edit


def shipped_languages() -> list[str]:
    folder = resources.files("curator").joinpath("data", "glossaries")
    return sorted(
        p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json")
    )


def glossary(config: StoreConfig, language: str) -> dict[str, str]:
    """English label phrase -> LANG phrase: the shipped glossary with curator.toml on top."""
    merged: dict[str, str] = {}
    if language in shipped_languages():
        path = resources.files("curator").joinpath("data", "glossaries", f"{language}.json")
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    merged.update(config.glossaries.get(language, {}))
    if not merged:
        known = sorted(set(shipped_languages()) | set(config.glossaries))
        raise CuratorError(
            f"no glossary for language {language!r} (have: {', '.join(known)}; add "
            f"[glossaries.{language}] to curator.toml)"
        )
    return merged


def detect(text: str) -> tuple[str, float]:
    """langdetect's best guess and its probability, seeded so it is the same every run."""
    from langdetect import DetectorFactory, detect_langs
    from langdetect.lang_detect_exception import LangDetectException

    DetectorFactory.seed = 0
    try:
        best = detect_langs(text)[0]
    except LangDetectException:
        return "unknown", 0.0
    return best.lang, round(best.prob, 4)


@register(
    "bilingual",
    category="bilingual",
    owns="nothing: label phrases change, values and truth do not",
    options=[
        Option(
            "--bilingual",
            "language",
            str,
            "LANG",
            help="Translate field label phrases into LANG (fr, de, es, it, pt, nl...).",
        ),
    ],
)
def bilingual(subject: Subject, rng: random.Random, params: dict[str, Any]) -> Outcome:
    language = str(params.get("language", "")).lower()
    if not language:
        raise CuratorError("--bilingual needs a language code, e.g. fr")
    terms = glossary(subject.config, language)
    doc_type = subject.fixture.doc_type
    if doc_type is None or doc_type not in subject.config.doc_types:
        raise CuratorError(
            f"{subject.fixture.id} has no doc type, so no label phrases to translate"
        )
    phrases = sorted(
        {
            p
            for spec in subject.config.doc_types[doc_type].fields.values()
            for p in spec.labels
            if p in terms
        },
        key=lambda p: (-len(p), p),
    )
    if not phrases:
        raise CuratorError(
            f"the {language} glossary translates none of the {doc_type} label phrases"
        )
    pattern = re.compile(
        r"(?<!\w)(" + "|".join(re.escape(p) for p in phrases) + r")(?=[ \t]*:)", re.IGNORECASE
    )
    by_lower = {p.lower(): p for p in phrases}

    edits: dict[Any, list[Edit]] = {}
    used: dict[str, str] = {}
    for place, text in subject.content.texts():
        protected = evidence_ranges(subject.labels.fields, place)
        for match in pattern.finditer(text):
            if any(match.start() < end and start < match.end() for start, end in protected):
                continue
            source = by_lower[match.group(1).lower()]
            translation = terms[source]
            if match.group(1).isupper():
                translation = translation.upper()
            edits.setdefault(place, []).append(Edit(match.start(), match.end(), translation))
            used[source] = terms[source]
    if not used:
        raise CuratorError(
            f'{subject.fixture.id}: no {doc_type} label phrase ("Phrase:") found to translate'
        )
    detected, probability = detect("\n".join(dict.fromkeys(used.values())))
    if detected != language:
        raise CuratorError(
            f"the translated labels read as {detected!r}, not {language!r} (langdetect); "
            "extend the glossary in curator.toml or pick a fixture with more labels"
        )
    new_content, fields, _, _ = rewrite(subject.content, subject.labels.fields, edits)
    return Outcome(
        content=new_content,
        fields=fields,
        rubrics=list(subject.labels.rubrics),
        measured={
            "language": language,
            "detected": detected,
            "probability": probability,
            "replacements": sum(len(e) for e in edits.values()),
            "translated": dict(sorted(used.items())),
        },
    )
