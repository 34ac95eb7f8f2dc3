"""The golden store on disk: the only code that knows its layout.

    curator.toml
    goldens/<id>/{fixture.json, content.json, labels.jsonl}
    adversarial/<id>/...          variants and promoted failures
    schemas/  bundles/<version>/
    .curator/                     local only: vault, lock, review state, staging

Every write goes through a `Transaction`: it is validated against the model, buffered, and
written at commit with atomic renames while the store lock is held, so a failed command
leaves the store as it was and two curator processes never lose each other's work.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from curator import atomic
from curator.config import CONFIG_NAME, default_config_text, load_config
from curator.errors import CuratorError, FixtureNotFound, StoreNotFound, first_problem
from curator.model import Content, ContentFile, Fixture, LabelRevision, slugify

GOLDENS = "goldens"
ADVERSARIAL = "adversarial"
BUNDLES = "bundles"
SCHEMAS = "schemas"
LOCAL = ".curator"
FIXTURE_FILE = "fixture.json"
CONTENT_FILE = "content.json"
LABELS_FILE = "labels.jsonl"
FIXTURE_DIRS = (GOLDENS, ADVERSARIAL)
STORE_ENV = "CURATOR_STORE"
LOCK_WAIT_SECONDS = 30.0

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
        self._config = None

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
            atomic.write_text(gitignore, existing + ("\n" if existing and not existing.endswith("\n") else "") + GITIGNORE)
        atomic.write_text(config, default_config_text())
        return cls(path)

    @classmethod
    def open(cls, path: Path | None = None) -> Store:
        """The store at `path`, else $CURATOR_STORE, else the nearest folder upward with curator.toml."""
        if path is None and os.environ.get(STORE_ENV):
            path = Path(os.environ[STORE_ENV])
        if path is not None:
            if not (path / CONFIG_NAME).is_file():
                raise StoreNotFound(f"no curator store at {path} (no {CONFIG_NAME}; run `curator init`)")
            return cls(path)
        here = Path.cwd().resolve()
        for folder in (here, *here.parents):
            if (folder / CONFIG_NAME).is_file():
                return cls(folder)
        raise StoreNotFound(f"no curator store in {here} or any parent (run `curator init`)")

    @property
    def config(self):  # noqa: ANN201 - StoreConfig, imported lazily with the model
        if self._config is None:
            self._config = load_config(self.root / CONFIG_NAME)
        return self._config

    def local_path(self, name: str) -> Path:
        """A file under .curator/ (never committed, never exported)."""
        local = self.root / LOCAL
        local.mkdir(exist_ok=True)
        return local / name

    @property
    def bundles_dir(self) -> Path:
        return self.root / BUNDLES

    # ------------------------------------------------------------ reading

    def ids(self) -> list[str]:
        found: list[str] = []
        for folder in FIXTURE_DIRS:
            base = self.root / folder
            if base.is_dir():
                found.extend(p.name for p in base.iterdir() if p.is_dir() and not p.name.startswith("."))
        return sorted(found)

    def directory(self, fixture_id: str) -> Path:
        for folder in FIXTURE_DIRS:
            candidate = self.root / folder / fixture_id
            if candidate.is_dir():
                return candidate
        raise FixtureNotFound(f"no fixture {fixture_id!r} in {self.root}")

    def exists(self, fixture_id: str) -> bool:
        return any((self.root / folder / fixture_id).is_dir() for folder in FIXTURE_DIRS)

    def load(self, fixture_id: str) -> FixtureRecord:
        directory = self.directory(fixture_id)
        return FixtureRecord(
            fixture=self._read_model(directory / FIXTURE_FILE, Fixture),
            content=self._read_model(directory / CONTENT_FILE, ContentFile).content,
            revisions=self._read_revisions(directory / LABELS_FILE),
            directory=directory,
        )

    def load_fixture(self, fixture_id: str) -> Fixture:
        return self._read_model(self.directory(fixture_id) / FIXTURE_FILE, Fixture)

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

    def find_by_source(self, sha256: str) -> str | None:
        """The fixture already made from a raw source with this hash (idempotent import)."""
        for fixture_id in self.ids():
            fixture = self.load_fixture(fixture_id)
            if fixture.lineage is None and fixture.provenance.source_sha256 == sha256:
                return fixture_id
        return None

    def _read_model(self, path: Path, model: type[BaseModel]) -> Any:
        try:
            return model.model_validate_json(path.read_bytes())
        except FileNotFoundError:
            raise CuratorError(f"{self._rel(path)}: missing") from None
        except ValidationError as error:
            raise CuratorError(f"{self._rel(path)}: {first_problem(error)}") from None

    def _read_revisions(self, path: Path) -> list[LabelRevision]:
        if not path.exists():
            return []
        revisions = []
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                revisions.append(LabelRevision.model_validate_json(line))
            except ValidationError as error:
                raise CuratorError(f"{self._rel(path)}:{number}: {first_problem(error)}") from None
        return revisions

    def _rel(self, path: Path) -> str:
        try:
            return str(path.relative_to(self.root))
        except ValueError:
            return str(path)

    # ------------------------------------------------------------ writing

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Exclusive store lock; waits for another curator process, then gives up clearly."""
        lock_path = self.local_path("lock")
        with open(lock_path, "a+") as handle:
            deadline = time.monotonic() + LOCK_WAIT_SECONDS
            while True:
                try:
                    fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except OSError as error:
                    if error.errno not in (errno.EAGAIN, errno.EACCES):
                        raise
                    if time.monotonic() > deadline:
                        raise CuratorError("the store is locked by another curator process") from None
                    time.sleep(0.05)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

    @contextmanager
    def transaction(self) -> Iterator[Transaction]:
        """Buffer writes; commit them all when the block ends without an error."""
        with self.locked():
            txn = Transaction(self)
            yield txn
            txn.commit()

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
        self._new: dict[str, tuple[Fixture, Content, list[LabelRevision]]] = {}
        self._fixture_cache: dict[str, Fixture] = {}
        self._revision_cache: dict[str, list[LabelRevision]] = {}
        self._dirty_fixtures: dict[str, Fixture] = {}
        self._dirty_revisions: dict[str, list[LabelRevision]] = {}
        self._dirty_contents: dict[str, Content] = {}

    def exists(self, fixture_id: str) -> bool:
        return fixture_id in self._new or self.store.exists(fixture_id)

    def create_fixture(
        self,
        fixture: Fixture,
        content: Content,
        revisions: list[LabelRevision],
    ) -> None:
        if self.exists(fixture.id):
            raise CuratorError(f"fixture {fixture.id} already exists")
        fixture = _revalidated(fixture)
        content = ContentFile.model_validate(ContentFile(content=content).model_dump(mode="json")).content
        _check_revision_numbers(fixture.id, revisions)
        self._new[fixture.id] = (fixture, content, [_revalidated(r) for r in revisions])

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
        content = ContentFile.model_validate(ContentFile(content=content).model_dump(mode="json")).content
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

    def commit(self) -> None:
        staging_root = self.store.local_path("staging")
        for fixture_id, (fixture, content, revisions) in self._new.items():
            folder = ADVERSARIAL if fixture.adversarial else GOLDENS
            staged = atomic.staging_dir(staging_root, f"{fixture_id}.")
            try:
                (staged / FIXTURE_FILE).write_text(dump_json(fixture), encoding="utf-8")
                (staged / CONTENT_FILE).write_text(dump_content(content), encoding="utf-8")
                (staged / LABELS_FILE).write_text(dump_labels(revisions), encoding="utf-8")
                atomic.publish_dir(staged, self.store.root / folder / fixture_id)
            except BaseException:
                atomic.remove_tree(staged)
                raise
        # Content before labels before metadata: a crash in between leaves labels that still
        # point into the content they were made for, since each file is replaced whole.
        for fixture_id, content in self._dirty_contents.items():
            atomic.write_text(self.store.directory(fixture_id) / CONTENT_FILE, dump_content(content))
        for fixture_id, revisions in self._dirty_revisions.items():
            atomic.write_text(self.store.directory(fixture_id) / LABELS_FILE, dump_labels(revisions))
        for fixture_id, fixture in self._dirty_fixtures.items():
            atomic.write_text(self.store.directory(fixture_id) / FIXTURE_FILE, dump_json(fixture))


def _revalidated(model: Any) -> Any:
    """Round-trip through JSON so nothing the schema rejects (set by assignment) is written."""
    try:
        return type(model).model_validate_json(model.model_dump_json())
    except ValidationError as error:
        raise CuratorError(f"refusing to write an invalid {type(model).__name__}: {first_problem(error)}") from None


def _check_revision_numbers(fixture_id: str, revisions: list[LabelRevision]) -> None:
    for expected, revision in enumerate(revisions, start=1):
        if revision.rev != expected:
            raise CuratorError(f"{fixture_id}: label revisions must be numbered 1..n, found rev {revision.rev}")
