"""The docs' "Evals and judges" page shows the example files the tests and the demo run."""

from __future__ import annotations

import re

from tests.conftest import REPO
from tests.docs_site import build_site, page, text_of


def test_the_evals_page_shows_the_example_system_and_test_file_verbatim(tmp_path):
    evals = page(build_site(tmp_path / "site"), "guide/evals")
    shown = [text_of(block) for block in re.findall(r"<pre[^>]*>(.*?)</pre>", evals, re.DOTALL)]
    for name in ("extractor.py", "test_extractor.py"):
        code = (REPO / "examples" / "evals" / name).read_text(encoding="utf-8")
        assert code.strip() in [block.strip() for block in shown], (
            f"docs/guide/evals.md does not show examples/evals/{name}"
        )
