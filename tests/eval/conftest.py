"""Eval tests: a loopback chat-completions judge, a store whose [judge] suits tests, bundles."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import REPO, copy_sample_store
from tests.eval.judge_server import JudgeServer

PLANTED_KEY = "sk-curator-test-PLANTED-7e3b19c4d2"
JUDGE_MODEL = "judge-model"
# Fast retries and a short timeout, so the 500 and slow policies take a second, not minutes.
JUDGE_TOML = (
    f'\n[judge]\nmodel = "{JUDGE_MODEL}"\ntimeout = 1.0\nmax_retries = 2\nbackoff = 0.01\n'
    "concurrency = 4\n"
)


@pytest.fixture
def judge_server():
    """start(policy, latency=0) -> a running JudgeServer; all are stopped after the test."""
    servers: list[JudgeServer] = []

    def start(policy: str = "reader", latency: float = 0.0) -> JudgeServer:
        server = JudgeServer(policy, latency).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def eval_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A store holding only the judge settings (curator.toml with [judge]) as CURATOR_STORE, a
    fresh judge folder, the planted API key, and a working folder outside the repo.
    use(server) points OPENAI_BASE_URL at a judge server."""
    store = tmp_path / "settings"
    store.mkdir()
    (store / "curator.toml").write_text((REPO / "curator.toml").read_text() + JUDGE_TOML)
    monkeypatch.setenv("CURATOR_STORE", str(store))
    monkeypatch.setenv("CURATOR_JUDGE_DIR", str(tmp_path / "judge"))
    monkeypatch.setenv("OPENAI_API_KEY", PLANTED_KEY)
    monkeypatch.delenv("CURATOR_EVALS", raising=False)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)

    def use(server: JudgeServer) -> None:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)

    return use


@pytest.fixture
def own_bundle(tmp_path: Path):
    """build(version) -> a bundle of a private copy of the sample store (relabel it freely)."""
    from curator.bundle.build import build_bundle

    store = copy_sample_store(tmp_path / "store")

    def build(version: str = "1.0.0") -> Path:
        return build_bundle(store, version, formats="jsonl,mattermost").path

    build.store = store  # type: ignore[attr-defined]
    yield build
    shutil.rmtree(store.root, ignore_errors=True)
