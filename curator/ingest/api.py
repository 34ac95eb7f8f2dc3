"""`import_sources`: raw production inputs in, anonymised draft fixtures out.

Every source is read, validated and parsed (OCR included) before anything is written;
then all fixtures are anonymised and created in one store transaction, so a bad source
anywhere leaves the store as it was. A source already imported (same sha256) is skipped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from curator import clock
from curator.config import doc_type as lookup_doc_type
from curator.errors import CuratorError
from curator.ingest.chat_jsonl import parse_chat_jsonl
from curator.ingest.pdf import OCR_MODES, check_pdf, parse_pdfs
from curator.ingest.privacy import anonymise_name, anonymise_one, kept_terms, open_vault
from curator.ingest.source import Parsed, RawSource, read_source
from curator.ingest.suggest import guess_doc_type, no_type_guessed, suggest_revision
from curator.ingest.threads import (
    anonymised_warnings,
    check_export_shape,
    load_json,
    parse_thread_export,
)
from curator.labels import default_author, revise
from curator.model import Content, DocumentContent, Fixture, Kind, LabelRevision, Provenance
from curator.store import Store, fixture_id

SUFFIXES = {".json": "thread", ".jsonl": "chat", ".pdf": "pdf"}


@dataclass
class ImportReport:
    created: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[dict[str, Any]] = field(default_factory=list)

    exit_code = 0

    def as_json(self) -> dict[str, Any]:
        return {"created": self.created, "skipped": self.skipped}

    def render(self) -> str:
        lines = []
        for item in self.created:
            what = item["doc_type"] or item["kind"]
            extra = f", suggested {', '.join(item['suggested_fields'])}" if item["suggested_fields"] else ""
            lines.append(f"created {item['id']} ({what} from {item['source']}{extra})")
        for item in self.skipped:
            lines.append(f"skipped {item['source']}: already imported as {item['already_imported_as']}")
        lines.append(f"{len(self.created)} fixture(s) created, {len(self.skipped)} source(s) already imported")
        return "\n".join(lines)

    def warnings(self) -> list[str]:
        return [f"{item['id']}: {message}" for item in self.created for message in item["warnings"]]


def import_sources(
    store: Store,
    sources: Sequence[str | Path],
    *,
    doc_type: str | None = None,
    category: str = "clean",
    rubrics: Sequence[str] = (),
    ocr: str = "auto",
    split_threads: bool = False,
    workers: int | None = None,
    progress: bool = False,
    author: str | None = None,
    keep: Sequence[str] = (),
) -> ImportReport:
    """Import threads (.json), chat logs (.jsonl) and PDFs as anonymised draft fixtures.

    `keep`: terms kept as written for this run, on top of `[anonymise] keep` in curator.toml.

    Example: import_sources(store, ["thread.json", "lease.pdf"], doc_type="lease", keep=["Linn"])
    """
    _check_options(store, doc_type, category, rubrics, ocr)
    raws = [(read_source(path), kind) for path, kind in expand(sources)]
    report = ImportReport()
    todo: list[tuple[RawSource, str]] = []
    seen: dict[str, str] = {}
    for raw, kind in raws:
        _quick_check(raw, kind)  # every source is checked before the slow work starts
    in_store = store.find_by_sources(raw.sha256 for raw, _ in raws)
    for raw, kind in raws:
        # A source seen earlier in this run is named by its file, one in the store by its fixture.
        earlier = in_store.get(raw.sha256) or seen.get(raw.sha256)
        if earlier:
            report.skipped.append({"source": raw.name, "sha256": raw.sha256, "already_imported_as": earlier})
            continue
        seen[raw.sha256] = raw.name
        todo.append((raw, kind))

    # PDFs are read together so their OCR pages share one pool of workers.
    pdfs = [raw for raw, kind in todo if kind == "pdf"]
    read = dict(zip([id(raw) for raw in pdfs],
                    parse_pdfs(pdfs, ocr=ocr, workers=workers, progress=progress), strict=True))
    parsed = []
    for raw, kind in todo:
        if kind == "pdf":
            parsed.append((raw, read[id(raw)]))
        elif kind == "chat":
            parsed.extend((raw, item) for item in parse_chat_jsonl(raw, split_threads=split_threads))
        else:
            parsed.extend((raw, item) for item in parse_thread_export(raw, split_threads=split_threads))
    if not parsed:
        return report
    author = author or default_author()
    kept = kept_terms(store.config, keep)
    fixtures = []
    names: list[str] = []
    # The vault is read, extended and saved under the store lock, so two imports running at
    # once never lose each other's pseudonyms; a source the other one imported meanwhile is skipped.
    with store.transaction() as txn:
        vault = open_vault(store)
        raced = store.find_by_sources(raw.sha256 for raw, _ in parsed)
        for raw, item in parsed:
            if raw.sha256 in raced:
                continue
            fixture, content, revisions = _build(store, raw, item, vault, doc_type=doc_type,
                                                 category=category, rubrics=rubrics, author=author, keep=kept)
            txn.create_fixture(fixture, content, revisions)
            fixtures.append((fixture, content, revisions))
            names.append(raw.name)  # the report shows the user their own file name
        vault.save()  # before the fixtures land: a pseudonym is never used but unrecorded
    for raw, _ in parsed:
        if raw.sha256 in raced and not any(s["sha256"] == raw.sha256 for s in report.skipped):
            report.skipped.append({"source": raw.name, "sha256": raw.sha256,
                                   "already_imported_as": raced[raw.sha256]})
    for source_name, (fixture, content, revisions) in zip(names, fixtures, strict=True):
        summary = _summary(source_name, fixture, content, revisions)
        if isinstance(content, DocumentContent) and fixture.doc_type is None:
            summary["warnings"] = [*summary["warnings"], f"{source_name}: "
                                   + no_type_guessed(content, store.config, fixture.id)]
        report.created.append(summary)
    return report


def expand(sources: Sequence[str | Path]) -> list[tuple[Path, str]]:
    """(file, kind) for every source; a folder means the importable files under it."""
    if not sources:
        raise CuratorError("no sources given")
    found: list[tuple[Path, str]] = []
    for source in sources:
        path = Path(source)
        if path.is_dir():
            files = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES)
            if not files:
                raise CuratorError(f"{path}: no .json, .jsonl or .pdf files in this folder")
            found.extend((p, SUFFIXES[p.suffix.lower()]) for p in files)
        else:
            found.append((path, _kind_of(path)))
    return found


def _kind_of(path: Path) -> str:
    if path.suffix.lower() in SUFFIXES:
        return SUFFIXES[path.suffix.lower()]
    if not path.exists():
        raise CuratorError(f"{path}: no such file")
    raise CuratorError(f"{path}: unknown source type (expected .json, .jsonl or .pdf)")


def read_rubric_file(path: str | Path) -> list[str]:
    """Rubrics, one per line; blank lines and lines starting with # are skipped."""
    raw = read_source(Path(path))
    try:
        text = raw.data.decode("utf-8")
    except UnicodeDecodeError:
        raise CuratorError(f"{raw.name}: rubric file is not UTF-8 text") from None
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def _check_options(store: Store, doc_type: str | None, category: str, rubrics: Sequence[str], ocr: str) -> None:
    config = store.config
    if doc_type is not None:
        lookup_doc_type(config, doc_type)
    if config.store.categories and category not in config.store.categories:
        raise CuratorError(f"unknown category {category!r} (known: {', '.join(config.store.categories)})")
    if ocr not in OCR_MODES:
        raise CuratorError(f"--ocr must be one of {', '.join(OCR_MODES)}, got {ocr!r}")
    if any(not text.strip() for text in rubrics):
        raise CuratorError("a rubric cannot be empty")


