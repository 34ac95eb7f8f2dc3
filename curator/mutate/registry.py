"""The mutation registry: one interface, one module per mutation, looked up by name.

A mutation is a plain function `(subject, rng, params) -> Outcome`: it gets a fixture's
content and current labels and returns the new content with the labels transformed to
match. It never writes anything; the engine (curator.mutate.engine) does that. Adding a
mutation is adding one module under curator/mutate/ that calls `register`.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from curator.errors import CuratorError
from curator.model import Content, FieldLabel, Fixture, LabelRevision, Rubric, StoreConfig


@dataclass(frozen=True)
class Subject:
    """What a mutation works on: the fixture, its content and its current truth."""

    fixture: Fixture
    content: Content
    labels: LabelRevision
    config: StoreConfig


@dataclass
class Outcome:
    """What a mutation returns: new content and labels that hold for it."""

    content: Content
    fields: dict[str, FieldLabel]
    rubrics: list[Rubric]
    measured: dict[str, Any] = field(default_factory=dict)
    needs_review: bool = False
    warnings: list[str] = field(default_factory=list)


MutationFn = Callable[[Subject, random.Random, dict[str, Any]], Outcome]


@dataclass(frozen=True)
class Mutation:
    name: str
    category: str  # the fixture category a variant made by it gets
    apply: MutationFn
    owns: str  # which label facts it may change, for the reader and the property tests


REGISTRY: dict[str, Mutation] = {}


def register(name: str, *, category: str, owns: str) -> Callable[[MutationFn], MutationFn]:
    """Decorator: make `fn` the mutation called `name`."""

    def add(fn: MutationFn) -> MutationFn:
        if name in REGISTRY and REGISTRY[name].apply is not fn:
            raise ValueError(f"mutation {name!r} registered twice")
        REGISTRY[name] = Mutation(name, category, fn, owns)
        return fn

    return add


_SKIP = {"registry", "engine", "textops", "measure", "samples"}  # helpers, not mutations


_loaded = False


def load_all() -> dict[str, Mutation]:
    """Import every mutation module in this package (each registers itself)."""
    global _loaded
    if not _loaded:
        package = importlib.import_module("curator.mutate")
        for info in pkgutil.iter_modules(package.__path__):
            if info.name not in _SKIP:
                importlib.import_module(f"curator.mutate.{info.name}")
        _loaded = True
    return REGISTRY


def get(name: str) -> Mutation:
    mutations = load_all()
    try:
        return mutations[name]
    except KeyError:
        raise CuratorError(f"unknown mutation {name!r} (known: {', '.join(sorted(mutations))})") from None
