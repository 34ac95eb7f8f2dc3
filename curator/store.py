"""The golden store on disk: the only code that knows its layout.

    curator.toml
    goldens/<id>/{fixture.json, content.json, labels.jsonl}
    adversarial/<id>/...          variants and promoted failures
    schemas/  bundles/<version>/
    .curator/                     local only: vault, source index, caches, review state,
                                  staging

Other modules ask the store for paths (`local_path`, `fixture_files`, `bundle_dir`, `scan`)
rather than joining these names themselves.

Every write goes through a `Transaction`: it is validated against the model, buffered, and
written at commit while the store lock is held, staged whole and renamed into place under a
journal (curator/journal.py), so a failed or killed command leaves all of its writes or none
and two curator processes never lose each other's work. The vault, saved while a transaction
is open, lands with it (`write_file`). Taking the lock first finishes or drops what a killed
command left: its journal, staging, `.tmp` files and private temporary folder.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
import stat
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from curator import atomic, journal, scratch
from curator.config import CONFIG_NAME, default_config_text, load_config
from curator.errors import CuratorError, FixtureNotFound, StoreNotFound, first_problem
from curator.json_input import lines, parse_model
from curator.limits import too_big
from curator.model import (
    FIXTURE_ID_PATTERN,
    SEMVER_PATTERN,
    Content,
    ContentFile,
    Fixture,
    LabelRevision,
    LimitSettings,
    StoreConfig,
    slugify,
)
from curator.source_index import SOURCES_FILE, SourceIndex, source_of
from curator.spill import Spill, SpillMark

GOLDENS = "goldens"
ADVERSARIAL = "adversarial"
BUNDLES = "bundles"
SCHEMAS = "schemas"
LOCAL = ".curator"
FIXTURE_FILE = "fixture.json"
CONTENT_FILE = "content.json"
LABELS_FILE = "labels.jsonl"
FIXTURE_FILES = (FIXTURE_FILE, CONTENT_FILE, LABELS_FILE)
FIXTURE_DIRS = (GOLDENS, ADVERSARIAL)
STAGING = "staging"
ARCHIVE_SUFFIX = ".tar.gz"
STORE_ENV = "CURATOR_STORE"
# Commands hold the lock only while they write (an import's OCR runs before it takes the
# lock), but anonymising a big channel export under load can take a minute or more: a
# second command waits that out rather than failing.
LOCK_WAIT_SECONDS = 300.0
LOCK_POLL_SECONDS = 0.05
MISSING_STAT = [-1, 0, 0]
MAX_ID_LENGTH = 200  # a folder name must fit in 255 bytes; slugs are 5 words

# fullmatch without the anchors: "$" would let a trailing newline through.
_FIXTURE_ID = re.compile(FIXTURE_ID_PATTERN.removeprefix("^").removesuffix("$"), re.ASCII)
_VERSION = re.compile(SEMVER_PATTERN.removeprefix("^").removesuffix("$"), re.ASCII)

GITIGNORE = f"# Local only: pseudonym vault, lock, review state. Never commit.\n{LOCAL}/\n.*.tmp\n"


@dataclass(frozen=True)
class FixtureRecord:
    """One fixture as stored: its metadata, content and label revisions."""

    fixture: Fixture
    content: Content
    revisions: list[LabelRevision]
    directory: Path

    @property
    def labels(self) -> LabelRevision | None:
        """The current truth: the last revision, if any."""
        return self.revisions[-1] if self.revisions else None


@dataclass(frozen=True)
class FixtureFiles:
    """A fixture folder as `Store.scan` finds it: where its files are and their stat, unread."""

    id: str
    directory: str
    # [size, mtime_ns, inode] of fixture.json, content.json, labels.jsonl ([-1, 0, 0]: missing).
    # Every store write replaces a file by rename, so an equal stat means unchanged bytes.
    stats: list[list[int]]
    max_bytes: int = LimitSettings().for_curator_files().json_bytes

    def read(self) -> dict[str, bytes | None]:
        """Each file's bytes by name (None: missing), ready for `Store.parse_record`."""
        return _read_files(self.directory, self.max_bytes)


def is_fixture_id(text: str) -> bool:
    """True for a well-formed fixture id: lowercase ASCII words and hyphens, then 8 hex digits.

    Nothing else (no "/", "..", absolute paths, look-alike Unicode letters) ever becomes a path.
    """
    return len(text) <= MAX_ID_LENGTH and _FIXTURE_ID.fullmatch(text) is not None


