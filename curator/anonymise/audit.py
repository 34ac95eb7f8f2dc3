"""The audit: whatever `personal.PersonalData` calls personal data in a stored text is a leak.

The rewriter rewrites exactly what it finds, so "anonymise then audit" is clean by
construction and anything the rewriter would have changed counts as a leak: vault originals
(case-insensitively, across word and line breaks, inside URLs and percent-encoded text),
unexempted detector hits and @mentions of people. A hit is exempt when it is a pseudonym this
vault handed out, lies in a reserved example range (example domains, documentation IPs,
fictional phone lines) or was kept by the user's decision: see docs/guide/anonymise.md.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from curator.anonymise.json_strings import texts_of

if TYPE_CHECKING:
    from curator.anonymise.finders.detector import Detector
    from curator.anonymise.inherited import Parent
    from curator.anonymise.keep import Keep
    from curator.anonymise.personal import DetectedSpan
    from curator.anonymise.vault import Vault
    from curator.model import Fixture
    from curator.store import Store


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
    keep: Keep | None = None,
    known_until: int | None = None,
    parent_of: Callable[[str], Parent | None] | None = None,
    ids_in: Callable[[str], bool] | None = None,
) -> list[Leak]:
    """Leaks in (location, text) pairs: what `personal.PersonalData` calls personal data.

    `synthetic` values were made up by curator itself (a contradicting amendment's new
    tenant): a name or pattern hit on one is no leak. An original is still one.
    `judge_names=False` for texts another vault anonymised (a fixture from a clone of the
    store): their pseudonyms are unknown here, so name guesses and lone name parts say
    nothing about them; whole originals (full names, emails, usernames) still count.
    `keep`: terms and hosts the user decided are not personal. `known_until`: judge against
    the originals the vault held when it held that many entries (a fixture's
    `provenance.vault_entries`). `detector` defaults to `detector_for()`. `parent_of(location)`:
    the parent of the variant a text belongs to, if any; a span all of whose words come from
    the parent's text through the mutation is no new leak (inherited.py). `ids_in(location)`:
    whether a bare Mattermost-shaped id that is no pseudonym of the vault is a leak there,
    as in a thread's or conversation's content the rewriter remapped every one
    (`Judging.ids`); other texts (notes, typed labels) had theirs remapped only where the
    vault knew them, and are judged so.
    """
    from curator.anonymise.finders.detector import detector_for
    from curator.anonymise.keep import NOTHING_KEPT
    from curator.anonymise.personal import PersonalData

    detector = detector if detector is not None else detector_for()
    readers = [
        PersonalData(
            vault,
            detector,
            keep=keep or NOTHING_KEPT,
            synthetic=synthetic,
            judge_names=judge_names,
            known_until=known_until,
            ids=ids,
        )
        for ids in (False, True)
    ]
    pairs = [(where, text) for where, text in texts if text and text.strip()]
    reader_of = [readers[ids_in is not None and ids_in(where)] for where, _ in pairs]
    found: dict[int, list[DetectedSpan]] = {}
    for personal in readers:
        mine = [k for k, reader in enumerate(reader_of) if reader is personal]
        found.update(zip(mine, personal.spans_many([pairs[k][1] for k in mine]), strict=True))
    leaks: list[Leak] = []
    for k, (where, text) in enumerate(pairs):
        spans = found[k]
        parent = parent_of(where) if spans and parent_of is not None else None
        if parent is not None:
            spans = parent.new_spans(text, spans, reader_of[k])
        leaks.extend(
            Leak(where, span_kind(s), text[s.start : s.end], s.start, s.end) for s in spans
        )
    return leaks


def in_content_file(location: str) -> bool:
    """Whether a store location ("goldens/<id>/content.json.export...") is in a content file."""
    from curator.store import CONTENT_FILE

    return location.split("/", 2)[2].startswith(CONTENT_FILE)


def span_kind(span: DetectedSpan) -> str:
    """What a leak report calls a span: `original:<kind>` for a known original."""
    return f"original:{span.kind}" if span.rank == 0 else span.kind


def _fixture_texts(
    store: Store, fixture_ids: Iterable[str], vault: Vault | None
) -> Iterator[tuple[str, str]]:
    ours = _ours(vault)
    for fixture_id in fixture_ids:
        for path in store.fixture_files(fixture_id).values():
            if not path.exists():
                continue
            rel = path.relative_to(store.root)
            if path.suffix == ".jsonl":  # labels.jsonl: one revision per line
                for number, line in enumerate(
                    path.read_text(encoding="utf-8").splitlines(), start=1
                ):
                    if line.strip():
                        yield from texts_of(_json(path, line), f"{rel}:{number}", ours=ours)
            else:
                yield from texts_of(_json(path), str(rel), ours=ours)


def bundle_texts(bundles: Path, root: Path, vault: Vault | None) -> Iterator[tuple[str, str]]:
    ours = _ours(vault)
    for path in sorted(bundles.rglob("*")):
        if not path.is_file():
            continue
        rel = str(path.relative_to(root))
        if path.suffix == ".jsonl":
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                if line.strip():
                    yield from texts_of(_json(path, line), f"{rel}:{number}", ours=ours)
        elif path.suffix == ".json":
            yield from texts_of(_json(path), rel, ours=ours)
        elif path.suffix == ".parquet":
            import pyarrow.parquet as pq

            for number, row in enumerate(pq.read_table(path).to_pylist(), start=1):
                yield from texts_of(row, f"{rel}:{number}", ours=ours)
        elif path.suffix in (".md", ".txt", ".csv"):
            yield rel, path.read_text(encoding="utf-8", errors="replace")


def _ours(vault: Vault | None) -> Callable[[str], bool]:
    """Whether an id is one this vault handed out: the id mapping's, not a text to judge."""
    return vault.is_pseudonym if vault is not None else (lambda _: False)


