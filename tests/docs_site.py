"""The docs site built as `make docs` builds it, for tests that check what it says."""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO, subprocess_env

_TAG = re.compile(r"<[^>]+>")


def build_site(target: Path) -> Path:
    """`mkdocs build --strict` into `target`; fails the test with mkdocs' output if it fails."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "-q",
            "-f",
            str(REPO / "mkdocs.yml"),
            "-d",
            str(target),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        env=subprocess_env(NO_MKDOCS_2_WARNING="1"),
    )
    assert done.returncode == 0, f"mkdocs build failed:\n{done.stdout}\n{done.stderr}"
    return target


def page(site: Path, name: str) -> str:
    """The HTML of one page, by its source name: "reference/cli" for docs/reference/cli.md."""
    return (site / name / "index.html").read_text(encoding="utf-8")


def text_of(fragment: str) -> str:
    """What a reader sees of an HTML fragment: tags out, entities decoded."""
    return html.unescape(_TAG.sub("", fragment))
