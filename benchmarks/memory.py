"""Peak memory on inputs made to cost memory, against an ordinary scan read the same way.

    python benchmarks/memory.py

Each case runs in a child process; its peak resident memory is the child's ru_maxrss as os.wait4
returns it (the largest of the process and its waited-for descendants: an OCR worker, a Tesseract),
measured as the hostile tests measure it (tests/hostile/peak_rss.py). Printed: each peak, its ratio
to the baseline, and the documented bound it must stay under (curator.limits: DOCUMENT_MEMORY_MB for
reading a document, REFUSAL_MEMORY_MB for refusing an input). No wall-clock target.

  baseline   reading ocrmypdf-ccitt.pdf from ../shared/corpus: one US-letter page scanned
             at 300 dpi (2550 x 3300), OCRed
  documents  hugemono (a 35000 x 35000 image: 34x the pixel budget), enormous (a 9000 x
             9000 colour image), a 1.3 KB PDF with a 14400 x 14400 pt page (3.6 billion
             pixels at 300 dpi), the typewriter PNG 3x a side as a JPEG (decoded in draft mode)
  refusals   a PDF page with a 50000 x 50000 image; a PNG that says 100000 x 100000; a JSON
             of a million tiny values; a 1.5 GB gzip bomb under `bundle verify`
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from curator.limits import DOCUMENT_MEMORY_MB, REFUSAL_MEMORY_MB  # noqa: E402
from tests.corpus import CORPUS_DIR as CORPUS  # noqa: E402

MB = 1 << 20
READ = (
    "import sys\nfrom pathlib import Path\nfrom curator.ingest.documents import parse_document\n"
    "from curator.ingest.source import read_source\n"
    "parse_document(read_source(Path(sys.argv[1])))\n"
)


def peak_mb(argv: list[str], cwd: Path) -> tuple[float, int]:
    """The child's peak memory in MB and its exit code, measured through
    tests/hostile/peak_rss.py (a forked child would otherwise count this process's size)."""
    from tests.hostile.conftest import measured

    run = measured(argv, cwd, dict(os.environ, PYTHONPATH=str(REPO)))
    return run.peak_mb, run.exit_code


def reading(path: Path, cwd: Path) -> tuple[float, int]:
    return peak_mb([sys.executable, "-c", READ, str(path)], cwd)


def curator(cwd: Path, *args: str | Path) -> tuple[float, int]:
    return peak_mb([sys.executable, "-m", "curator", *map(str, args)], cwd)


def blank_page_pdf(folder: Path) -> Path:
    from tests.hostile.test_inputs import _pdf

    path = folder / "huge-page.pdf"
    path.write_bytes(
        _pdf(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 14400 14400] >>",
            ]
        )
    )
    return path


def big_jpeg(folder: Path) -> Path:
    from PIL import Image

    image = Image.open(CORPUS / "images" / "ocrmypdf-typewriter.png").convert("L")
    path = folder / "typewriter-3x.jpg"
    image.resize((image.width * 3, image.height * 3)).save(path, quality=90)
    return path


def refusals(folder: Path) -> dict[str, list[str | Path]]:
    from tests.hostile.test_inputs import _image_pdf, _png_header_only

    (folder / "image-bomb.pdf").write_bytes(_image_pdf(50_000, 50_000))
    (folder / "bomb.png").write_bytes(_png_header_only(100_000, 100_000))
    posts = {f"{i:x}": {"id": f"{i:x}", "message": ""} for i in range(700_000)}
    (folder / "tiny-values.json").write_text(json.dumps({"posts": posts}, separators=(",", ":")))
    bomb = folder / "bomb.tar.gz"
    info = tarfile.TarInfo("1.0.0/manifest.json")
    info.size = 1500 * MB
    chunk = gzip.compress(bytes(16 * MB), compresslevel=9)
    with open(bomb, "wb") as out:
        out.write(gzip.compress(info.tobuf()))
        out.write(chunk * (1500 // 16))
    store = folder / "store"
    return {
        "PDF page with a 50000 x 50000 image": [
            "--store",
            store,
            "import",
            folder / "image-bomb.pdf",
        ],
        "PNG saying 100000 x 100000": ["--store", store, "import", folder / "bomb.png"],
        "JSON of a million tiny values (25 MB)": [
            "--store",
            store,
            "import",
            folder / "tiny-values.json",
        ],
        "1.5 GB gzip bomb (bundle verify)": ["bundle", "verify", bomb],
    }


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="curator-memory-") as name:
        folder = Path(name)
        subprocess.run(
            [sys.executable, "-m", "curator", "init", str(folder / "store")],
            check=True,
            env=dict(os.environ, PYTHONPATH=str(REPO)),
            stdout=subprocess.DEVNULL,
        )
        base, code = reading(CORPUS / "pdfs" / "ocrmypdf-ccitt.pdf", folder)
        assert code == 0, "the baseline scan could not be read"
        print(f"baseline: ocrmypdf-ccitt.pdf (one letter page at 300 dpi, OCRed): {base:.0f} MB")
        print(f"\nreading documents (bound {DOCUMENT_MEMORY_MB} MB a process):")
        ok = True
        documents = {
            "hugemono.pdf (35000 x 35000 image)": CORPUS / "pdfs" / "ocrmypdf-hugemono.pdf",
            "enormous.pdf (9000 x 9000 colour image)": CORPUS / "pdfs" / "ocrmypdf-enormous.pdf",
            "1.3 KB PDF, one 14400 x 14400 pt page": blank_page_pdf(folder),
            "typewriter PNG 3x a side, as JPEG": big_jpeg(folder),
        }
        for label, path in documents.items():
            peak, code = reading(path, folder)
            ok &= code == 0 and peak < DOCUMENT_MEMORY_MB
            print(
                f"  {label:44} {peak:6.0f} MB  {peak / base:4.2f}x baseline  "
                f"{'ok' if code == 0 else 'FAILED'}"
            )
        print(f"\nrefusing inputs (bound {REFUSAL_MEMORY_MB} MB):")
        for label, args in refusals(folder).items():
            peak, code = curator(folder, *args)
            ok &= code == 2 and peak < REFUSAL_MEMORY_MB
            print(f"  {label:44} {peak:6.0f} MB  {peak / base:4.2f}x baseline  exit {code}")
        print("\nevery case under its bound" if ok else "\nSOME CASE OVER ITS BOUND OR FAILED")


if __name__ == "__main__":
    main()