def check_fixture_id(text: str) -> str:
    if not is_fixture_id(text):
        raise FixtureNotFound(
            f"{_shown(text)} is not a fixture id (lowercase ASCII words and hyphens, "
            "ending in 8 hex digits)"
        )
    return text


def is_version(text: str) -> bool:
    """A bundle version: a semantic version like 1.2.0 or 2.0.0-rc.1, and so a safe folder name."""
    return len(text) <= MAX_ID_LENGTH and _VERSION.fullmatch(text) is not None


def check_version(version: str) -> str:
    if not is_version(version):
        raise CuratorError(f"bundle version {_shown(version)} is not a semantic version like 1.2.0")
    return version


def _shown(text: str) -> str:
    """Input echoed in an error: escaped (a look-alike letter shows as \\u0430), and short."""
    shown = ascii(text)
    return shown if len(shown) <= 80 else shown[:76] + "...'"


def fixture_id(title: str, content_key: bytes) -> str:
    """Stable, readable id: a slug of the title plus 8 hex digits of a content hash."""
    return f"{slugify(title)}-{hashlib.sha256(content_key).hexdigest()[:8]}"


def dump_json(model: BaseModel | dict[str, Any]) -> str:
    data = model.model_dump(mode="json") if isinstance(model, BaseModel) else model
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def dump_labels(revisions: list[LabelRevision]) -> str:
    return "".join(
        json.dumps(r.model_dump(mode="json"), ensure_ascii=False, separators=(",", ":")) + "\n"
        for r in revisions
    )


def dump_content(content: Content) -> str:
    return dump_json(ContentFile(content=content))


