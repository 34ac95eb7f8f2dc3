"""Where the shared public corpus is: ../shared/corpus next to the repository (CI has it
there), or CURATOR_CORPUS for a checkout elsewhere.

The corpus is what proves curator on inputs nobody here wrote, so a test that needs it
fails without it instead of skipping: importing this module stops the collection with
one line saying where it looked.
"""

from __future__ import annotations

import os
from pathlib import Path

CORPUS_DIR = Path(
    os.environ.get("CURATOR_CORPUS") or Path(__file__).resolve().parents[2] / "shared" / "corpus"
)

if not (CORPUS_DIR / "pdfs").is_dir():
    raise RuntimeError(
        f"no public corpus at {CORPUS_DIR}: put ../shared/corpus next to the repository "
        "or set CURATOR_CORPUS"
    )
