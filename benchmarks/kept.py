"""What anonymisation keeps of real documents: the share of each text-layer PDF's word and
number tokens that the stored fixture still holds verbatim.

Data: the text-layer PDFs of the shared public corpus (../shared/corpus/pdfs, read in
place; public documents this project did not write), each imported on its own into one
fresh store with `curator import --ocr never`, as a user brings a folder in. The text
before is curator's own reading of the text layer (curator.ingest's `text_layer`, the
text the anonymiser is given), so a difference is the anonymiser's doing, never a second
PDF reader's. The tokens of the people tests/data/corpus_people.py lists for a file, and
the street addresses and phone numbers tests/data/corpus_kept.py lists, are left out of the
count: rewriting them is the point. Every other token lost is data loss: a place, a figure
of a table, an ordinary word. Each file's places (corpus_kept.py, read by hand) must all be
there as often as before, and none of its people.

    python benchmarks/kept.py        # a line per file, worst first, and what each lost most
"""

from __future__ import annotations

import collections
import hashlib
import json
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from curator.ingest.pdf import text_layer  # noqa: E402
from curator.ingest.source import read_source  # noqa: E402
from curator.store import Store  # noqa: E402
from tests.conftest import run_cli  # noqa: E402
from tests.corpus import CORPUS_DIR  # noqa: E402
from tests.data.corpus_kept import CORPUS_CONTACTS, CORPUS_PLACES  # noqa: E402
from tests.data.corpus_people import CORPUS_PEOPLE, mentioned  # noqa: E402

# A number with its thousands groups and decimals ("2,179", "388.57"), else a word with an
# inner apostrophe ("Superintendent's").
TOKEN = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|[^\W\d_]+(?:['’][^\W\d_]+)?")
TARGET = 0.995  # issue 28: at least 99.5 % of the tokens of each file survive


def text_layer_files() -> list[Path]:
    return [
        p for p in sorted((CORPUS_DIR / "pdfs").glob("*.pdf")) if any(text_layer(read_source(p)))
    ]


@dataclass
class Kept:
    """What one file's fixture kept of its text layer."""

    count: int  # tokens counted
    lost: collections.Counter[str]  # the tokens lost, with how often
    places_lost: list[str]  # listed places found fewer times than in the text layer
    people_left: list[str]  # listed people still in the fixture's text

    @property
    def share(self) -> float:
        return 1 - sum(self.lost.values()) / self.count


def kept_per_file(files: list[Path]) -> dict[str, Kept]:
    """File name -> what its fixture kept."""
    store = Store.init(Path(tempfile.mkdtemp()) / "store")
    by_sha = {}
    for path in files:
        run = run_cli("import", str(path), "--ocr", "never", store=store.root)
        if run.exit_code != 0:
            raise SystemExit(f"{path.name}: {run.stderr.strip()}")
        by_sha[hashlib.sha256(path.read_bytes()).hexdigest()] = path
    result = {}
    for fixture_id in store.ids():
        fixture = store.load_fixture(fixture_id)
        path = by_sha[fixture.provenance.source_sha256]
        listed = CORPUS_PEOPLE.get(path.name, [])
        people = {t.casefold() for p in listed for t in TOKEN.findall(p)}
        original = "\n".join(text_layer(read_source(path)))
        for contact in CORPUS_CONTACTS.get(path.name, []):
            original = original.replace(contact, " ")
        before = collections.Counter(
            t for t in TOKEN.findall(original) if t.casefold() not in people
        )
        content = json.loads(
            (store.directory(fixture_id) / "content.json").read_text(encoding="utf-8")
        )
        text = "\n".join(p["text"] for p in content["content"]["pages"])
        result[path.name] = Kept(
            sum(before.values()),
            before - collections.Counter(TOKEN.findall(text)),
            [p for p in CORPUS_PLACES.get(path.name, []) if _times(p, text) < _times(p, original)],
            [p for p in listed if mentioned(p, text)],
        )
    return result


def _times(place: str, text: str) -> int:
    return len(re.findall(rf"(?<!\w){re.escape(place)}(?!\w)", text))


def main() -> int:
    files = text_layer_files()
    print(
        f"data: {len(files)} text-layer PDFs of {CORPUS_DIR / 'pdfs'} (public documents), one store"
    )
    rows = kept_per_file(files)
    total = sum(row.count for row in rows.values())
    lost = sum(sum(row.lost.values()) for row in rows.values())
    for name, row in sorted(rows.items(), key=lambda r: r[1].share):
        print(f"{row.share:8.2%} of {row.count:6d} tokens kept  {name}")
        if row.lost:
            print(
                "          lost most: "
                + ", ".join(f"{t} x{n}" for t, n in row.lost.most_common(12))
            )
        if row.places_lost:
            print("          places lost: " + ", ".join(row.places_lost))
        if row.people_left:
            print("          PEOPLE LEFT: " + ", ".join(row.people_left))
    worst = min(row.share for row in rows.values())
    places = sum(len(CORPUS_PLACES.get(name, [])) for name in rows)
    places_lost = sum(len(row.places_lost) for row in rows.values())
    people_left = sum(len(row.people_left) for row in rows.values())
    print(
        f"kept: {1 - lost / total:.2%} of {total} tokens overall, worst file {worst:.2%} "
        f"(target >= {TARGET:.1%} per file); places kept {places - places_lost}/{places}; "
        f"listed people left {people_left}"
    )
    return 0 if worst >= TARGET and not places_lost and not people_left else 1


if __name__ == "__main__":
    sys.exit(main())