def _quick_check(raw: RawSource, kind: str) -> None:
    if kind == "pdf":
        check_pdf(raw)
    elif kind == "thread":
        check_export_shape(load_json(raw), raw.name)


def _build(store: Store, raw: RawSource, item: Parsed, vault: Any, *, doc_type: str | None,
           category: str, rubrics: Sequence[str], author: str, keep: Any,
           ) -> tuple[Fixture, Content, list[LabelRevision]]:
    config = store.config
    content = item.content
    revisions: list[LabelRevision] = []
    chosen = None
    spec = None
    if isinstance(content, DocumentContent):  # doc types and their suggested fields are documents' alone
        chosen = doc_type or guess_doc_type(content, config)
        if chosen:
            spec = config.doc_types[chosen]
            suggestion = suggest_revision(content, spec)
            if suggestion:
                revisions.append(suggestion)
    if rubrics:
        previous = revisions[-1] if revisions else None
        revisions.append(revise(config, chosen, content, previous, add_rubrics=rubrics, author=author,
                                source="manual", reason="rubrics given at import"))
    anonymised = anonymise_one(raw.name, content, revisions, vault, spec, keep)
    content, revisions = anonymised.content, list(anonymised.revisions)
    title = _title(content, chosen)
    warnings = anonymised_warnings(content, item.warnings)
    fixture = Fixture(
        id=fixture_id(title, f"{raw.sha256}:{item.part}".encode()),
        kind=Kind(content.kind),
        doc_type=chosen,
        category=category,
        title=title,
        created_at=clock.now_iso(),
        # The base name only, and through the anonymiser: file names can name people too.
        provenance=Provenance(source_sha256=raw.sha256, source_name=anonymise_name(raw.name, vault, keep),
                              importer=item.importer, imported_at=clock.now_iso(),
                              vault_id=vault.fingerprint, vault_entries=len(vault), kept=sorted(anonymised.kept.terms),
                              kept_hosts=sorted(anonymised.kept.hosts)),
        warnings=warnings,
    )
    return fixture, content, revisions


