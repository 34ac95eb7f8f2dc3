"""`promote`: production failure records in, anonymised adversarial fixtures out.

Per record: parse, read the input with the importers' parsers, build the corrections as a
label revision (source "promote") and the observed output as a known-bad answer, run all
of it through the anonymiser with the store's vault, then skip it if its trace was already
promoted or a near-duplicate fixture covers it, else stage the fixture. Nothing is written
until the whole batch has been looked at; then the vault, the fixtures (one transaction,
each fixture published whole) and the dedup index are saved, in that order, so a crash
never leaves a fixture whose pseudonyms the vault cannot reproduce, and re-running the
batch promotes only what is missing (its written traces are no-ops).

Labels of a promoted fixture (decided here, documented in docs/guide/promote.md):
- corrected fields and rubrics are the ground truth;
- an output field that was NOT corrected is carried over only when its value occurs in the
  input (so it has evidence): the reporter saw it and did not object. An uncorrected value
  that occurs nowhere in the input is left out (it may be the hallucination) with a warning;
- status is `reviewed` when the corrections alone give every field of the doc type (or, for
  a thread or a conversation, at least one rubric), otherwise `needs-review`.

A trace export (OTLP JSON, Langfuse, LangSmith, OpenAI logs: curator.promote.traces) is
read as the failure records of its failed (or `where`-selected) calls: each becomes a
conversation fixture, its trace and span ids in provenance, the feedback or score comment
its note.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from curator import clock
from curator.config import doc_type as doc_type_spec
from curator.errors import CuratorError, first_problem
from curator.ingest.threads import anonymised_warnings
from curator.labels import default_author, evidence_text, locate, revise
from curator.lifecycle import promoted_status
from curator.model import (
    FAILURE_MODES,
    Content,
    DocTypeSpec,
    DocumentContent,
    FailureRecord,
    FieldLabel,
    FieldType,
    Fixture,
    Kind,
    KnownBadAnswer,
    LabelRevision,
    Provenance,
    Rubric,
)
from curator.promote.calls import parse_where
from curator.promote.dedup import DedupIndex
from curator.promote.inputs import read_input
from curator.promote.record import RecordLine, Rejection, read_records
from curator.promote.traces import is_trace_export, trace_records
from curator.store import Store, Transaction, fixture_id

if TYPE_CHECKING:
    from curator.anonymise import Keep, Used, Vault

IMPORTER = "promote"


@dataclass(frozen=True)
class Promoted:
    line: int
    trace_id: str
    fixture_id: str
    status: str
    category: str
    near_duplicate_of: str | None = None


@dataclass(frozen=True)
class Duplicate:
    line: int
    trace_id: str
    fixture_id: str
    reason: str
    similarity: float | None = None


@dataclass
class PromoteSummary:
    promoted: list[Promoted] = field(default_factory=list)
    duplicates: list[Duplicate] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        return 2 if self.rejected else 0

    def as_json(self) -> dict[str, Any]:
        return {
            "promoted": [asdict(p) for p in self.promoted],
            "duplicates": [asdict(d) for d in self.duplicates],
            "rejected": [r.as_dict() for r in self.rejected],
            "counts": {
                "promoted": len(self.promoted),
                "duplicates": len(self.duplicates),
                "rejected": len(self.rejected),
            },
        }

    def render(self) -> str:
        lines = []
        for p in self.promoted:
            extra = (
                f", near-duplicate of {p.near_duplicate_of} kept by --force"
                if p.near_duplicate_of
                else ""
            )
            lines.append(
                f"promoted   {p.fixture_id}  (line {p.line}, trace {p.trace_id}, {p.status}{extra})"
            )
        for d in self.duplicates:
            lines.append(f"duplicate  line {d.line}, trace {d.trace_id}: {d.reason}")
        for r in self.rejected:
            lines.append(f"rejected   line {r.line}: {r.reason}")
        lines.append(
            f"{len(self.promoted)} promoted, {len(self.duplicates)} duplicate"
            f"{'' if len(self.duplicates) == 1 else 's'}, {len(self.rejected)} rejected"
        )
        return "\n".join(lines)


def check_mode(mode: str | None) -> None:
    if mode is not None and mode not in FAILURE_MODES:
        raise CuratorError(f"unknown failure mode {mode!r} (known: {', '.join(FAILURE_MODES)})")


def promote(
    store: Store,
    path: Path,
    failure_mode: str | None = None,
    force: bool = False,
    *,
    ocr: str = "auto",
    author: str | None = None,
    where: Sequence[str] = (),
) -> PromoteSummary:
    """Promote every failure record in `path` (JSON, or JSONL for many), or the failed
    calls of a trace export (curator.promote.traces; `where` selects others); see the
    module doc."""
    from curator.anonymise import Vault

    check_mode(failure_mode)
    clauses = parse_where(where)
    entries: list[RecordLine | Rejection]
    if is_trace_export(path, store.limits):
        entries = list(trace_records(path, clauses, failure_mode, store.limits))
    elif clauses:
        raise CuratorError(
            f"{path.name}: --where selects calls of a trace export; this file holds failure records"
        )
    else:
        entries = read_records(path, store.limits)
    summary = PromoteSummary()
    if not any(isinstance(entry, RecordLine) for entry in entries):
        # Nothing to promote: the store (its dedup index and vault too) is left as it is.
        summary.rejected.extend(entry for entry in entries if isinstance(entry, Rejection))
        return summary
    with store.locked():
        vault = Vault.open(store)
        with DedupIndex(store) as index:
            index.sync()
            batch = _Batch(
                store, index, vault, path, failure_mode, force, ocr, author or default_author()
            )
            for entry in entries:
                if isinstance(entry, Rejection):
                    summary.rejected.append(entry)
                    continue
                try:
                    outcome = batch.promote_one(entry)
                except (CuratorError, ValidationError) as error:
                    reason = (
                        first_problem(error) if isinstance(error, ValidationError) else str(error)
                    )
                    summary.rejected.append(Rejection(entry.line, reason, entry.record.trace_id))
                    continue
                if isinstance(outcome, Promoted):
                    summary.promoted.append(outcome)
                else:
                    summary.duplicates.append(outcome)
            if summary.promoted:
                vault.save()
                batch.txn.commit()
                index.mark_synced()
            index.commit()
    return summary


class _Batch:
    """What one `promote` run shares between its records: the vault, index and transaction."""

    def __init__(
        self,
        store: Store,
        index: DedupIndex,
        vault: Vault,
        path: Path,
        failure_mode: str | None,
        force: bool,
        ocr: str,
        author: str,
    ) -> None:
        from curator.anonymise import Keep

        self.store, self.index, self.vault, self.path = store, index, vault, path
        self.failure_mode, self.force, self.ocr, self.author = failure_mode, force, ocr, author
        self.txn = Transaction(store)
        self.staged: dict[str, Content] = {}
        self.keep = Keep.of(store.config.anonymise)

    def load(self, fixture_id: str) -> Content | None:
        if fixture_id in self.staged:
            return self.staged[fixture_id]
        return self.store.load(fixture_id).content if self.store.exists(fixture_id) else None

    def promote_one(self, entry: RecordLine) -> Promoted | Duplicate:
        from curator.anonymise import anonymise_file_name

        record = entry.record
        mode = self.failure_mode or record.failure_mode
        if mode is None:
            raise CuratorError(
                "no failure mode: set failure_mode in the record or pass --failure-mode"
            )
        # a trace's calls are told apart by their span: each failed one is its own fixture
        trace_key = record.trace_id + (f"/{record.span_id}" if record.span_id else "")
        known = self.index.by_trace(trace_key)
        if known is not None:
            return Duplicate(
                entry.line, record.trace_id, known, f"trace already promoted as {known}"
            )
        config = self.store.config
        if config.store.categories and mode not in config.store.categories:
            raise CuratorError(f"failure mode {mode!r} is not a category in curator.toml")
        spec = doc_type_spec(config, record.doc_type) if record.doc_type else None

        read = read_input(record.input, self.path.parent, ocr=self.ocr)
        content = read.content
        kind = Kind(content.kind)
        if kind is Kind.document and spec is None:
            raise CuratorError("a document input needs a doc_type")
        corrections = _corrections(config, record, content)
        observed = _observed(record, content, spec)

        # The note rides along as the corrections' reason, so the rewriter that knows this
        # input's people (a thread's user records, first names alone) rewrites it too.
        corrections = corrections.model_copy(update={"reason": record.note or None})
        content, (corrections, observed), kept = _anonymise(
            content, [corrections, observed], spec, self.vault, self.keep
        )
        note = _anonymise_text(corrections.reason or "", self.vault)

        match = self.index.most_similar(kind.value, content, self.load)
        if match is not None and not self.force:
            return Duplicate(
                entry.line,
                record.trace_id,
                match.fixture_id,
                f"already covered by {match.fixture_id} (similarity {match.similarity:.2f})",
                match.similarity,
            )

        now = clock.now_iso()
        labels, warnings = _labels(corrections, observed, spec, kind, content)
        complete = _complete(corrections, spec, kind)
        if match is not None:
            warnings.append(
                f"near-duplicate of {match.fixture_id} (similarity {match.similarity:.2f}), "
                "kept by --force"
            )
        new_id = fixture_id(f"{mode} {record.doc_type or kind.value}", trace_key.encode())
        fixture = Fixture(
            id=new_id,
            kind=kind,
            doc_type=record.doc_type,
            category=mode,
            status=promoted_status(complete),
            tags=["promoted"],
            title=(f"{mode}: {note}" if note else f"{mode} in a {record.doc_type or kind.value}")[
                :120
            ],
            created_at=now,
            provenance=Provenance(
                source_sha256=hashlib.sha256(entry.raw).hexdigest(),
                source_name=anonymise_file_name(self.path.name, self.vault, keep=self.keep),
                importer=IMPORTER,
                imported_at=now,
                trace_id=record.trace_id,
                span_id=record.span_id,
                vault_id=self.vault.fingerprint,
                vault_entries=len(self.vault),
                kept=sorted(kept.terms),
                kept_hosts=sorted(kept.hosts),
            ),
            known_bad=[_known_bad(record, mode, observed, self.vault)],
            warnings=anonymised_warnings(content, read.warnings) + warnings,
        )
        revisions = []
        if labels.fields or labels.rubrics:
            reason = f"promoted from trace {record.trace_id} ({mode})" + (
                f": {note}" if note else ""
            )
            revisions = [
                labels.model_copy(update={"time": now, "author": self.author, "reason": reason})
            ]
        self.txn.create_fixture(fixture, content, revisions)
        self.index.add(new_id, kind.value, content, trace_key)
        self.staged[new_id] = content
        return Promoted(
            entry.line,
            record.trace_id,
            new_id,
            fixture.status.value,
            mode,
            match.fixture_id if match else None,
        )


# ---------------------------------------------------------------- building the parts


def _corrections(config: Any, record: FailureRecord, content: Content) -> LabelRevision:
    """The corrections as a revision, checked like `curator label set` checks them."""
    fixes = record.corrections
    if fixes.fields and record.doc_type is None:
        raise CuratorError("corrections.fields need a doc_type")
    return revise(
        config,
        record.doc_type,
        content,
        None,
        assignments={name: value or "" for name, value in fixes.fields.items()},
        add_rubrics=fixes.rubrics,
        author=IMPORTER,
        source=IMPORTER,
        # the reporter knows the right answer; the input need not show it
        no_evidence="given as the correction in the failure report",
    )


def _observed(record: FailureRecord, content: Content, spec: DocTypeSpec | None) -> LabelRevision:
    """The bad output in label form, so the anonymiser rewrites it with the same mapping.

    Its values are not checked: a hallucinated date need not parse.
    """
    fields = {}
    for name, seen in (record.output.fields or {}).items():
        kind = spec.fields[name].type if spec and name in spec.fields else FieldType.text
        if seen.value is None or seen.value == "":
            fields[name] = FieldLabel(type=kind, value=None, expected_absent=True)
            continue
        value = seen.value if isinstance(seen.value, str) else _plain(seen.value)
        fields[name] = FieldLabel(type=kind, value=value, evidence=locate(content, value))
    rubrics = [Rubric(text=record.output.text)] if record.output.text else []
    return LabelRevision(
        rev=1,
        time=clock.now_iso(),
        author=IMPORTER,
        source=IMPORTER,
        fields=fields,
        rubrics=rubrics,
    )


def _plain(value: Any) -> str:
    import json

    return (
        value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)
    )


def _anonymise(
    content: Content,
    revisions: list[LabelRevision],
    spec: DocTypeSpec | None,
    vault: Vault,
    keep: Keep,
) -> tuple[Content, list[LabelRevision], Used]:
    """Content and revisions through the anonymiser with one mapping; a leak rejects the record.

    A document also gets import's suggested labels (the value after each field's label
    phrase) as an extra revision, only so that the anonymiser knows those values name people,
    organisations and addresses even when the record neither output nor corrected them.
    """
    from curator.ingest.privacy import anonymise_one

    extra: list[LabelRevision] = []
    if spec is not None and isinstance(content, DocumentContent):  # label phrases are on pages
        from curator.ingest.suggest import suggest_revision

        suggested = suggest_revision(content, spec)
        extra = [suggested] if suggested is not None else []
    result = anonymise_one("input", content, revisions + extra, vault, spec, keep)
    return result.content, list(result.revisions)[: len(revisions)], result.kept


def _anonymise_text(text: str, vault: Vault) -> str:
    """A second pass over free text with every original the vault knows (idempotent)."""
    from curator.anonymise import anonymise_text

    return anonymise_text(text, vault) if text else ""


def _labels(
    corrections: LabelRevision,
    observed: LabelRevision,
    spec: DocTypeSpec | None,
    kind: Kind,
    content: Content,
) -> tuple[LabelRevision, list[str]]:
    """Corrections plus the uncorrected output fields that have evidence in the input."""
    fields = dict(corrections.fields)
    warnings = []
    for name, seen in observed.fields.items():
        if name in fields or spec is None or name not in spec.fields or seen.expected_absent:
            continue
        if seen.evidence is None:
            warnings.append(
                f"output field {name}: not corrected and not found in the input; "
                "left out of the labels"
            )
            continue
        fields[name] = seen
    fields = {name: _with_evidence_text(label, content) for name, label in fields.items()}
    return corrections.model_copy(update={"fields": fields}), warnings


def _with_evidence_text(label: FieldLabel, content: Content) -> FieldLabel:
    """Record the text at the evidence when it differs from the value (found ignoring case)."""
    if label.evidence is None or label.value is None:
        return label
    found = evidence_text(content, label.evidence)
    if found is None:
        return label.model_copy(update={"evidence": None, "evidence_text": None})
    return label.model_copy(update={"evidence_text": None if found == label.value else found})


def _complete(corrections: LabelRevision, spec: DocTypeSpec | None, kind: Kind) -> bool:
    if kind in (Kind.thread, Kind.conversation) and spec is None:
        return bool(corrections.rubrics)
    return spec is not None and set(spec.fields) <= set(corrections.fields)


def _known_bad(
    record: FailureRecord, mode: str, observed: LabelRevision, vault: Vault
) -> KnownBadAnswer:
    """The observed output, already rewritten with the input; values are kept as strings."""
    confidences = {name: seen.confidence for name, seen in (record.output.fields or {}).items()}
    fields = {
        name: {
            "value": None if label.value is None else _anonymise_text(label.value, vault),
            "confidence": confidences.get(name),
        }
        for name, label in observed.fields.items()
    }
    return KnownBadAnswer(
        trace_id=record.trace_id,
        observed_at=record.observed_at,
        failure_mode=mode,
        fields=fields,
        text=_anonymise_text(observed.rubrics[0].text, vault) if observed.rubrics else None,
    )
