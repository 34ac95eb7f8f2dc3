"""An OCR import killed in the middle leaves no process behind and no page image (TMPDIR
is an empty folder: empty again after a graceful signal, and after the next command
following a SIGKILL), and the next one runs.

The import runs in its own process group; once a Tesseract is running in it, the import's
main process alone is signalled. Then /proc is scanned for any live process left in that
group: an OCR worker or a Tesseract (a zombie waiting for init to reap it is dead).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.corpus import CORPUS_DIR as CORPUS
from tests.hostile.conftest import run, tree

pytestmark = pytest.mark.slow

# 65 pages with a text layer, read by OCR with --ocr always: minutes of Tesseract work.
LONG_SCAN = CORPUS / "pdfs" / "pdfplumber-chelsea_pdta.pdf"
SHORT_SCAN = CORPUS / "images" / "ocrmypdf-typewriter.png"


def interruptible() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def group_members(group: int) -> dict[int, str]:
    """pid -> command name of every live (not zombie) process in a process group."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue  # gone meanwhile
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        state, pgrp = fields[0], int(fields[2])
        if pgrp == group and state != "Z":
            found[int(entry)] = name
    return found


def wait_for(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


@pytest.mark.parametrize(
    "signum, code, says",
    [
        (signal.SIGKILL, -signal.SIGKILL, None),
        (signal.SIGTERM, 143, "curator: error: terminated"),
        (signal.SIGINT, 130, "curator: error: interrupted"),
        (signal.SIGHUP, 129, "curator: error: hung up"),
    ],
    ids=["SIGKILL", "SIGTERM", "SIGINT", "SIGHUP"],
)
def test_a_killed_ocr_import_leaves_no_worker_and_the_next_import_runs(
    sandbox, fresh_store, signum, code, says
):
    before = tree(fresh_store.root)
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "curator",
            "--store",
            str(fresh_store.root),
            "import",
            str(LONG_SCAN),
            "--ocr",
            "always",
            "--workers",
            "2",
        ],
        cwd=sandbox.cwd,
        env=sandbox.env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: what the scan looks in
        # Ctrl-C as a terminal delivers it: a suite started in the background (`make test &`,
        # nohup) hands its children SIGINT ignored, and Python keeps an inherited SIG_IGN
        preexec_fn=interruptible,
    )
    try:
        wait_for(
            lambda: "tesseract" in group_members(child.pid).values(), 180, "a running Tesseract"
        )
        workers = group_members(child.pid)
        assert len(workers) >= 4, workers  # the import, two workers, at least one Tesseract
        # A running Tesseract reads the page image pytesseract wrote: in the private folder.
        wait_for(lambda: page_images(sandbox.tmp), 30, "a page image")
        [private] = sandbox.tmp.iterdir()
        assert private.stat().st_mode & 0o777 == 0o700
        os.kill(child.pid, signum)
        _, stderr = child.communicate(timeout=60)
        assert child.returncode == code
        if says:
            assert stderr.decode().splitlines()[-1] == says
        wait_for(lambda: not group_members(child.pid), 15, "the workers to die")
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
        for pid in group_members(child.pid):
            os.kill(pid, signal.SIGKILL)
    assert tree(fresh_store.root) == before  # killed before anything was written
    assert not page_images(fresh_store.root) and not page_images(sandbox.cwd)
    if signum == signal.SIGKILL:
        assert page_images(sandbox.tmp)  # nothing ran to remove them: the next command does
    else:
        assert not list(sandbox.tmp.iterdir())
    again = run(sandbox, "import", SHORT_SCAN, store=fresh_store)
    assert again.exit_code == 0 and "1 fixture(s) created" in again.stdout, again
    assert not list(sandbox.tmp.iterdir())


def page_images(folder: Path) -> list[Path]:
    """pytesseract's temporary files (tess_*) anywhere under `folder`."""
    return [p for p in folder.rglob("tess_*")]
