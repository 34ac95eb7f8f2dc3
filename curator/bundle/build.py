"""`curator bundle build`: a frozen, versioned, verifiable release of the golden set.

Build order keeps every promise of the command: everything is validated and rendered in
memory first (version, formats, selection, immutability, leak gate), then written into a
staging folder under .curator/ and renamed into bundles/VERSION whole, so a failure or a
kill never leaves a half-built bundle. The same store gives byte-identical bundles: no
wall-clock time, sorted everything, and built_at is the newest label revision time.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from curator import __version__, atomic
from curator.bundle import card, changelog, leakgate, manifest
from curator.bundle.archive import write_archive
from curator.bundle.cache import Progress, open_cache, serialise_store, signature
from curator.bundle.diff import diff_raw, raw_lines
from curator.bundle.formats import FORMATS, hf, jsonl, mattermost, parquet
from curator.bundle.formats.columns import rows
from curator.bundle.reader import CHANGELOG, FIXTURES, MANIFEST, open_bundle
from curator.bundle.serialise import Serialised
from curator.errors import CuratorError
from curator.model import BundleEntry, BundleManifest, Status
from curator.store import Store

STAGING_PREFIX = "bundle-"


@dataclass(frozen=True)
class BuildResult:
    version: str
    path: Path
    unchanged: bool  # the version already existed with this very content
    manifest: BundleManifest
    archive: Path | None = None
    warnings: list[str] = field(default_factory=list)
    joined: list[changelog.Move] = field(
        default_factory=list
    )  # since the previous version, and why
    left: list[changelog.Move] = field(default_factory=list)

    exit_code = 0

    def as_json(self) -> dict:
        return {
            "version": self.version,
            "path": str(self.path),
            "unchanged": self.unchanged,
            "archive": str(self.archive) if self.archive else None,
            "previous": self.manifest.previous,
            "formats": self.manifest.formats,
            "counts": self.manifest.counts.model_dump(mode="json"),
            "content_sha256": self.manifest.content_sha256,
            "warnings": self.warnings,
            "joined": [move.as_dict() for move in self.joined],
            "left": [move.as_dict() for move in self.left],
        }

    def render(self) -> str:
        counts = self.manifest.counts
        if self.unchanged:
            text = f"bundle {self.version} is up to date ({counts.total} fixtures, unchanged)"
        else:
            text = (
                f"built bundle {self.version}: {counts.total} fixtures ({counts.adversarial} "
                f"adversarial), formats {', '.join(self.manifest.formats)} -> {self.path}"
            )
        against = f" since {self.manifest.previous}" if self.manifest.previous else ""
        moves = [f"joined{against}: {m.id} ({m.why})" for m in self.joined]
        moves += [f"left{against}: {m.id} ({m.why})" for m in self.left]
        return "\n".join([text, *moves] + ([f"archive: {self.archive}"] if self.archive else []))


def parse_formats(formats: str | Iterable[str] | None) -> list[str]:
    """Known formats in canonical order; jsonl is always included (everything reads it)."""
    if formats is None:
        return list(FORMATS)
    names = formats.split(",") if isinstance(formats, str) else list(formats)
    names = [n.strip() for n in names if n.strip()]
    unknown = [n for n in names if n not in FORMATS]
    if unknown:
        raise CuratorError(f"unknown bundle format {unknown[0]!r} (known: {', '.join(FORMATS)})")
    if not names:
        raise CuratorError(f"no bundle format given (known: {', '.join(FORMATS)})")
    return [f for f in FORMATS if f in names or f == "jsonl"]


def parse_statuses(statuses: Iterable[str]) -> list[Status]:
    chosen = []
    for name in statuses:
        try:
            chosen.append(Status(name))
        except ValueError:
            known = ", ".join(s.value for s in Status)
            raise CuratorError(f"unknown status {name!r} (known: {known})") from None
    return sorted(set(chosen), key=list(Status).index) or [Status.active]


def build_bundle(
    store: Store,
    version: str,
    *,
    formats: str | Iterable[str] | None = None,
    statuses: Sequence[str] = ("active",),
    archive: bool = False,
    progress: Progress | None = None,
    strict_audit: bool = False,
    strict: bool = False,
) -> BuildResult:
    """Build bundles/VERSION from the store's fixtures with the given statuses.

    `strict_audit` also refuses the bundle on the audit's name guesses (see leakgate);
    `strict` refuses it when a fixture the previous version bundled as active left
    without being retired.
    """
    final = store.bundle_dir(version)  # refuses what is no version before anything else
    chosen_formats = parse_formats(formats)
    chosen_statuses = parse_statuses(statuses)
    archive_path = store.bundle_archive(version)

    with store.locked(), _collector_paused():  # the lock drops a killed build's staging
        cache = open_cache(store)
        listing = store.scan()
        selection = json.dumps([sorted(s.value for s in chosen_statuses), chosen_formats])
        stat_signature = signature(listing)
        existing = manifest.read_manifest(final) if final.exists() else None  # broken: refused
        if (
            existing is not None
            and cache.known_digest(selection, stat_signature) == existing.content_sha256
        ):
            # Not one store file touched since a build of this very content: nothing to read.
            return _unchanged(existing, final, archive, archive_path, version)

        wanted = {s.value for s in chosen_statuses}
        items = [
            item
            for item in serialise_store(store, cache, progress, listing)
            if item.status in wanted
        ]
        if not items:
            raise CuratorError(f"no fixtures with status {', '.join(sorted(wanted))} to bundle")
        digest = manifest.content_digest([item.line_sha256 for item in items], chosen_formats)
        cache.remember_build(selection, stat_signature, digest)

        if existing is not None:
            if existing.content_sha256 != digest:
                raise CuratorError(
                    f"bundle {version} already exists with different content; versions are "
                    "immutable, build a new version"
                )
            cache.save()
            return _unchanged(existing, final, archive, archive_path, version)
        if archive_path.exists():
            raise CuratorError(
                f"{archive_path.name} exists without its bundle directory; remove it first"
            )

        fixtures_jsonl = jsonl.render(items)
        previous = manifest.previous_version(store.bundles_dir, version)
        before = manifest.read_manifest(store.bundle_dir(previous)) if previous else None
        joined, left = changelog.membership(
            store, before, [item.id for item in items], chosen_statuses
        )
        unplanned = [move for move in left if move.unplanned]
        if strict and unplanned:
            gone = "; ".join(f"{m.id} ({m.why})" for m in unplanned)
            raise CuratorError(
                f"--strict: {len(unplanned)} active fixture(s) of {previous} left without being "
                f"retired: {gone}"
            )
        thread_files = mattermost.render(items) if "mattermost" in chosen_formats else {}
        reasons = {move.id: move.why for move in [*joined, *left]}
        changelog_text = _changelog(store, version, previous, items, reasons)
        columns = rows(items)
        table = hf.arrow_table(columns) if {"hf", "parquet"} & set(chosen_formats) else None
        splits = hf.split_tables(table) if "hf" in chosen_formats else None
        facts = card.CardFacts(
            version=version,
            previous=previous,
            built_at=max(item.label_time for item in items),
            curator_version=__version__,
            formats=chosen_formats,
            splits={name: card.SplitSize(t.num_rows, t.nbytes) for name, t in splits.items()}
            if splits
            else None,
        )
        card_text = card.render(store.config.store, facts, columns)
        warnings = leakgate.check(
            store, items, {CHANGELOG: changelog_text, card.CARD: card_text}, strict=strict_audit
        )
        if "mattermost" in chosen_formats:
            warnings += mattermost.renamed(items)

        staged = atomic.staging_dir(store.staging_root, f"{STAGING_PREFIX}{version}.")
        try:
            _write_formats(
                staged, chosen_formats, fixtures_jsonl, thread_files, table, splits, digest
            )
            in_memory = {
                **thread_files,
                FIXTURES: fixtures_jsonl,
                CHANGELOG: changelog_text.encode("utf-8"),
                card.CARD: card_text.encode("utf-8"),
            }
            for name in (CHANGELOG, card.CARD):
                (staged / name).write_bytes(in_memory[name])
            # Files written from memory are hashed from memory; the rest (hf, parquet) read back.
            hashed = {name: manifest.file_sha256(data) for name, data in in_memory.items()}
            built = _manifest(
                version,
                previous,
                chosen_formats,
                chosen_statuses,
                digest,
                items,
                staged,
                hashed,
                facts.built_at,
            )
            (staged / MANIFEST).write_bytes(manifest.render(built))
            atomic.publish_dir(staged, final)
        except BaseException:
            atomic.remove_tree(staged)
            raise
        if archive:
            write_archive(final, archive_path, version)
        cache.save()
        return BuildResult(
            version, final, False, built, archive_path if archive else None, warnings, joined, left
        )


@contextmanager
def _collector_paused() -> Iterator[None]:
    """A build holds hundreds of thousands of small, acyclic objects at once (lines, rows,
    entries). CPython's cyclic collector would rescan them again and again, a cost that
    grows faster than the store; they form no cycles, so collection waits for the end."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _unchanged(
    existing: BundleManifest, final: Path, archive: bool, archive_path: Path, version: str
) -> BuildResult:
    if archive and not archive_path.exists():
        write_archive(final, archive_path, version)
    return BuildResult(
        version, final, True, existing, archive_path if archive_path.exists() else None
    )