class Store:
    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self._config: StoreConfig | None = None
        self._lock_depth = 0  # how many `locked()` blocks of this object are open
        self._open: Transaction | None = None  # the transaction being built, if any
        self._file_limits: LimitSettings | None = None
        # The source index as last read or rebuilt, with the stat of its file then.
        self._sources: tuple[tuple[int, int, int] | None, SourceIndex] | None = None

    # ------------------------------------------------------------ finding and creating

    @classmethod
    def init(cls, path: Path) -> Store:
        """Create a store at `path` (made if missing); refuses a folder that already has one."""
        path.mkdir(parents=True, exist_ok=True)
        config = path / CONFIG_NAME
        if config.exists():
            raise CuratorError(f"{path} already holds a curator store")
        for folder in (GOLDENS, ADVERSARIAL, LOCAL):
            (path / folder).mkdir(exist_ok=True)
        for folder in (GOLDENS, ADVERSARIAL):
            keep = path / folder / ".gitkeep"
            if not keep.exists():
                keep.touch()
        gitignore = path / ".gitignore"
        existing = gitignore.read_text(encoding="utf-8") if gitignore.exists() else ""
        if f"{LOCAL}/" not in existing.split():
            atomic.write_text(
                gitignore,
                existing + ("\n" if existing and not existing.endswith("\n") else "") + GITIGNORE,
            )
        atomic.write_text(config, default_config_text())
        return cls(path)

    @classmethod
    def open(cls, path: Path | None = None) -> Store:
        """The store at `path`, else $CURATOR_STORE, else the nearest folder upward with
        curator.toml."""
        if path is None and os.environ.get(STORE_ENV):
            path = Path(os.environ[STORE_ENV])
        if path is not None:
            if not (path / CONFIG_NAME).is_file():
                raise StoreNotFound(
                    f"no curator store at {path} (no {CONFIG_NAME}; run `curator init`)"
                )
            return cls(path)
        here = Path.cwd().resolve()
        for folder in (here, *here.parents):
            if (folder / CONFIG_NAME).is_file():
                return cls(folder)
        raise StoreNotFound(f"no curator store in {here} or any parent (run `curator init`)")

    @property
    def config(self) -> StoreConfig:
        if self._config is None:
            self._config = load_config(self.root / CONFIG_NAME)
        return self._config

    def local_path(self, name: str) -> Path:
        """A file under .curator/ (never committed, never exported); writers make its folder."""
        return self.root / LOCAL / name

    @property
    def staging_root(self) -> Path:
        """Where whole folders are written before they are renamed into place."""
        return self.local_path(STAGING)

    @property
    def bundles_dir(self) -> Path:
        return self.root / BUNDLES

    def bundle_dir(self, version: str) -> Path:
        """bundles/VERSION, for a well-formed version only; a symbolic link there is refused."""
        return _not_linked(self.bundles_dir / check_version(version), self.root)

    def bundle_archive(self, version: str) -> Path:
        """bundles/VERSION.tar.gz, for a well-formed version only."""
        return _not_linked(
            self.bundles_dir / f"{check_version(version)}{ARCHIVE_SUFFIX}", self.root
        )

    @property
    def limits(self) -> LimitSettings:
        """The input limits of curator.toml."""
        return self.config.limits

    @property
    def file_limits(self) -> LimitSettings:
        """The limits for the store's own JSON files (see LimitSettings.for_curator_files)."""
        if self._file_limits is None:
            self._file_limits = self.limits.for_curator_files()
        return self._file_limits

    @property
    def fixture_folders(self) -> tuple[Path, ...]:
        """The folders that hold fixture folders: adding or removing a fixture changes them."""
        return tuple(self.root / folder for folder in FIXTURE_DIRS)

    def folder_for(self, fixture: Fixture) -> Path:
        """The folder a fixture's own folder belongs in."""
        return self.root / (ADVERSARIAL if fixture.adversarial else GOLDENS)

    # ------------------------------------------------------------ reading

    def _entries(self) -> list[os.DirEntry[str]]:
        """Every fixture folder, unsorted: one listing, no stat per entry.

        Only real folders named by a fixture id count: a symbolic link (which could point
        anywhere) or any other name is a stray, reported by `curator validate`.
        """
        found: list[os.DirEntry[str]] = []
        for base in self.fixture_folders:
            if _is_link(base):
                raise CuratorError(
                    f"{base.name}/ is a symbolic link; the store's folders must be real folders"
                )
            try:
                with os.scandir(base) as entries:
                    found.extend(
                        e
                        for e in entries
                        if e.is_dir(follow_symlinks=False) and is_fixture_id(e.name)
                    )
            except (FileNotFoundError, NotADirectoryError):
                continue
        return found

    def ids(self) -> list[str]:
        return sorted(entry.name for entry in self._entries())

    def scan(self) -> list[FixtureFiles]:
        """Every fixture folder with the stat of its files, in id order; nothing is read."""
        max_bytes = self.file_limits.json_bytes
        return [
            FixtureFiles(
                fixture_id,
                directory,
                [_stat(os.path.join(directory, name)) for name in FIXTURE_FILES],
                max_bytes,
            )
            for fixture_id, directory in sorted(
                (entry.name, entry.path) for entry in self._entries()
            )
        ]

    def strays(self) -> list[tuple[str, str]]:
        """(name, path from the root) of entries in the fixture folders that are no fixture."""
        found = []
        for base in self.fixture_folders:
            if not base.is_dir():
                continue
            for entry in sorted(base.iterdir()):
                real_folder = entry.is_dir() and not entry.is_symlink()
                if entry.name != ".gitkeep" and not (real_folder and is_fixture_id(entry.name)):
                    found.append((entry.name, f"{base.name}/{entry.name}"))
        return found

    def directory(self, fixture_id: str) -> Path:
        """The folder of a fixture: the only way from an id to a path. Only a well-formed id,
        and only a real folder directly inside goldens/ or adversarial/."""
        check_fixture_id(fixture_id)
        for base in self.fixture_folders:
            candidate = base / fixture_id
            if _is_link(candidate) or _is_link(base):
                raise CuratorError(
                    f"{base.name}/{fixture_id} is a symbolic link; a fixture folder "
                    "must be a real folder inside the store"
                )
            if candidate.is_dir():
                return candidate
        raise FixtureNotFound(f"no fixture {fixture_id!r} in {self.root}")

    def fixture_files(self, fixture_id: str) -> dict[str, Path]:
        """The paths of a fixture's fixture.json, content.json and labels.jsonl, by name."""
        directory = self.directory(fixture_id)
        return {name: directory / name for name in FIXTURE_FILES}

    def exists(self, fixture_id: str) -> bool:
        """True when a fixture has this id; never for an ill-formed one (it names no path)."""
        if not is_fixture_id(fixture_id):
            return False
        return any(_is_folder(base / fixture_id) for base in self.fixture_folders)

    def load(self, fixture_id: str) -> FixtureRecord:
        directory = self.directory(fixture_id)
        return self.parse_record(
            directory, _read_files(str(directory), self.file_limits.json_bytes)
        )

    def parse_record(self, directory: Path, files: Mapping[str, bytes | None]) -> FixtureRecord:
        """A fixture from its files' bytes (None: missing), as `FixtureFiles.read` gives them.

        For callers that read the bytes anyway (the bundle cache hashes them): no second read.
        """
        return FixtureRecord(
            fixture=self._parse_model(directory / FIXTURE_FILE, files[FIXTURE_FILE], Fixture),
            content=self._parse_model(
                directory / CONTENT_FILE, files[CONTENT_FILE], ContentFile
            ).content,
            revisions=self._parse_revisions(directory / LABELS_FILE, files[LABELS_FILE]),
            directory=directory,
        )

    def load_fixture(self, fixture_id: str) -> Fixture:
        path = self.directory(fixture_id) / FIXTURE_FILE
        return self._parse_model(path, _read_bytes(str(path), self.file_limits.json_bytes), Fixture)

    def records(self) -> Iterator[FixtureRecord]:
        for fixture_id in self.ids():
            yield self.load(fixture_id)

    def select(
        self,
        *,
        status: str | None = None,
        kind: str | None = None,
        adversarial: bool | None = None,
        ids: list[str] | None = None,
    ) -> list[Fixture]:
        """Fixture metadata filtered by status, kind and adversarial flag (ids: only these)."""
        chosen = []
        for fixture_id in ids if ids else self.ids():
            fixture = self.load_fixture(fixture_id)
            if status is not None and fixture.status != status:
                continue
            if kind is not None and fixture.kind != kind:
                continue
            if adversarial is not None and fixture.adversarial != adversarial:
                continue
            chosen.append(fixture)
        return chosen

    def find_by_sources(self, sha256s: Iterable[str]) -> dict[str, str]:
        """For each raw source hash that has one, the fixture already made from it (what
        makes import idempotent): one check of the source index (see
        curator/source_index.py) for the whole batch.

        Each fixture the index names is read back, so a fixture.json edited by hand since it
        was indexed is never believed.
        """
        wanted = list(dict.fromkeys(sha256s))
        found = self._found_in(self.source_index(), wanted)
        if found is None:
            # Edited since it was indexed: the saved index no longer describes the store.
            self._save_sources(None)
            found = self._found_in(self.source_index(), wanted) or {}
        return found

    def _found_in(self, index: SourceIndex, sha256s: list[str]) -> dict[str, str] | None:
        """The index's answers, or None when a fixture it names says otherwise."""
        found = {}
        for sha256 in sha256s:
            fixture_id = index.first(sha256)
            if fixture_id is None:
                continue
            if not self.exists(fixture_id) or source_of(self.load_fixture(fixture_id)) != sha256:
                return None
            found[sha256] = fixture_id
        return found

    def source_index(self) -> SourceIndex:
        """The source index, checked against the fixture folders and rebuilt when they differ.

        Only a transaction saves it (under the lock, with the fixtures it describes): a
        rebuild here lives in memory until the next write, so readers never race writers.
        """
        fixture_ids = [entry.name for entry in self._entries()]  # order is moot here
        path = self.local_path(SOURCES_FILE)
        stamp = _stamp(path)
        if (
            self._sources is not None
            and self._sources[0] == stamp
            and self._sources[1].covers(fixture_ids)
        ):
            return self._sources[1]
        index = SourceIndex.read(path) if stamp is not None else None
        if index is None or not index.covers(fixture_ids):
            index = SourceIndex(
                {i: source_of(self.load_fixture(i)) for i in sorted(set(fixture_ids))}
            )
        self._sources = (stamp, index)
        return index

    def _sources_to_extend(self) -> SourceIndex:
        """What a commit adds its new fixtures to, without listing the folders again: the
        index this process last read or rebuilt, else the saved one, else a rebuild. Each
        is right about every fixture it covers; if the folders changed meanwhile it covers
        too few or too many, which makes it stale (rebuilt on use), never wrong."""
        stamp = _stamp(self.local_path(SOURCES_FILE))
        if self._sources is not None and self._sources[0] == stamp:
            return self._sources[1]
        saved = SourceIndex.read(self.local_path(SOURCES_FILE)) if stamp is not None else None
        return saved if saved is not None else self.source_index()

    def _save_sources(
        self, index: SourceIndex | None, more: Iterable[tuple[str, str | None]] = ()
    ) -> None:
        """Save the index, and `more` fixtures' sources after it (None: delete it, so it is
        rebuilt on next use). Only an index saved without `more` is kept in memory: an
        import's 200,000 new fixtures are read back when next needed, not held."""
        path = self.local_path(SOURCES_FILE)
        self._sources = None
        if index is None:
            path.unlink(missing_ok=True)
            return
        more = iter(more)
        first = next(more, None)
        try:
            index.write(path, more=() if first is None else itertools.chain([first], more))
        except OSError:
            return  # e.g. a full disk: the old file covers fewer fixtures than exist, so stale
        if first is None:
            self._sources = (_stamp(path), index)

    def _parse_model(self, path: Path, data: bytes | None, model: type[BaseModel]) -> Any:
        if data is None:
            raise CuratorError(f"{self._rel(path)}: missing")
        return parse_model(model, data, self._rel(path), self.file_limits)

    def _parse_revisions(self, path: Path, data: bytes | None) -> list[LabelRevision]:
        if data is None:
            return []
        where = self._rel(path)
        return [
            parse_model(LabelRevision, line, f"{where}:{number}", self.file_limits)
            for number, line in lines(data)
        ]

    def _rel(self, path: Path) -> str:
        try:
            return str(path.relative_to(self.root))
        except ValueError:
            return str(path)

    # ------------------------------------------------------------ writing

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Exclusive store lock; waits for another curator process, then gives up clearly.

        The lock is an flock on the store's root folder itself: taking it creates nothing,
        so a refused command leaves the store byte-identical (no lock file appears), the
        folder is never replaced (every process locks the same inode), and the kernel
        releases it when its process dies. Re-entrant within one Store object.
        """
        import fcntl

        if self._lock_depth:
            self._lock_depth += 1
            try:
                yield
            finally:
                self._lock_depth -= 1
            return
        fd = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY)
        try:
            deadline = time.monotonic() + LOCK_WAIT_SECONDS
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise CuratorError(
                            "the store is locked by another curator process"
                        ) from None
                    time.sleep(LOCK_POLL_SECONDS)
            self._lock_depth = 1
            try:
                self.remove_leftovers()
                yield
            finally:
                self._lock_depth = 0
                self._open = None
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    @contextmanager
    def transaction(self) -> Iterator[Transaction]:
        """Buffer writes; commit them all when the block ends without an error."""
        with self.locked():
            txn = Transaction(self)
            try:
                yield txn
            except BaseException:
                txn.abandon()  # what it staged on disk goes: the store stays as it was
                raise
            txn.commit()

    def write_file(self, path: Path, data: bytes, *, mode: int | None = None) -> None:
        """Write a store file (the vault): staged into the transaction being built, if one is,
        so it lands with the fixtures that need it or not at all; else atomically, now."""
        if self._open is not None:
            self._open.write_file(path, data, mode=mode)
        else:
            atomic.write_bytes(path, data, mode=mode)

    def remove_leftovers(self) -> list[Path]:
        """Finish or remove what killed commands left (a journal, staging folders, `.tmp`
        files, private temporary folders); the leftovers it could not remove. Needs the lock:
        `locked()` calls it."""
        left = journal.recover(self.staging_root, self.root)
        for folder in self._tmp_folders():
            try:
                names = [e for e in os.scandir(folder) if e.name.endswith(".tmp")]
            except OSError:
                continue
            for entry in names:
                path = Path(entry.path)
                if entry.name.startswith(".") and not scratch.is_held(path):
                    try:
                        path.unlink()
                    except OSError:
                        left.append(path)
        return left + scratch.remove_dead()

    def _tmp_folders(self) -> list[Path]:
        """Where `atomic` writes `.tmp` files: next to the files it replaces. Fixture folders
        are not among them: a transaction stages fixture files in staging/."""
        local = self.root / LOCAL
        found = [self.root, local, self.bundles_dir, *self.fixture_folders]
        try:
            found += sorted(
                Path(e.path)
                for e in os.scandir(local)
                if e.is_dir(follow_symlinks=False) and e.name != STAGING
            )
        except OSError:
            pass
        return found

    def create_fixture(
        self,
        fixture: Fixture,
        content: Content,
        revisions: list[LabelRevision],
    ) -> Path:
        with self.transaction() as txn:
            txn.create_fixture(fixture, content, revisions)
        return self.directory(fixture.id)

    def append_revision(self, fixture_id: str, revision: LabelRevision) -> LabelRevision:
        with self.transaction() as txn:
            return txn.append_revision(fixture_id, revision)

    def save_fixture(self, fixture: Fixture) -> None:
        with self.transaction() as txn:
            txn.save_fixture(fixture)


class Transaction:
    """Writes staged in memory, applied at commit. Reads through it see staged state."""

    def __init__(self, store: Store) -> None:
        self.store = store
        store._open = self
        self._files: dict[Path, tuple[bytes, int | None]] = {}  # other store files, by path
        self._new: dict[str, tuple[Fixture, Content, list[LabelRevision]]] = {}
        self._fixture_cache: dict[str, Fixture] = {}
        self._revision_cache: dict[str, list[LabelRevision]] = {}
        self._dirty_fixtures: dict[str, Fixture] = {}
        self._dirty_revisions: dict[str, list[LabelRevision]] = {}
        self._dirty_contents: dict[str, Content] = {}
        # Fixtures written to the staging area as they came (`stage_fixture`): their ids and
        # sources, for the source index (a Spill: an import may stage 200,000 of them).
        self._staged_sources = Spill()
        self._staged: journal.Staged | None = None

    def exists(self, fixture_id: str) -> bool:
        return (
            fixture_id in self._new
            or (self._staged is not None and self._staged.holds_folder(fixture_id))
            or self.store.exists(fixture_id)
        )

    def create_fixture(
        self,
        fixture: Fixture,
        content: Content,
        revisions: list[LabelRevision],
    ) -> None:
        self._new[fixture.id] = self._checked_new(fixture, content, revisions)

    def stage_fixture(
        self,
        fixture: Fixture,
        content: Content,
        revisions: list[LabelRevision],
    ) -> None:
        """Create a fixture as `create_fixture` does, but write its files to the staging
        area now instead of holding them until the commit: an import of a million posts
        holds one thread at a time. It lands with the commit, or not at all; it cannot be
        read back through the transaction."""
        fixture, content, revisions = self._checked_new(fixture, content, revisions)
        self._staging().folder_of(
            self.store.folder_for(fixture) / fixture.id,
            _fixture_files(fixture, content, revisions),
        )
        self._staged_sources.append({"id": fixture.id, "source": source_of(fixture)})

    def _checked_new(
        self, fixture: Fixture, content: Content, revisions: list[LabelRevision]
    ) -> tuple[Fixture, Content, list[LabelRevision]]:
        """A new fixture's files as the model reads them back, or bad input refused."""
        if self.exists(fixture.id):
            raise CuratorError(f"fixture {fixture.id} already exists")
        fixture = _revalidated(fixture)
        content = ContentFile.model_validate(
            ContentFile(content=content).model_dump(mode="json")
        ).content
        _check_revision_numbers(fixture.id, revisions)
        return fixture, content, [_revalidated(r) for r in revisions]

    def savepoint(self) -> tuple[tuple[int, int], SpillMark]:
        """Where the staged fixtures stand now: `rollback_to` takes back those staged after."""
        return (self._staging().mark(), self._staged_sources.mark())

    def rollback_to(self, point: tuple[tuple[int, int], SpillMark]) -> None:
        """Take back the fixtures `stage_fixture` wrote since `point` (a source left out)."""
        staged, sources = point
        self._staging().drop_since(staged)
        self._staged_sources.drop_since(sources)

    def abandon(self) -> None:
        """Remove what was staged on disk: the block failed, nothing lands."""
        if self._staged is not None:
            self._staged.abandon()
        if self.store._open is self:
            self.store._open = None

    def _staging(self) -> journal.Staged:
        if self._staged is None:
            self._staged = journal.Staged(self.store.root, self.store.staging_root)
        return self._staged

    def fixture(self, fixture_id: str) -> Fixture:
        if fixture_id in self._new:
            return self._new[fixture_id][0]
        if fixture_id in self._dirty_fixtures:
            return self._dirty_fixtures[fixture_id]
        if fixture_id not in self._fixture_cache:
            self._fixture_cache[fixture_id] = self.store.load_fixture(fixture_id)
        return self._fixture_cache[fixture_id]

    def revisions(self, fixture_id: str) -> list[LabelRevision]:
        if fixture_id in self._new:
            return self._new[fixture_id][2]
        if fixture_id not in self._revision_cache:
            self._revision_cache[fixture_id] = self.store.load(fixture_id).revisions
        return self._revision_cache[fixture_id]

    def save_fixture(self, fixture: Fixture) -> None:
        fixture = _revalidated(fixture)
        if fixture.id in self._new:
            _, content, revisions = self._new[fixture.id]
            self._new[fixture.id] = (fixture, content, revisions)
        else:
            self.store.directory(fixture.id)
            self._dirty_fixtures[fixture.id] = fixture

    def save_content(self, fixture_id: str, content: Content) -> None:
        content = ContentFile.model_validate(
            ContentFile(content=content).model_dump(mode="json")
        ).content
        if fixture_id in self._new:
            fixture, _, revisions = self._new[fixture_id]
            self._new[fixture_id] = (fixture, content, revisions)
        else:
            self.store.directory(fixture_id)
            self._dirty_contents[fixture_id] = content

    def append_revision(self, fixture_id: str, revision: LabelRevision) -> LabelRevision:
        """Append `revision` as the next rev (its own rev number is replaced)."""
        existing = self.revisions(fixture_id)
        numbered = _revalidated(revision.model_copy(update={"rev": len(existing) + 1}))
        existing.append(numbered)
        if fixture_id not in self._new:
            self._dirty_revisions[fixture_id] = existing
        return numbered

    def replace_revisions(self, fixture_id: str, revisions: list[LabelRevision]) -> None:
        """Rewrite a fixture's revisions in place (a privacy repair: `curator vault add`); the
        history keeps its numbers, times and authors, only its text changes."""
        _check_revision_numbers(fixture_id, revisions)
        revalidated = [_revalidated(r) for r in revisions]
        if fixture_id in self._new:
            fixture, content, _ = self._new[fixture_id]
            self._new[fixture_id] = (fixture, content, revalidated)
        else:
            self._revision_cache[fixture_id] = revalidated
            self._dirty_revisions[fixture_id] = revalidated

    def write_file(self, path: Path, data: bytes, *, mode: int | None = None) -> None:
        """Write a file of the store (the vault) at commit, with the fixtures."""
        self._files[path] = (data, mode)

    def commit(self) -> None:
        """Stage every write, then rename them all into place under one journal: a kill or
        a failure (a full disk) at any point leaves all of them or none (curator/journal.py)."""
        if self.store._open is self:
            self.store._open = None
        changes, moved = self._source_changes()
        sources = self._sources_after(changes)
        staged = self._staging()
        try:
            if moved:
                # An existing fixture changes source: no saved index may describe the old
                # files once the new ones land, so it goes first (then it is rebuilt).
                staged.remove(self.store.local_path(SOURCES_FILE), first=True)
            self._stage(staged)
        except BaseException:
            staged.abandon()
            raise
        staged.commit()
        if moved:
            self.store._sources = None  # it described the removed file
        # After, so it never covers a fixture that is not on disk. A crash before this line
        # leaves the old index, which covers fewer fixtures than the folders hold: stale, so
        # rebuilt on next use, never believed.
        if sources is not None:
            self.store._save_sources(
                sources, more=((r["id"], r["source"]) for r in self._staged_sources)
            )

    def _stage(self, staged: journal.Staged) -> None:
        # The vault first: a pseudonym is never used but unrecorded, even while the renames
        # are under way (a reader holds no lock).
        for path, (data, mode) in self._files.items():
            staged.file(path, data, mode, first=True)  # before the fixtures staged as they came
        for fixture_id, (fixture, content, revisions) in self._new.items():
            staged.folder_of(
                self.store.folder_for(fixture) / fixture_id,
                _fixture_files(fixture, content, revisions),
            )
        # Content before labels before metadata: a reader between two renames sees labels
        # that still point into the content they were made for.
        for fixture_id, content in self._dirty_contents.items():
            directory = self.store.directory(fixture_id)
            staged.file(directory / CONTENT_FILE, dump_content(content).encode("utf-8"))
        for fixture_id, revisions in self._dirty_revisions.items():
            directory = self.store.directory(fixture_id)
            staged.file(directory / LABELS_FILE, dump_labels(revisions).encode("utf-8"))
        for fixture_id, fixture in self._dirty_fixtures.items():
            directory = self.store.directory(fixture_id)
            staged.file(directory / FIXTURE_FILE, dump_json(fixture).encode("utf-8"))

    def _source_changes(self) -> tuple[dict[str, str | None], bool]:
        """Source index entries this commit adds or changes, and whether any existing changes."""
        changes = {
            fixture_id: source_of(fixture) for fixture_id, (fixture, _, _) in self._new.items()
        }
        moved = False
        for fixture_id, fixture in self._dirty_fixtures.items():
            try:
                before = source_of(
                    self._fixture_cache.get(fixture_id) or self.store.load_fixture(fixture_id)
                )
            except CuratorError:
                before = None
                moved = True
            if source_of(fixture) != before:
                changes[fixture_id] = source_of(fixture)
                moved = True
        return changes, moved

    def _sources_after(self, changes: dict[str, str | None]) -> SourceIndex | None:
        """The source index once this commit lands but for the fixtures staged as they came
        (written after it, `_save_sources(more=)`); None when it is left as it is."""
        if not changes and not len(self._staged_sources):
            return None
        try:
            return self.store._sources_to_extend().updated(changes)
        except CuratorError:
            return None  # a fixture.json it cannot read: rebuilt when the store is sound again


