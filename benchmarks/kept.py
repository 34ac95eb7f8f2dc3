"""What anonymisation keeps of real documents: the share of each text-layer PDF's word and
number tokens that the stored fixture still holds verbatim.

Data: the text-layer PDFs of the shared public corpus (../shared/corpus/pdfs, read in
place; public documents this project did not write), each imported on its own into one
fresh store with `curator import --ocr never`, as a user brings a folder in. The text
before is curator's own reading of the text layer (curator.ingest's `text_layer`, the
text the anonymiser is given), so a difference is the anonymiser's doing, never a second
PDF reader's. The tokens of the people tests/data/corpus_people.py lists for a file are
left out of the count: rewriting them is the point. Every other token lost is data loss:
a place, a figure of a table, an ordinary word.

    python benchmarks/kept.py        # a line per file, worst first, and what each lost most
"""

from __future__ import annotations

import collections
import hashlib
import json
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from curator.ingest.pdf import text_layer  # noqa: E402
from curator.ingest.source import read_source  # noqa: E402
from curator.store import Store  # noqa: E402
from tests.conftest import run_cli  # noqa: E402
from tests.corpus import CORPUS_DIR  # noqa: E402
from tests.data.corpus_people import CORPUS_PEOPLE  # noqa: E402

# A number with its thousands groups and decimals ("2,179", "388.57"), else a word with an
# inner apostrophe ("Superintendent's").
TOKEN = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|[^\W\d_]+(?:['’][^\W\d_]+)?")
TARGET = 0.995  # issue 28: at least 99.5 % of the tokens of each file survive


def text_layer_files() -> list[Path]:
    return [
        p for p in sorted((CORPUS_DIR / "pdfs").glob("*.pdf")) if any(text_layer(read_source(p)))
    ]


def kept_per_file(files: list[Path]) -> dict[str, tuple[int, collections.Counter[str]]]:
    """File name -> (tokens counted, the tokens lost with how often)."""
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
        people = {t.casefold() for p in CORPUS_PEOPLE.get(path.name, []) for t in TOKEN.findall(p)}
        before = collections.Counter(
            t
            for t in TOKEN.findall("\n".join(text_layer(read_source(path))))
            if t.casefold() not in people
        )
        content = json.loads(
            (store.directory(fixture_id) / "content.json").read_text(encoding="utf-8")
        )
        after = collections.Counter(
            TOKEN.findall("\n".join(p["text"] for p in content["content"]["pages"]))
        )
        result[path.name] = (sum(before.values()), before - after)
    return result


def main() -> int:
    files = text_layer_files()
    print(
        f"data: {len(files)} text-layer PDFs of {CORPUS_DIR / 'pdfs'} (public documents), one store"
    )
    rows = kept_per_file(files)
    total = sum(count for count, _ in rows.values())
    lost = sum(sum(missing.values()) for _, missing in rows.values())
    for name, (count, missing) in sorted(
        rows.items(), key=lambda r: sum(r[1][1].values()) / r[1][0], reverse=True
    ):
        share = 1 - sum(missing.values()) / count
        print(f"{share:8.2%} of {count:6d} tokens kept  {name}")
        if missing:
            print(
                "          lost most: " + ", ".join(f"{t} x{n}" for t, n in missing.most_common(12))
            )
    worst = min(1 - sum(m.values()) / c for c, m in rows.values())
    print(
        f"kept: {1 - lost / total:.2%} of {total} tokens overall, worst file {worst:.2%} "
        f"(target >= {TARGET:.1%} per file)"
    )
    return 0 if worst >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
