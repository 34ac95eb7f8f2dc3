"""Stores holding synthetic leases, invoices and threads with labelled evidence spans."""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from curator.config import default_config_text
from curator.model import StoreConfig
from curator.store import Store
from tests import samples

EPOCH = "1767225600"  # 2026-01-01


@pytest.fixture(autouse=True)
def _pinned_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)


@dataclass
class Samples:
    store: Store
    lease: str  # 2 pages: parties, premises, term on page 1; rent and deposit on page 2
    lease3: str  # 3 pages
    invoice: str
    thread: str  # 5 posts, 2 rubrics with evidence posts
    single: str  # a 1-post thread

    @property
    def root(self) -> Path:
        return self.store.root


@pytest.fixture
def samples_store(store: Store) -> Samples:
    return Samples(
        store=store,
        lease=samples.add(store, "lease", 1),
        lease3=samples.add(store, "lease", 7, pages=3),
        invoice=samples.add(store, "invoice", 2),
        thread=samples.add(store, "thread", 3),
        single=samples.add(store, "thread", 4, posts=1),
    )


@pytest.fixture(scope="session")
def config() -> StoreConfig:
    return StoreConfig.model_validate(tomllib.loads(default_config_text()))


def variant_of(result_stdout: str) -> dict:
    """The one variant a `curator mutate --json` call reports."""
    variants = json.loads(result_stdout)["variants"]
    assert len(variants) == 1, variants
    return variants[0]
