"""Making variants: run a chain of mutations on a parent, and write the result with lineage.

Everything a variant holds derives from its parent, the mutation chain (names and params)
and the seed: its id hashes exactly those, its times are the parent's label revision
time, and each step's random generator is seeded from them. So the same call gives the
same variant id and bytes, and `refresh` can regenerate a variant when its parent's
labels move on.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from curator.errors import CuratorError
from curator.labels import anchored, truth_problems
from curator.lifecycle import refreshed_status, variant_status
from curator.model import (
    Content,
    Fixture,
    LabelRevision,
    Lineage,
    MutationStep,
    Provenance,
    Status,
    StoreConfig,
    Task,
    rubric_item,
    slugify,
)
from curator.mutate._textops import settle_evidence_text
from curator.mutate.registry import Step, Subject, get
from curator.store import FixtureRecord, Store

AUTHOR = "curator-mutate"


@dataclass
class Variant:
    fixture: Fixture
    content: Content
    revision: LabelRevision
    to_review: list[str]  # what a person must decide about its truth (see Outcome.to_review)


def variant_id(parent_id: str, steps: Sequence[Step], seed: int) -> str:
    """Readable and stable: the parent's slug, the mutation names, a hash of the whole recipe."""
    recipe = json.dumps(
        {"parent": parent_id, "steps": [s.key() for s in steps], "seed": seed}, sort_keys=True
    )
    digest = hashlib.sha256(recipe.encode()).hexdigest()[:8]
    base = "-".join(parent_id.rsplit("-", 1)[0].split("-")[:4])
    names = "-".join(slugify(s.name, 3) for s in steps)
    return f"{base}-{names}-{digest}"


def _rng(seed: int, index: int, step: Step) -> random.Random:
    # A str seed is hashed with sha512 by random, so this is stable across runs and machines.
    return random.Random(f"{seed}:{index}:{json.dumps(step.key(), sort_keys=True)}")


def apply_chain(
    parent: FixtureRecord,
    config: StoreConfig,
    steps: Sequence[Step],
    seed: int,
    *,
    variant: str | None = None,
) -> Variant:
    """Run `steps` on `parent`'s content and current labels; nothing is written.

    The truth is checked against the text (`truth_problems`) before the first step and
    after every step: a variant whose truth disagrees with its text is refused, saying why.
    """
    if not steps:
        raise CuratorError("no mutation given")
    labels = parent.labels
    if labels is None:
        raise CuratorError(
            f"{parent.fixture.id} has no label revision to transform; label it first"
        )
    mutations = [get(step.name) for step in steps]  # unknown names fail before any work
    content, current = parent.content, anchored(parent.content, labels)
    problems = truth_problems(content, current)
    if problems:
        raise CuratorError(
            f"{parent.fixture.id}: its truth disagrees with its text ({problems[0]}); "
            "fix its labels with curator label set first"
        )
    done: list[MutationStep] = []
    to_review: list[str] = []
    warnings: list[str] = []
    for index, (step, mutation) in enumerate(zip(steps, mutations, strict=True)):
        subject = Subject(fixture=parent.fixture, content=content, labels=current, config=config)
        outcome = mutation.apply(subject, _rng(seed, index, step), dict(step.params))
        content = outcome.content
        fields = settle_evidence_text(content, outcome.fields)
        tasks = current.tasks if outcome.tasks is None else outcome.tasks
        current = current.model_copy(
            update={"fields": fields, "rubrics": outcome.rubrics, "tasks": tasks}
        )
        problems = truth_problems(content, current)
        if problems:
            raise CuratorError(
                f"{parent.fixture.id}: {step.name} would make a variant whose truth disagrees "
                f"with its text ({problems[0]}); nothing written"
            )
        done.append(
            MutationStep(name=step.name, params=step.params, seed=seed, measured=outcome.measured)
        )
        to_review = [*dict.fromkeys([*to_review, *outcome.to_review])]
        warnings.extend(f"{step.name}: {w}" for w in outcome.warnings)

    recipe = " + ".join(
        f"{s.name}({', '.join(f'{k}={v}' for k, v in s.params.items())})" for s in steps
    )
    fixture = _variant_fixture(
        parent, mutations[-1].category, steps, done, seed, bool(to_review), warnings, variant
    )
    revision = LabelRevision(
        rev=1,
        time=labels.time,
        author=AUTHOR,
        source=f"mutation:{steps[-1].name}",
        reason=f"{recipe} of {parent.fixture.id} rev {labels.rev}, seed {seed}",
        fields=current.fields,
        rubrics=current.rubrics,
        tasks=_variant_tasks(current.tasks),
        locale=labels.locale,
    )
    return Variant(fixture=fixture, content=content, revision=revision, to_review=to_review)


