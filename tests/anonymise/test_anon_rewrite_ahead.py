"""Rewriting many texts while forked workers detect the next ones (Rewriter.prefetch).

The texts are the hand-written labelled PII set (tests/data/pii), each copy told apart, so
the batch is long enough to be worth workers.
"""

from __future__ import annotations

import multiprocessing
import os

import pytest

from curator.anonymise import detect
from curator.anonymise.detect import Detector
from curator.anonymise.rewrite import Rewriter
from curator.anonymise.terms import TermIndex
from curator.anonymise.vault import Vault
from tests.data.pii import scoring

KEY = b"a test key, not a secret, 32 b.."


def _texts() -> list[str]:
    texts = [r["text"] for split in ("dev", "test") for r in scoring.load(split)]
    return [f"{text} (copy {n})" for n in (1, 2) for text in texts]


def _rewritten(texts: list[str], workers: int) -> tuple[list[str], Vault]:
    vault = Vault(KEY)
    return Rewriter(vault, TermIndex(), Detector(workers=workers)).texts(texts), vault


def test_detecting_ahead_in_forked_workers_writes_what_one_process_writes(monkeypatch):
    pools = []
    real_pool = detect.forked_pool
    monkeypatch.setattr(detect, "forked_pool", lambda task, processes: pools.append(processes) or real_pool(task, processes))
    texts = _texts()
    forked, forked_vault = _rewritten(texts, workers=2)
    assert pools == [2]
    alone, alone_vault = _rewritten(texts, workers=1)
    assert pools == [2]  # one process: no pool
    assert forked == alone
    assert forked_vault.entries() == alone_vault.entries()  # the same pseudonyms, handed out in the same order
    assert sum(a != b for a, b in zip(forked, texts, strict=True)) > len(texts) // 2


def test_a_failing_worker_fails_the_rewrite_and_leaves_no_process(monkeypatch):
    parent = os.getpid()
    real_run = Detector._run_here

    def run_here(self: Detector, texts: list[str]) -> list:
        if os.getpid() != parent:
            raise RuntimeError("a worker failed")
        return real_run(self, texts)

    monkeypatch.setattr(Detector, "_run_here", run_here)
    with pytest.raises(RuntimeError, match="a worker failed"):
        _rewritten(_texts(), workers=2)
    assert multiprocessing.active_children() == []
