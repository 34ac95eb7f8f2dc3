"""`--where KEY=VALUE,...`: choosing fixtures by what fixture.json says about them.

"status=reviewed,category=ocr-noise" holds for a fixture whose status is reviewed and whose
category is ocr-noise; a key given twice matches either value ("category=ocr-noise,
category=truncated"). Every key names one fact of a fixture.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from curator.errors import CuratorError
from curator.model import Fixture, Kind, Status

Where = dict[str, set[str]]

_FACTS: Mapping[str, Callable[[Fixture], set[str]]] = {
    "status": lambda f: {f.status.value},
    "kind": lambda f: {f.kind.value},
    "doc_type": lambda f: {f.doc_type or "none"},
    "category": lambda f: {f.category},
    "tag": lambda f: set(f.tags),
    "parent": lambda f: {f.lineage.parent} if f.lineage else set(),
    "mutation": lambda f: {m.name for m in f.lineage.mutations} if f.lineage else set(),
    "adversarial": lambda f: {"true" if f.adversarial else "false"},
}
_CHOICES = {
    "status": [s.value for s in Status],
    "kind": [k.value for k in Kind],
    "adversarial": ["true", "false"],
}


def parse_where(text: str) -> Where:
    """KEY=VALUE pairs separated by commas; unknown keys and impossible values are refused."""
    where: Where = {}
    for pair in text.split(","):
        key, sep, value = (part.strip() for part in pair.partition("="))
        if not pair.strip():
            continue
        if not sep or not key or not value:
            raise CuratorError(
                f"--where takes KEY=VALUE pairs separated by commas, got {pair.strip()!r}"
            )
        if key not in _FACTS:
            raise CuratorError(f"--where: unknown key {key!r} (known: {', '.join(_FACTS)})")
        if key in _CHOICES and value not in _CHOICES[key]:
            raise CuratorError(f"--where: {key} {value!r} is none of {', '.join(_CHOICES[key])}")
        where.setdefault(key, set()).add(value)
    if not where:
        raise CuratorError("--where needs at least one KEY=VALUE")
    return where


def matches(fixture: Fixture, where: Where) -> bool:
    return all(_FACTS[key](fixture) & values for key, values in where.items())