def _variant_tasks(tasks: dict[str, Task]) -> dict[str, Task]:
    """A variant's tasks: as its rubrics and fields left them, without reference answers
    (as its default task: a reviewed answer holds for the parent's text), and without a task
    left with nothing to ask."""
    return {
        name: task.model_copy(update={"reference": None})
        for name, task in tasks.items()
        if task.rubrics or task.fields
    }


def _variant_fixture(
    parent: FixtureRecord,
    category: str,
    steps: Sequence[Step],
    done: list[MutationStep],
    seed: int,
    needs_review: bool,
    warnings: list[str],
    variant: str | None,
) -> Fixture:
    source = parent.fixture
    labels = parent.labels
    assert labels is not None
    status = variant_status(source.status, needs_review)
    names = [s.name for s in steps]
    return Fixture(
        id=variant or variant_id(source.id, steps, seed),
        kind=source.kind,
        doc_type=source.doc_type,
        category=category,
        status=status,
        tags=[*source.tags, *(f"mutation:{n}" for n in dict.fromkeys(names))],
        title=f"{source.title or source.id} ({' + '.join(names)})",
        created_at=labels.time,
        provenance=Provenance(
            source_sha256=source.provenance.source_sha256,
            source_name=source.provenance.source_name,
            source_name_anonymised=source.provenance.source_name_anonymised,
            vault_id=source.provenance.vault_id,
            importer="mutate",
            imported_at=labels.time,
            trace_id=source.provenance.trace_id,
        ),
        lineage=Lineage(parent=source.id, parent_label_rev=labels.rev, mutations=done),
        warnings=warnings,
    )


def _undecided(variant: Variant, record: FixtureRecord) -> list[str]:
    """What the re-derived variant leaves to a person that no person has decided yet: a
    reviewed or active variant's reviewers decided on every rubric its truth already had."""
    if record.fixture.status not in (Status.reviewed, Status.active) or record.labels is None:
        return variant.to_review
    labels = record.labels
    decided = {rubric_item(rubric.text) for rubric in labels.rubrics} | {
        rubric_item(rubric.text, name)
        for name, task in labels.tasks.items()
        for rubric in task.rubrics
    }
    return [item for item in variant.to_review if item not in decided]


@dataclass
class VariantReport:
    """What `mutate` and `refresh` did, one summary per variant (its id, state, lineage...)."""

    variants: list[dict[str, Any]]
    exit_code = 0

    def as_json(self) -> dict[str, Any]:
        return {"variants": self.variants}

    def render(self) -> str:
        return "\n".join(_describe(v) for v in self.variants) or "nothing to refresh"


def _describe(summary: dict[str, Any]) -> str:
    if summary["state"] == "fresh":
        return f"{summary['id']}: up to date with {summary['parent']}"
    measured = "; ".join(
        f"{m['name']} "
        + ", ".join(f"{k}={v}" for k, v in m["measured"].items() if not isinstance(v, dict | list))
        for m in summary["mutations"]
    )
    hint = (
        " (parent has newer labels: run curator mutate --refresh)"
        if summary["state"] == "stale"
        else ""
    )
    return (
        f"{summary['state']} {summary['id']} from {summary['parent']} "
        f"[{summary['category']}, {summary['status']}]: {measured}{hint}"
    )


def _summary(variant: Variant, state: str) -> dict[str, Any]:
    fixture = variant.fixture
    lineage = fixture.lineage
    assert lineage is not None
    return {
        "id": fixture.id,
        "state": state,
        "parent": lineage.parent,
        "parent_label_rev": lineage.parent_label_rev,
        "category": fixture.category,
        "status": fixture.status.value,
        "mutations": [m.model_dump(mode="json") for m in lineage.mutations],
        "expected_absent": sorted(
            n for n, f in variant.revision.fields.items() if f.expected_absent
        ),
        "warnings": fixture.warnings,
    }