def _write_formats(
    staged: Path,
    formats: list[str],
    fixtures_jsonl: bytes,
    thread_files: dict[str, bytes],
    table: Any,  # pyarrow.Table of every row, when hf or parquet is chosen
    splits: dict[str, Any] | None,  # the table split into golden and adversarial, for hf
    digest: str,
) -> None:
    jsonl.write(staged, fixtures_jsonl)
    if splits is not None:
        hf.write(staged, splits, digest)
    if "parquet" in formats:
        parquet.write(staged, table)
    if "mattermost" in formats:
        mattermost.write(staged, thread_files)


def _changelog(
    store: Store,
    version: str,
    previous: str | None,
    items: list[Serialised],
    reasons: dict[str, str],
) -> str:
    if previous is None:
        return changelog.render(version, None, len(items))
    before = raw_lines(open_bundle(store.bundle_dir(previous)))
    after = [item.line for item in items]
    diff = diff_raw(before, after, before_name=previous, after_name=version)
    return changelog.render(version, diff, len(items), reasons)


def _manifest(
    version: str,
    previous: str | None,
    formats: list[str],
    statuses: list[Status],
    digest: str,
    items: list[Serialised],
    staged: Path,
    hashed: dict[str, str],
    built_at: str,
) -> BundleManifest:
    files = {}
    for path in sorted(staged.rglob("*")):
        name = path.relative_to(staged).as_posix()
        if path.is_file() and name != MANIFEST:
            files[name] = hashed.get(name) or manifest.file_sha256(path.read_bytes())
    thread_files = mattermost.file_names(items) if "mattermost" in formats else {}
    entries = []
    for item in items:
        own = [thread_files[item.id]] if item.id in thread_files else []
        entries.append(BundleEntry.model_validate({**item.entry, "files": own}))
    return BundleManifest(
        bundle_version=version,
        curator_version=__version__,
        built_at=built_at,
        previous=previous,
        formats=formats,
        statuses=statuses,
        content_sha256=digest,
        counts=manifest.counts(items),
        fixtures=entries,
        files=dict(sorted(files.items())),
    )