def _json(path: Path, text: str | None = None) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8") if text is None else text)
    except (ValueError, UnicodeDecodeError) as error:
        from curator.errors import CuratorError

        raise CuratorError(f"{path}: not valid JSON ({error})") from None


def audit_store(store: Store, detector: Detector | None = None) -> list[Leak]:
    """Leaks in every fixture and bundle of the store, checked against its vault.

    What a fixture's provenance says was kept by decision (and `[anonymise]` in curator.toml)
    is no leak; a thread attachment that is no text is one, since nothing shows it names nobody.
    A fixture unchanged since its last verdict, judged the same way, keeps it (verdicts.py):
    the detector is built only when some fixture is judged.
    """
    from curator.anonymise.vault import Vault
    from curator.anonymise.verdicts import Verdicts, fixture_key, judge_context

    vault = Vault.load(store)
    fixtures = [store.load_fixture(fixture_id) for fixture_id in store.ids()]
    synthetic = synthetic_values(fixtures)
    verdicts = Verdicts.read(store, judge_context(store, detector, synthetic))
    own = {fixture.id: fixture_key(store, fixture.id) for fixture in fixtures}
    # a variant is judged against its parent (inherited.py): its verdict depends on both
    keys = {
        fixture.id: own[fixture.id]
        + (
            own[fixture.lineage.parent]
            if fixture.lineage is not None and fixture.lineage.parent in own
            else ""
        )
        for fixture in fixtures
    }
    leaks: list[Leak] = []
    todo = []
    for fixture in fixtures:
        cached = verdicts.get(fixture.id, keys[fixture.id])
        if cached is None:
            todo.append(fixture)
        else:
            leaks += [Leak(**leak) for leak in cached]
    ours, _ = anonymised_here(fixtures, vault)
    mine = set(ours)
    parents = parents_of(store, todo, vault)
    found: list[Leak] = []
    for judging, ids in fixture_groups(store, todo, mine, vault).items():
        found += find_leaks(
            _fixture_texts(store, ids, vault),
            vault,
            synthetic=synthetic,
            judge_names=judging.names,
            detector=detector,
            keep=judging.keep,
            known_until=judging.until,
            parent_of=lambda where: parents.get(Path(where).parts[1]),
            ids_in=in_content_file if judging.ids else None,
        )
    found += [
        Leak(where, "attachment that is no text", "")
        for where in _undecodable(store, [f.id for f in todo])
    ]
    folders = {f"{store.directory(f.id).relative_to(store.root)}/": f.id for f in todo}
    judged: dict[str, list[Leak]] = {f.id: [] for f in todo}
    for leak in found:
        judged[folders[_folder(leak.location)]].append(leak)
    for fixture_id, fixture_leaks in judged.items():
        verdicts.put(fixture_id, keys[fixture_id], [leak.as_dict() for leak in fixture_leaks])
    verdicts.save()
    leaks += found
    if store.bundles_dir.is_dir():
        # Bundles repeat fixtures judged above; here what counts is originals and patterns.
        leaks += find_leaks(
            bundle_texts(store.bundles_dir, store.root, vault),
            vault,
            synthetic=synthetic,
            judge_names=False,
            detector=detector,
            keep=store_keep(store, fixtures),
        )
    return sorted(leaks, key=lambda leak: (leak.location, leak.start))


