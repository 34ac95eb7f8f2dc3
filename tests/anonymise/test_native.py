"""The mypyc-compiled anonymiser modules (scripts/compile_native.py): they are what runs where
built, they rewrite exactly as the plain Python does, and a stale build is refused."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scripts import compile_native
from tests.conftest import REPO

# Rewrites the labelled PII set's texts, chat posts and a whole thread with a fixed key; prints
# where names.py was loaded from and a digest of everything written.
PARITY = """
import hashlib, json, sys
from curator.anonymise import Vault, anonymise
from curator.anonymise import names
from curator.anonymise.detect import detector_for
from curator.anonymise.rewrite import Rewriter
from curator.anonymise.terms import TermIndex
from curator.model import ThreadContent
from tests.anonymise.synth import thread_export
from tests.data.pii import scoring

vault = Vault(hashlib.sha256(b"native parity").digest())
texts = [r["text"] for r in scoring.load("test")]
texts += [p["message"] for p in thread_export(seed=3, n_posts=60)["posts"].values()]
written = Rewriter(vault, TermIndex(), detector_for()).texts(texts)
thread = ThreadContent.model_validate({"kind": "thread", "export": thread_export(seed=5)})
written.append(anonymise(thread, vault).content.model_dump_json())
print(names.__file__)
print(hashlib.sha256(json.dumps(written).encode()).hexdigest())
"""


def _run(root: Path) -> list[str]:
    """PARITY with curator from `root` (and the tests from this checkout)."""
    env = dict(os.environ, PYTHONPATH=f"{root}:{REPO}")
    done = subprocess.run([sys.executable, "-c", PARITY], env=env, cwd=root, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.slow
def test_compiled_and_plain_python_rewrite_alike(tmp_path):
    if not compile_native.built():
        pytest.skip("no compiled modules here (make native builds them)")
    plain = tmp_path / "plain"
    shutil.copytree(REPO / "curator", plain / "curator", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    compiled_from, compiled_digest = _run(REPO)
    plain_from, plain_digest = _run(plain)
    assert compiled_from.endswith(".so") and plain_from.endswith(".py")
    assert compiled_digest == plain_digest


def test_where_built_every_listed_module_runs_compiled():
    if not compile_native.built():
        pytest.skip("no compiled modules here (make native builds them)")
    for source in compile_native.MODULES:
        module = importlib.import_module(source.removesuffix(".py").replace("/", "."))
        assert module.__file__ is not None and module.__file__.endswith(".so"), source


def _fake_checkout(root: Path) -> Path:
    """The script beside sources of its own: it judges the tree it sits in."""
    (root / "scripts").mkdir(parents=True)
    shutil.copy(REPO / "scripts" / "compile_native.py", root / "scripts")
    for source in compile_native.MODULES:
        (root / source).parent.mkdir(parents=True, exist_ok=True)
        (root / source).write_text(f"# {source}\n")
        (root / source.replace(".py", ".cpython-311-x86_64-linux-gnu.so")).write_bytes(b"\x7fELF")
    stamp = {m: hashlib.sha256((root / m).read_bytes()).hexdigest() for m in compile_native.MODULES}
    (root / "build").mkdir()
    (root / "build" / "native.json").write_text(json.dumps(stamp))
    return root / "scripts" / "compile_native.py"


def _check(script: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True)


def test_an_edited_source_or_a_stray_extension_makes_the_build_stale(tmp_path):
    script = _fake_checkout(tmp_path)
    assert _check(script).returncode == 0
    (tmp_path / "curator" / "anonymise" / "names.py").write_text("# edited\n")
    edited = _check(script)
    assert edited.returncode == 1
    assert "older than their source (curator/anonymise/names.py)" in edited.stderr

    script = _fake_checkout(tmp_path / "stray")
    (tmp_path / "stray" / "curator" / "anonymise" / "vault.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    stray = _check(script)
    assert stray.returncode == 1 and "curator/anonymise/vault.cpython-311" in stray.stderr


def test_no_stamp_means_stale(tmp_path):
    script = _fake_checkout(tmp_path)
    (tmp_path / "build" / "native.json").unlink()
    unrecorded = _check(script)
    assert unrecorded.returncode == 1 and "no record of the sources" in unrecorded.stderr
    assert "run `make native`" in unrecorded.stderr
