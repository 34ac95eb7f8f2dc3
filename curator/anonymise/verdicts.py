"""The audit's verdicts kept between runs, so a second `curator audit` judges only what changed.

A verdict (the leaks found in one fixture, or none) is reused only while everything it
depends on is unchanged: the fixture's three files byte for byte (its provenance says what
it kept and which vault entries it was judged against), and the judge itself, the
`context`: the vault file (an add or a forget changes it, and so its MAC), curator.toml's
`[anonymise]` keep terms and hosts, the values curator's mutations made up, the detector's
configuration (a NER model) and the anonymiser's own code and name lists (the normal view
included), hashed. Any of those changed re-judges every fixture.

The cache is local (.curator/cache/, never committed or bundled, like the vault whose
originals it may quote), written by atomic rename, and disposable: one that cannot be read,
is malformed or was written for another context is ignored and the fixtures are judged
again. A cache that cannot be written only makes the next audit slower.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from curator import __version__, atomic

if TYPE_CHECKING:
    from curator.anonymise.finders.detector import Detector
    from curator.store import Store

VERDICTS_FILE = "cache/audit-verdicts.json"
FORMAT = "curator-audit-verdicts-1"
# a verdict: its leaks, each as `audit.Leak.as_dict()` gives it (this module knows no Leak)
LEAK_MEMBERS = {"location": str, "kind": str, "text": str, "start": int, "end": int}
Verdict = list[dict[str, Any]]


def digest(parts: Iterable[str | bytes]) -> str:
    """sha256 of the parts, each length-prefixed so that no two lists of parts collide."""
    hasher = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        hasher.update(len(data).to_bytes(8, "big"))
        hasher.update(data)
    return hasher.hexdigest()


@cache
def anonymiser_fingerprint() -> str:
    """Every file of curator/anonymise (code, name lists, gazetteer) and the text view's
    offset maps, hashed: a change to how anything is judged makes old verdicts stale."""
    package = Path(__file__).resolve().parent
    files = [p for p in package.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    files.append(package.parent / "spans.py")
    parts: list[str | bytes] = [__version__]
    for path in sorted(files):
        parts += [str(path.relative_to(package.parent)), path.read_bytes()]
    return digest(parts)


def detector_configuration(detector: Detector | None) -> str:
    """The NER model and entities a detector finds with; for None, `detector_for()`'s, told
    without building it (that takes seconds: a cached audit never does)."""
    from curator.anonymise.finders.presidio import NER_ENV

    model, entities = (
        detector.configuration if detector is not None else (os.environ.get(NER_ENV) or None, ())
    )
    return json.dumps([model, list(entities)])


def judge_context(store: Store, detector: Detector | None, synthetic: Iterable[str]) -> str:
    """What every verdict of this store depends on beyond the fixture itself."""
    from curator.anonymise.vault import VAULT_FILE

    vault = store.local_path(VAULT_FILE)
    return digest(
        [
            anonymiser_fingerprint(),
            detector_configuration(detector),
            vault.read_bytes() if vault.is_file() else b"",
            json.dumps(store.config.anonymise.model_dump(mode="json"), sort_keys=True),
            *sorted(synthetic),
        ]
    )


def fixture_key(store: Store, fixture_id: str) -> str:
    """The fixture's id, where it is (a verdict names its files) and the bytes of its files
    (a missing one counts as missing)."""
    parts: list[str | bytes] = [fixture_id]
    for _, path in sorted(store.fixture_files(fixture_id).items()):
        parts += [str(path.relative_to(store.root)), path.read_bytes() if path.is_file() else b""]
        parts.append("present" if path.is_file() else "missing")
    return digest(parts)


class Verdicts:
    """The cached leaks of each fixture under one context: `get` a fixture's, `put` new ones,
    `save` those of the fixtures audited now (a removed fixture's verdict goes with it)."""

    def __init__(self, path: Path, context: str, known: dict[str, tuple[str, Verdict]]):
        self.path = path
        self.context = context
        self._known = known
        self._now: dict[str, tuple[str, Verdict]] = {}

    @classmethod
    def read(cls, store: Store, context: str, file: str = VERDICTS_FILE) -> Verdicts:
        """The verdicts kept in the store's local `file` (the audit's, or the bundle gate's
        whose texts are a bundle's lines and so are cached apart) for this context."""
        path = store.local_path(file)
        return cls(path, context, _parse(path, context))

    def get(self, fixture_id: str, key: str) -> Verdict | None:
        """The fixture's leaks when judged as it is now under this context, else None."""
        cached = self._known.get(fixture_id)
        if cached is None or cached[0] != key:
            return None
        self._now[fixture_id] = cached
        return cached[1]

    def put(self, fixture_id: str, key: str, leaks: Verdict) -> None:
        self._now[fixture_id] = (key, leaks)

    def save(self) -> None:
        data = {
            "format": FORMAT,
            "context": self.context,
            "fixtures": {
                fixture_id: {"key": key, "leaks": leaks}
                for fixture_id, (key, leaks) in sorted(self._now.items())
            },
        }
        try:
            atomic.write_bytes(self.path, json.dumps(data, separators=(",", ":")).encode())
        except OSError:  # a read-only store is still audited: only the next run is slower
            pass


def _parse(path: Path, context: str) -> dict[str, tuple[str, Verdict]]:
    """The cache's verdicts, or none at all when anything about it is not as written."""
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return {}
    fixtures = data.get("fixtures")
    if data.get("context") != context or not isinstance(fixtures, dict):
        return {}
    known: dict[str, tuple[str, Verdict]] = {}
    for fixture_id, verdict in fixtures.items():
        if not isinstance(verdict, dict) or not isinstance(verdict.get("key"), str):
            return {}
        leaks = verdict.get("leaks")
        if not isinstance(leaks, list) or not all(_is_leak(leak) for leak in leaks):
            return {}
        known[fixture_id] = (verdict["key"], leaks)
    return known


def _is_leak(value: object) -> bool:
    return (
        isinstance(value, dict)
        and set(value) == set(LEAK_MEMBERS)
        and all(type(value[name]) is kind for name, kind in LEAK_MEMBERS.items())
    )
