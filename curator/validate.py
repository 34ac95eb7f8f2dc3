"""`curator validate`: schema, lineage and label integrity of the whole store.

Labels are checked with `curator.labels.truth_problems`, the definition mutate and
label set use too. It takes the store lock, which removes what killed commands left
(curator.store.Store.remove_leftovers), and reports what could not be removed. Retired
fixtures are out of every bundle and never fail validation.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from curator.errors import CuratorError
from curator.labels import truth_problems
from curator.model import Kind, Status
from curator.store import FixtureRecord, Store


@dataclass(frozen=True)
class Finding:
    fixture: str
    problem: str
    kind: str = "invalid"  # invalid | stale

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


def validate_store(store: Store) -> list[Finding]:
    """Every problem in the store; an empty list means it is sound."""
    records: dict[str, FixtureRecord] = {}
    store.config  # noqa: B018 - a broken curator.toml is a usage error, raised here
    findings = _leftovers(store)  # first: a killed command's commit is completed before reading
    for fixture_id in store.ids():
        try:
            records[fixture_id] = store.load(fixture_id)
        except CuratorError as error:
            findings.append(Finding(fixture_id, str(error)))
    for fixture_id, record in records.items():
        if record.fixture.status is Status.retired:
            continue
        findings.extend(Finding(fixture_id, p) for p in _fixture_problems(store, record))
        findings.extend(_lineage_findings(record, records))
    findings.extend(_stray_entries(store))
    return findings


def _fixture_problems(store: Store, record: FixtureRecord) -> list[str]:
    fixture, content = record.fixture, record.content
    problems = []
    if fixture.id != record.directory.name:
        problems.append(f"fixture.json id {fixture.id!r} does not match its folder")
    expected_folder = store.folder_for(fixture)
    if record.directory.parent != expected_folder:
        problems.append(
            f"belongs in {expected_folder.name}/, found in {record.directory.parent.name}/"
        )
    if fixture.kind.value != content.kind:
        problems.append(f"fixture kind {fixture.kind} but content is a {content.kind}")
    categories = store.config.store.categories
    if categories and fixture.category not in categories:
        problems.append(f"category {fixture.category!r} is not in curator.toml")
    doc_spec = None
    if fixture.doc_type is not None:
        doc_spec = store.config.doc_types.get(fixture.doc_type)
        if doc_spec is None:
            problems.append(f"unknown doc type {fixture.doc_type!r}")
    elif fixture.kind is Kind.document:
        problems.append(
            f"a document fixture needs a doc type (curator label set {fixture.id} --doc-type T, "
            "T one of "
            f"{', '.join(sorted(store.config.doc_types)) or 'the doc types of curator.toml'})"
        )
    for expected, revision in enumerate(record.revisions, start=1):
        if revision.rev != expected:
            problems.append(f"labels.jsonl: revision {expected} is numbered {revision.rev}")
            break
    for revision in record.revisions[-1:]:
        for name, label in revision.fields.items():
            if doc_spec is not None and name not in doc_spec.fields:
                problems.append(f"field {name}: not a field of doc type {fixture.doc_type}")
            elif doc_spec is not None and doc_spec.fields[name].type != label.type:
                problems.append(
                    f"field {name}: type {label.type} but the doc type says "
                    f"{doc_spec.fields[name].type}"
                )
        problems.extend(truth_problems(content, revision))
    return problems


def _lineage_findings(record: FixtureRecord, records: dict[str, FixtureRecord]) -> list[Finding]:
    lineage = record.fixture.lineage
    if lineage is None:
        return []
    parent = records.get(lineage.parent)
    if parent is None:
        return [Finding(record.fixture.id, f"lineage: parent {lineage.parent} is not in the store")]
    if parent.fixture.kind != record.fixture.kind:
        return [
            Finding(
                record.fixture.id, f"lineage: parent {lineage.parent} is a {parent.fixture.kind}"
            )
        ]
    current = parent.labels.rev if parent.labels else 0
    if lineage.parent_label_rev > current:
        return [
            Finding(
                record.fixture.id,
                f"lineage: made from rev {lineage.parent_label_rev} of {lineage.parent}, which "
                f"has only {current}",
            )
        ]
    if lineage.parent_label_rev < current:
        return [
            Finding(
                record.fixture.id,
                f"stale: made from rev {lineage.parent_label_rev} of {lineage.parent}, now at "
                f"rev {current} (run `curator mutate --refresh`)",
                kind="stale",
            )
        ]
    return []


def _leftovers(store: Store) -> list[Finding]:
    """What killed commands left and taking the lock could not remove (or complete)."""
    with store.locked():  # taking it removes what it can
        left = store.remove_leftovers()
    return [Finding(path.name, f"leftover {path} could not be removed") for path in left]


def _stray_entries(store: Store) -> list[Finding]:
    return [Finding(name, f"stray entry {path}") for name, path in store.strays()]
