"""Rewriting many texts while forked workers detect the next ones (Rewriter.prefetch).

The texts are the hand-written labelled PII set (tests/data/pii), each copy told apart, so
the batch is long enough to be worth workers.
"""

from __future__ import annotations

import multiprocessing
import os

import pytest

from curator.anonymise.finders import detector as detect
from curator.anonymise.finders.detector import Detector
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
    monkeypatch.setattr(
        detect,
        "forked_pool",
        lambda task, processes: pools.append(processes) or real_pool(task, processes),
    )
    texts = _texts()
    forked, forked_vault = _rewritten(texts, workers=2)
    assert pools == [2]
    alone, alone_vault = _rewritten(texts, workers=1)
    assert pools == [2]  # one process: no pool
    assert forked == alone
    assert (
        forked_vault.entries() == alone_vault.entries()
    )  # the same pseudonyms, handed out in the same order
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


@pytest.mark.parametrize("workers", [1, 2])
def test_url_paths_are_detected_with_their_batch_not_one_at_a_time(monkeypatch, workers):
    """The path and user of each URL (what Rewriter._url rewrites) are detected with the
    batch that holds the URL, in the worker when there is one: this process detects only
    what its own rewriting made (a rewrite's rewrite), never a URL path of the input."""
    parent = os.getpid()
    here: list[str] = []
    real_run = Detector._run_here

    def run_here(self: Detector, texts: list[str]) -> list:
        if os.getpid() == parent:
            here.extend(texts)
        return real_run(self, texts)

    monkeypatch.setattr(Detector, "_run_here", run_here)
    texts = _texts() + [
        f"Report for Maria Lopez: https://docs.acme-corp.com/u/maria.lopez/q{n}.pdf?by=mlopez "
        f"and ftp://jorge.ramos@files.acme-corp.com/in/{n}"
        for n in range(40)
    ]
    rewritten, _ = _rewritten(texts, workers=workers)
    assert all(
        "acme-corp" not in t and "jorge" not in t for t in rewritten[-40:]
    )  # hosts and users rewritten
    paths = {f"/u/maria.lopez/q{n}.pdf?by=mlopez" for n in range(40)}
    if workers == 2:
        assert not paths & set(here)  # detected in the workers
    else:
        calls = []
        monkeypatch.setattr(
            Detector, "_run_here", lambda self, batch: calls.append(batch) or real_run(self, batch)
        )
        _rewritten(texts, workers=1)
        path_calls = [batch for batch in calls if paths & set(batch)]
        assert len(path_calls) < 5 and sum(len(paths & set(batch)) for batch in path_calls) == len(
            paths
        )  # in a few batches


def test_the_cycle_collector_runs_less_often_while_rewriting_and_as_before_after(monkeypatch):
    """Rewriting fills long-lived caches; collecting every 700 new containers rescanned them
    (see rewrite.COLLECT_EVERY). The threshold comes back afterwards, also when detection fails."""
    import gc

    from curator.anonymise.rewrite import COLLECT_EVERY

    before = gc.get_threshold()
    seen = []
    real_run = Detector._run_here

    def run_here(self: Detector, texts: list[str]) -> list:
        seen.append(gc.get_threshold())
        if texts == ["fail here"]:
            raise RuntimeError("detection failed")
        return real_run(self, texts)

    monkeypatch.setattr(Detector, "_run_here", run_here)
    _rewritten(_texts()[:20], workers=1)
    assert seen and all(t == (COLLECT_EVERY, *before[1:]) for t in seen)
    assert gc.get_threshold() == before
    with pytest.raises(RuntimeError, match="detection failed"):
        _rewritten(["fail here"], workers=1)
    assert gc.get_threshold() == before