def mutate(store: Store, ids: Iterable[str], steps: Sequence[Step], seed: int = 0) -> VariantReport:
    """Make one variant per parent id; all are computed before any is written (all or nothing).

    A variant that already exists is left as it is and reported as "exists" (or "stale"
    when its parent's labels have moved on since: see `refresh`).
    """
    ids = list(dict.fromkeys(ids))
    if not ids:
        raise CuratorError("give at least one fixture ID to mutate")
    made: list[tuple[Variant, str]] = []
    for parent_id in ids:
        parent = store.load(parent_id)
        variant = apply_chain(parent, store.config, steps, seed)
        state = "created"
        if store.exists(variant.fixture.id):
            existing = store.load_fixture(variant.fixture.id)
            fresh = (
                existing.lineage is not None
                and existing.lineage.parent_label_rev == variant.fixture.lineage.parent_label_rev  # type: ignore[union-attr]
            )
            state = "exists" if fresh else "stale"
        made.append((variant, state))
    with store.transaction() as txn:
        for variant, state in made:
            if state == "created":
                txn.create_fixture(variant.fixture, variant.content, [variant.revision])
    return VariantReport([_summary(v, s) for v, s in made])


def refresh(store: Store, ids: Sequence[str] = ()) -> VariantReport:
    """Regenerate variants whose parent has a newer label revision than they were made from.

    With `ids`, only those variants (each must be one); otherwise every stale variant.
    Parents are refreshed before their own variants, in one transaction.
    """
    records = {fixture_id: store.load(fixture_id) for fixture_id in store.ids()}
    for fixture_id in ids:
        if fixture_id not in records:
            store.directory(fixture_id)  # raises FixtureNotFound
        if records[fixture_id].fixture.lineage is None:
            raise CuratorError(f"{fixture_id} is not a mutation variant (it has no lineage)")
    chosen = [
        r
        for r in records.values()
        if r.fixture.lineage is not None and (not ids or r.fixture.id in ids)
    ]

    def depth(record: FixtureRecord) -> int:
        level, seen = 0, set()
        while record.fixture.lineage is not None and record.fixture.lineage.parent in records:
            if record.fixture.id in seen:
                break
            seen.add(record.fixture.id)
            record, level = records[record.fixture.lineage.parent], level + 1
        return level

    results: list[dict[str, Any]] = []
    updates: list[tuple[Variant, FixtureRecord]] = []
    for record in sorted(chosen, key=lambda r: (depth(r), r.fixture.id)):
        lineage = record.fixture.lineage
        assert lineage is not None
        parent = records.get(lineage.parent)
        if parent is None:
            raise CuratorError(
                f"{record.fixture.id}: its parent {lineage.parent} is not in the store"
            )
        current = parent.labels.rev if parent.labels else 0
        if current <= lineage.parent_label_rev:
            if ids:
                results.append(
                    {"id": record.fixture.id, "state": "fresh", "parent": lineage.parent}
                )
            continue
        steps = [Step(m.name, dict(m.params)) for m in lineage.mutations]
        variant = apply_chain(
            parent, store.config, steps, lineage.mutations[0].seed, variant=record.fixture.id
        )
        # What people added to the variant since (tags, known bad answers, review notes) stays,
        # and so does the status they gave it, unless a person must decide something new.
        before = record.fixture
        fixture = variant.fixture.model_copy(
            update={
                "created_at": before.created_at,
                "tags": list(dict.fromkeys([*variant.fixture.tags, *before.tags])),
                "known_bad": before.known_bad,
                "review": before.review,
                "status": refreshed_status(before.status, _undecided(variant, record)),
            }
        )
        revision = variant.revision.model_copy(
            update={"reason": f"refresh: {variant.revision.reason}"}
        )
        variant = Variant(
            fixture=fixture, content=variant.content, revision=revision, to_review=variant.to_review
        )
        updates.append((variant, record))
        records[record.fixture.id] = FixtureRecord(
            fixture=fixture,
            content=variant.content,
            revisions=[
                *record.revisions,
                revision.model_copy(update={"rev": len(record.revisions) + 1}),
            ],
            directory=record.directory,
        )
        results.append(_summary(variant, "refreshed"))
    with store.transaction() as txn:
        for variant, _ in updates:
            txn.save_content(variant.fixture.id, variant.content)
            txn.append_revision(variant.fixture.id, variant.revision)
            txn.save_fixture(variant.fixture)
    return VariantReport(results)
