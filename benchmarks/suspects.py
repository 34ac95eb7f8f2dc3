"""How long a suspect list (`curator audit --suspects`) a person gets, and what it catches.

Data: (1) the text-layer PDFs of the shared public corpus (../shared/corpus/pdfs, read in
place; public documents this project did not write), imported into one fresh store with
`curator import --ocr never` as benchmarks/kept.py does; the people a person listed in each
(tests/data/corpus_people.py) are the truth: a listed person whose words survive the import
is a miss, and the suspect list should name it. (2) Optionally a store given with --store
(the sample store as scripts/build_sample_store.py --keep leaves it, its vault included).

    python benchmarks/suspects.py                 # the corpus store
    python benchmarks/suspects.py --store DIR     # also a store of your own
    python benchmarks/suspects.py --list          # and every suspect, masked
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.kept import text_layer_files  # noqa: E402
from curator.anonymise import Suspect, find_suspects  # noqa: E402
from curator.store import Store  # noqa: E402
from tests.conftest import run_cli  # noqa: E402
from tests.corpus import CORPUS_DIR  # noqa: E402
from tests.data.corpus_people import CORPUS_PEOPLE, mentioned  # noqa: E402

WORD = re.compile(r"[^\W\d_]+")


def corpus_store() -> tuple[Store, dict[str, str]]:
    """The corpus imported into one store, and fixture id -> the file it came from."""
    store = Store.init(Path(tempfile.mkdtemp()) / "store")
    by_sha = {}
    for path in text_layer_files():
        run = run_cli("import", str(path), "--ocr", "never", store=store.root)
        if run.exit_code != 0:
            raise SystemExit(f"{path.name}: {run.stderr.strip()}")
        by_sha[hashlib.sha256(path.read_bytes()).hexdigest()] = path.name
    files = {i: by_sha[store.load_fixture(i).provenance.source_sha256] for i in store.ids()}
    return store, files


def summary(name: str, suspects: list[Suspect]) -> list[str]:
    reasons = collections.Counter(s.reason for s in suspects)
    fixtures = len({s.fixture for s in suspects})
    lines = [f"{name}: {len(suspects)} suspect(s) in {fixtures} fixture(s)"]
    lines += [f"  {count:4d}  {reason}" for reason, count in sorted(reasons.items())]
    return lines


def corpus_report(store: Store, files: dict[str, str], suspects: list[Suspect]) -> list[str]:
    """Which listed people survived the import, and whether a suspect names each."""
    lines = []
    missed = caught = listed_suspects = 0
    for fixture_id, name in sorted(files.items(), key=lambda item: item[1]):
        content = store.load(fixture_id).content
        text = "\n".join(page.text for page in getattr(content, "pages", []))
        mine = [s for s in suspects if s.fixture == fixture_id]
        people_words = {w.casefold() for p in CORPUS_PEOPLE.get(name, []) for w in WORD.findall(p)}
        listed_suspects += sum(1 for s in mine if s.value.casefold() in people_words)
        for person in CORPUS_PEOPLE.get(name, []):
            if not mentioned(person, text):
                continue
            missed += 1
            words = {w.casefold() for w in WORD.findall(person) if len(w) > 1}
            named = any(s.value.casefold() in words for s in mine)
            caught += named
            lines.append(f"  survived in {name}: {'named by a suspect' if named else 'NOT named'}")
    lines.insert(0, f"listed people surviving the import: {missed}, named by a suspect: {caught}")
    lines.insert(1, f"suspects that are words of a listed person: {listed_suspects}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, help="also report on this store")
    parser.add_argument("--list", action="store_true", help="print every suspect, masked")
    args = parser.parse_args()
    print(f"data: text-layer PDFs of {CORPUS_DIR / 'pdfs'} (public documents), one store")
    store, files = corpus_store()
    suspects = find_suspects(store)
    print("\n".join(summary("corpus store", suspects)))
    print("\n".join(corpus_report(store, files, suspects)))
    if args.list:
        print("\n".join(f"  {s}" for s in suspects))
    if args.store:
        own = find_suspects(Store(args.store.resolve()))
        print("\n".join(summary(f"store {args.store}", own)))
        if args.list:
            print("\n".join(f"  {s}" for s in own))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
