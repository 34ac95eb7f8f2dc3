"""Every file of the shared public corpus (../shared/corpus, read in place) imports, or where it
is truly unreadable fails with one line and exit 2; none of the people corpus_people.py lists
for it is in the store or in a bundle built from it; and `curator audit` is clean.

Each file is imported on its own (an import is all or nothing) into one store, as a user
would bring a folder of real documents in one by one. Slow: the scans go through Tesseract.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from curator.store import Store
from tests.conftest import run_cli
from tests.corpus import CORPUS_DIR
from tests.data.corpus_people import (
    CORPUS_METADATA_PEOPLE,
    CORPUS_PEOPLE,
    Squashed,
    mentioned,
    where_mentioned,
)

FILES = {
    p.name: p for folder in ("pdfs", "images") for p in sorted((CORPUS_DIR / folder).glob("*"))
}

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def corpus_store(tmp_path_factory) -> tuple[Store, dict[str, tuple[int, str]], str]:
    """The store after importing each corpus file; {file: (exit code, stderr)}; the bundle's text.
    The vault key is new on every run, so every run draws other pseudonyms: a pseudonym whose
    letters run across words ("Craig Liu") must not count as a listed person ("G. LIU")."""
    store = Store.init(tmp_path_factory.mktemp("corpus") / "store")
    results = {}
    for name, path in FILES.items():
        run = run_cli("import", str(path), store=store.root)
        results[name] = (run.exit_code, run.stderr)
    built = run_cli(
        "bundle",
        "build",
        "1.0.0",
        "--status",
        "draft",
        "--format",
        "jsonl,mattermost",
        store=store.root,
    )
    assert built.exit_code == 0, built.stderr
    bundle = "\n".join(
        p.read_text(encoding="utf-8")
        for p in sorted((store.bundles_dir / "1.0.0").rglob("*"))
        if p.is_file() and p.suffix in (".jsonl", ".json", ".md")
    )
    return store, results, bundle


def _fixture_text(store: Store, name: str) -> str:
    """The stored files of the fixture(s) imported from corpus file `name`."""
    digest = hashlib.sha256(FILES[name].read_bytes()).hexdigest()
    texts = []
    for fixture_id in store.ids():
        if store.load_fixture(fixture_id).provenance.source_sha256 == digest:
            texts += [
                p.read_text(encoding="utf-8") for p in sorted(store.directory(fixture_id).iterdir())
            ]
    return "\n".join(texts)


@pytest.mark.parametrize("name", sorted(FILES))
def test_each_file_imports(corpus_store, name):
    store, results, _ = corpus_store
    code, stderr = results[name]
    assert code == 0, stderr
    assert _fixture_text(store, name)


def test_a_file_that_cannot_be_imported_says_why_in_one_line(corpus_store):
    _, results, _ = corpus_store
    for name, (code, stderr) in results.items():
        if code:
            assert (
                code == 2 and stderr.startswith("curator: error: ") and stderr.count("\n") == 1
            ), (name, stderr)


@pytest.mark.parametrize("name", sorted(FILES))
def test_no_listed_person_is_in_the_store_or_the_bundle(corpus_store, name):
    store, results, bundle = corpus_store
    people = CORPUS_PEOPLE[name] + CORPUS_METADATA_PEOPLE.get(name, [])
    if people and results[name][0] != 0:
        pytest.fail(
            f"{name} was not imported, so its people were not anonymised: {results[name][1]}"
        )
    texts = {"fixture": Squashed(_fixture_text(store, name)), "bundle": Squashed(bundle)}
    found = {
        place: {p: where_mentioned(p, text) for p in people if mentioned(p, text)}
        for place, text in texts.items()
    }
    assert found == {"fixture": {}, "bundle": {}}


def test_the_audit_is_clean(corpus_store):
    store, _, _ = corpus_store
    run = run_cli("audit", "--json", store=store.root)
    assert run.exit_code == 0, json.loads(run.stdout)["leaks"][:5]
