"""The audit: every vault original and every unexempted PII hit left in a text is a leak.

It uses the very detectors the rewriter uses, so "anonymise then audit" is clean by
construction and anything the rewriter would have changed counts as a leak. Originals are
matched case-insensitively and across word and line breaks (terms.py). A pattern hit is
exempt when it is a pseudonym this vault handed out or lies in a reserved example range
(example domains, documentation IPs, fictional phone lines): see the README, "Anonymisation".
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from curator.anonymise.strings import strings_of

if TYPE_CHECKING:
    from curator.anonymise.detect import Detector
    from curator.anonymise.vault import Vault
    from curator.model import Fixture
    from curator.store import Store

# Without the vault a pseudonymised name cannot be told from a real one, so name hits are
# only judged when the vault is there; pattern PII is judged either way (pseudonyms sit in
# reserved ranges).
VAULT_ONLY = frozenset({"person", "organisation", "address"})

# A lone first or last name in another vault's fixture is that vault's pseudonym sharing a
# common word with one of our people ("Andrea"), not our person: only whole values count.
NAME_PARTS = frozenset({"first_name", "last_name", "nickname"})


@dataclass(frozen=True)
class Leak:
    location: str
    kind: str
    text: str
    start: int = 0
    end: int = 0

    def as_dict(self) -> dict[str, object]:
        return asdict(self)

    def __str__(self) -> str:
        return f"{self.location} [{self.start}:{self.end}] {self.kind}: {self.text!r}"


def find_leaks(
    texts: Iterable[tuple[str, str]],
    vault: Vault | None,
    *,
    synthetic: Iterable[str] = (),
    judge_names: bool = True,
    detector: Detector | None = None,
) -> list[Leak]:
    """Leaks in (location, text) pairs: vault originals and unexempted pattern/name hits.

    `synthetic` values were made up by curator itself (a contradicting amendment's new
    tenant): a name or pattern hit on one is no leak. An original is still one.
    `judge_names=False` for texts another vault anonymised (a fixture from a clone of the
    store): their pseudonyms are unknown here, so name guesses and lone name parts say
    nothing about them; whole originals (full names, emails, usernames) still count.
    `detector` defaults to `detector_for()`.
    """
    judge_names = judge_names and vault is not None
    from curator.anonymise.detect import detector_for
    from curator.anonymise.rewrite import DetectedSpan, is_safe, resolve, vault_terms
    from curator.anonymise.vault import normal

    made_up = {normal(value) for value in synthetic if value}
    pairs = [(where, text) for where, text in texts if text and text.strip()]
    terms = vault_terms(vault)
    pseudonyms = _pseudonym_terms(vault, made_up)
    detector = detector if detector is not None else detector_for()
    leaks: list[Leak] = []
    for (where, text), hits in zip(pairs, detector.detect_many(t for _, t in pairs), strict=True):
        disguised = [(m.start, m.end) for m in pseudonyms.find(text)]
        found = [DetectedSpan(m.start, m.end, f"original:{m.term.kind}", 0) for m in terms.find(text)
                 if not _inside_longer(m.start, m.end, disguised)
                 and (m.term.kind not in NAME_PARTS
                      or (judge_names and not _also_a_pseudonym_word(vault, text[m.start:m.end])))]
        found += [DetectedSpan(h.start, h.end, h.kind, 1) for h in hits
                  if not is_safe(vault, h.kind, text[h.start : h.end])
                  and normal(text[h.start : h.end]) not in made_up
                  and (judge_names or h.kind not in VAULT_ONLY)]
        leaks.extend(Leak(where, s.kind, text[s.start : s.end], s.start, s.end) for s in resolve(found))
    return leaks


def _also_a_pseudonym_word(vault: Vault | None, word: str) -> bool:
    # A lone first or last name that this vault also handed out as a pseudonym word (to
    # someone imported before a real "Rebecca" arrived) cannot be told apart: whole names
    # still decide. Known limit, in the README.
    return vault is not None and " " not in word.strip() and vault.is_pseudonym_token(word.strip())


def _pseudonym_terms(vault: Vault | None, made_up: set[str]) -> Any:
    """Values that stand in for people: the vault's pseudonyms and curator's made-up values."""
    from curator.anonymise.terms import TermIndex

    index = TermIndex()
    for value in made_up:
        index.add(value, "synthetic")
    if vault is not None:
        for entry in vault.entries():
            if entry.kind in ("person", "username", "organisation", "address"):
                index.add(entry.pseudonym, "pseudonym")
    return index


def _inside_longer(start: int, end: int, pseudonym_spans: list[tuple[int, int]]) -> bool:
    # A pseudonym handed out before a later original shared one of its words ("Smith"), or
    # a made-up name that happens to share one: inside the whole value, it is that value.
    return any(s <= start and end <= e and e - s > end - start for s, e in pseudonym_spans)


def _fixture_texts(store: Store, fixture_ids: Iterable[str]) -> Iterator[tuple[str, str]]:
    for fixture_id in fixture_ids:
        for path in store.fixture_files(fixture_id).values():
            if not path.exists():
                continue
            rel = path.relative_to(store.root)
            if path.suffix == ".jsonl":  # labels.jsonl: one revision per line
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                    if line.strip():
                        yield from strings_of(_json(path, line), f"{rel}:{number}")
            else:
                yield from strings_of(_json(path), str(rel))


def bundle_texts(bundles: Path, root: Path) -> Iterator[tuple[str, str]]:
    for path in sorted(bundles.rglob("*")):
        if not path.is_file():
            continue
        rel = str(path.relative_to(root))
        if path.suffix == ".jsonl":
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                if line.strip():
                    yield from strings_of(_json(path, line), f"{rel}:{number}")
        elif path.suffix == ".json":
            yield from strings_of(_json(path), rel)
        elif path.suffix == ".parquet":
            import pyarrow.parquet as pq

            for number, row in enumerate(pq.read_table(path).to_pylist(), start=1):
                yield from strings_of(row, f"{rel}:{number}")
        elif path.suffix in (".md", ".txt", ".csv"):
            yield rel, path.read_text(encoding="utf-8", errors="replace")


def _json(path: Path, text: str | None = None) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8") if text is None else text)
    except (ValueError, UnicodeDecodeError) as error:
        from curator.errors import CuratorError

        raise CuratorError(f"{path}: not valid JSON ({error})") from None


def audit_store(store: Store, detector: Detector | None = None) -> list[Leak]:
    """Leaks in every fixture and bundle of the store, checked against its vault."""
    from curator.anonymise.vault import Vault

    vault = Vault.load(store)
    fixtures = [store.load_fixture(fixture_id) for fixture_id in store.ids()]
    synthetic = synthetic_values(fixtures)
    ours, theirs = anonymised_here(fixtures, vault)
    leaks = find_leaks(_fixture_texts(store, ours), vault, synthetic=synthetic, detector=detector)
    leaks += find_leaks(_fixture_texts(store, theirs), vault, synthetic=synthetic, judge_names=False,
                        detector=detector)
    if store.bundles_dir.is_dir():
        # Bundles repeat fixtures judged above; here what counts is originals and patterns.
        leaks += find_leaks(bundle_texts(store.bundles_dir, store.root), vault, synthetic=synthetic,
                            judge_names=False, detector=detector)
    return sorted(leaks, key=lambda leak: (leak.location, leak.start))


def anonymised_here(fixtures: Iterable[Fixture], vault: Vault | None) -> tuple[list[str], list[str]]:
    """Fixture ids split into (judged against this vault, anonymised with another vault).

    A fixture with no vault id was never anonymised by curator (written by hand): its
    names are judged here, the strictest reading.
    """
    mine = vault.fingerprint if vault is not None else None
    ours: list[str] = []
    theirs: list[str] = []
    for fixture in fixtures:
        vault_id = fixture.provenance.vault_id
        (theirs if vault_id is not None and vault_id != mine else ours).append(fixture.id)
    return ours, theirs


def synthetic_values(fixtures: Iterable[Fixture]) -> set[str]:
    """Values curator's own mutations made up (recorded in each variant's lineage)."""
    made_up: set[str] = set()
    for fixture in fixtures:
        lineage = fixture.lineage
        for step in lineage.mutations if lineage else ():
            value = step.measured.get("new_value")
            if isinstance(value, str):
                made_up.add(value)
    return made_up