def _fixture_files(
    fixture: Fixture, content: Content, revisions: list[LabelRevision]
) -> dict[str, bytes]:
    files = {
        FIXTURE_FILE: dump_json(fixture),
        CONTENT_FILE: dump_content(content),
        LABELS_FILE: dump_labels(revisions),
    }
    return {name: text.encode("utf-8") for name, text in files.items()}


def _revalidated(model: Any) -> Any:
    """Round-trip through JSON so nothing the schema rejects (set by assignment) is written."""
    try:
        return type(model).model_validate_json(model.model_dump_json())
    except ValidationError as error:
        raise CuratorError(
            f"refusing to write an invalid {type(model).__name__}: {first_problem(error)}"
        ) from None


def _check_revision_numbers(fixture_id: str, revisions: list[LabelRevision]) -> None:
    for expected, revision in enumerate(revisions, start=1):
        if revision.rev != expected:
            raise CuratorError(
                f"{fixture_id}: label revisions must be numbered 1..n, found rev {revision.rev}"
            )


def _read_bytes(path: str, max_bytes: int) -> bytes | None:
    """A fixture file's bytes (None: missing). Never through a symbolic link, which could
    point outside the store; never more than `max_bytes`."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError:
        if _is_link(Path(path)):
            raise CuratorError(
                f"{_last_parts(path)} is a symbolic link; fixture files must be regular "
                "files inside the store"
            ) from None
        raise
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise CuratorError(f"{_last_parts(path)}: not a regular file")
        if info.st_size > max_bytes:
            raise CuratorError(
                f"{_last_parts(path)}: {too_big(info.st_size, max_bytes, 'max_json_mb')}"
            )
        return handle.read()


def _last_parts(path: str) -> str:
    """folder/id/file: where a fixture file is, without the absolute path."""
    parts = Path(path).parts
    return "/".join(parts[-3:])


def _is_folder(path: Path) -> bool:
    """A real folder, not a symbolic link to one."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _is_link(path: Path) -> bool:
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        return False


def _not_linked(path: Path, root: Path) -> Path:
    if _is_link(path) or _is_link(path.parent):
        raise CuratorError(
            f"{path.relative_to(root)} is a symbolic link; bundles must be real files "
            "inside the store"
        )
    return path


def _read_files(directory: str, max_bytes: int) -> dict[str, bytes | None]:
    return {name: _read_bytes(os.path.join(directory, name), max_bytes) for name in FIXTURE_FILES}


def _stat(path: str) -> list[int]:
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return list(MISSING_STAT)
    return [info.st_size, info.st_mtime_ns, info.st_ino]


def _stamp(path: Path) -> tuple[int, int, int] | None:
    """The stat of a file that is only ever replaced whole; None when it is missing."""
    found = _stat(str(path))
    return None if found == MISSING_STAT else (found[0], found[1], found[2])