def parents_of(store: Store, fixtures: Iterable[Fixture], vault: Vault | None) -> dict[str, Parent]:
    """Each variant's parent, by the variant's id, for those whose parent is in the store (a
    variant whose parent was removed is judged on its own)."""
    from curator.anonymise.inherited import Parent

    def texts(parent_id: str) -> Callable[[], Iterator[str]]:
        return lambda: (text for _, text in _fixture_texts(store, [parent_id], vault))

    shared: dict[str, Parent] = {}
    found: dict[str, Parent] = {}
    for fixture in fixtures:
        if fixture.lineage is not None and store.exists(fixture.lineage.parent):
            parent_id = fixture.lineage.parent
            found[fixture.id] = shared.setdefault(parent_id, Parent(texts(parent_id)))
    return found


def _folder(location: str) -> str:
    """ "goldens/<id>/labels.jsonl:3" -> "goldens/<id>/": the fixture a leak was found in."""
    return location[: location.index("/", location.index("/") + 1) + 1]


def store_keep(store: Store, fixtures: Iterable[Fixture] = ()) -> Keep:
    """What curator.toml keeps, plus what the given fixtures' provenance records as kept."""
    from curator.anonymise.keep import Keep

    fixtures = list(fixtures)
    keep = Keep.of(store.config.anonymise)
    return keep.merged(
        [t for f in fixtures for t in f.provenance.kept],
        [h for f in fixtures for h in f.provenance.kept_hosts],
    )


class Judging(NamedTuple):
    """How a group of fixtures is judged."""

    names: bool  # name guesses and lone name parts count: the fixture was anonymised here
    keep: Keep  # the kept terms and hosts: the store's and each fixture's own decisions
    until: int | None  # the vault's size when it anonymised them (None: all its originals)
    # bare ids count: a thread or conversation this vault anonymised, whose every id the
    # rewriter remapped (another vault's ids are no pseudonyms of this one)
    ids: bool


def fixture_groups(
    store: Store, fixtures: Iterable[Fixture], mine: set[str], vault: Vault | None
) -> dict[Judging, list[str]]:
    """Fixture ids grouped by how they are judged (`Judging`)."""
    groups: dict[Judging, list[str]] = {}
    base = store_keep(store)
    for fixture in fixtures:
        keep = base.merged(fixture.provenance.kept, fixture.provenance.kept_hosts)
        ours = vault is not None and fixture.provenance.vault_id == vault.fingerprint
        until = fixture.provenance.vault_entries if ours else None
        ids = ours and fixture.kind != "document"
        groups.setdefault(Judging(fixture.id in mine, keep, until, ids), []).append(fixture.id)
    return groups


def _undecodable(store: Store, fixture_ids: Iterable[str]) -> Iterator[str]:
    from curator.anonymise.json_strings import undecodable_attachments
    from curator.store import CONTENT_FILE

    for fixture_id in fixture_ids:
        path = store.fixture_files(fixture_id).get(CONTENT_FILE)
        if path is not None and path.exists():
            yield from undecodable_attachments(_json(path), str(path.relative_to(store.root)))


def anonymised_here(
    fixtures: Iterable[Fixture], vault: Vault | None
) -> tuple[list[str], list[str]]:
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