def _title(content: Content, doc_type: str | None) -> str:
    """A readable title from the anonymised content (never from the raw source)."""
    # a document's first line of words; a thread's root post, else its channel
    if isinstance(content, DocumentContent):
        for page in content.pages:
            for line in page.text.splitlines():
                if sum(ch.isalpha() for ch in line) >= 3:
                    return line.strip()[:80]
        return doc_type or "document"
    export = content.export
    # System posts ("joined the channel") are not conversation roots.
    roots = [p for p in export.ordered_posts() if not p.root_id and not p.type.startswith("system_")]
    channel = str(export.channel.get("display_name") or export.channel.get("name") or "channel")
    if len(roots) == 1 and not content.orphan_post_ids:
        lines = roots[0].message.strip().splitlines()
        return (lines[0] if lines else f"{channel} thread")[:80]
    if not roots:
        return f"{channel} orphan replies"
    return f"{channel} channel"


def _summary(source_name: str, fixture: Fixture, content: Content,
             revisions: list[LabelRevision]) -> dict[str, Any]:
    summary: dict[str, Any] = {
        "id": fixture.id,
        "source": source_name,
        "stored_source_name": fixture.provenance.source_name,
        "kind": fixture.kind.value,
        "doc_type": fixture.doc_type,
        "category": fixture.category,
        "warnings": fixture.warnings,
        "suggested_fields": sorted(revisions[0].fields) if revisions else [],
        "rubrics": [r.text for r in revisions[-1].rubrics] if revisions else [],
    }
    # what an importer wants to see differs per kind: pages with their origin, or post counts
    if isinstance(content, DocumentContent):
        summary["pages"] = [
            {"number": p.number, "origin": p.origin, "ocr_confidence": p.ocr_confidence, "language": p.language}
            for p in content.pages
        ]
    else:
        summary["posts"] = len(content.export.posts)
        summary["orphan_post_ids"] = content.orphan_post_ids
    return summary
