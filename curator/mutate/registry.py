"""The mutation registry: one interface, one module per mutation, looked up by name.

A mutation is a plain function `(subject, rng, params) -> Outcome`: it gets a fixture's
content and current labels and returns the new content with the labels transformed to
match. It never writes anything; the engine (curator.mutate.engine) does that.

Adding a mutation is adding one module under curator/mutate/ that calls `register`,
declaring there the `curator mutate` options that put it in a chain (`Option`, `Switch`):
the command is built from those declarations, and `steps_from_options` turns what was
given on the command line into the chain. Modules whose name starts with `_` are helpers
and are not loaded as mutations.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from curator.errors import CuratorError
from curator.model import Content, FieldLabel, Fixture, LabelRevision, Rubric, StoreConfig, Task


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
    # The named tasks with their rubrics transformed; None: they hold as they were.
    tasks: dict[str, Task] | None = None
    # What a person must decide because no rule can (a rubric naming no evidence posts
    # after a cut): a variant with any goes to needs-review.
    to_review: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


MutationFn = Callable[[Subject, random.Random, dict[str, Any]], Outcome]


@dataclass(frozen=True)
class Step:
    """One mutation of a chain, by registered name, with its parameters."""

    name: str
    params: dict[str, Any] = field(default_factory=dict)

    def key(self) -> dict[str, Any]:
        return {"name": self.name, "params": self.params}


@dataclass(frozen=True)
class Option:
    """A `curator mutate` option whose value becomes one parameter of a step of its mutation.

    `--pages N` is Option("--pages", "pages", int, "N", ...) on truncate: given `--pages 2`,
    the chain gets Step("truncate", {"pages": 2}) at the place the option was given.
    With `bare` set, the value is optional and `bare` is what the bare option means.
    """

    flag: str
    param: str
    type: type[float] | type[int] | type[str]
    metavar: str
    help: str
    bare: float | int | str | None = None

    @property
    def key(self) -> str:
        """The option's name as a Python identifier (click's parameter name)."""
        return _key(self.flag)

    @property
    def placeholder(self) -> str:
        """The value as usage shows it: [F] when it may be left out."""
        return f"[{self.metavar}]" if self.bare is not None else self.metavar

    @property
    def usage(self) -> str:
        return f"{self.flag} {self.placeholder}"


@dataclass(frozen=True)
class Switch:
    """An on/off `curator mutate` flag that changes the step another option made.

    With `param` it sets that parameter of the step to True (`--amendment-first`,
    `--noise-values`); without, it makes the step this switch's mutation (`--render` turns
    `--ocr-noise` into ocr-render). Given without its option, it is refused.
    """

    flag: str
    of: str  # the flag of the Option whose step it changes
    help: str
    param: str | None = None

    @property
    def key(self) -> str:
        return _key(self.flag)


def _key(flag: str) -> str:
    return flag.lstrip("-").replace("-", "_")


@dataclass(frozen=True)
class Mutation:
    name: str
    category: str  # the fixture category a variant made by it gets
    apply: MutationFn
    owns: str  # which label facts it may change, for the reader and the property tests
    options: tuple[Option | Switch, ...] = ()  # how `curator mutate` names it


REGISTRY: dict[str, Mutation] = {}


def register(
    name: str, *, category: str, owns: str, options: Sequence[Option | Switch] = ()
) -> Callable[[MutationFn], MutationFn]:
    """Decorator: make `fn` the mutation called `name`, put in a chain by `options`."""

    def add(fn: MutationFn) -> MutationFn:
        if name in REGISTRY and REGISTRY[name].apply is not fn:
            raise ValueError(f"mutation {name!r} registered twice")
        REGISTRY[name] = Mutation(name, category, fn, owns, tuple(options))
        return fn

    return add


_loaded = False


def load_all() -> dict[str, Mutation]:
    """Import every mutation module in this package (each registers itself)."""
    global _loaded
    if not _loaded:
        package = importlib.import_module("curator.mutate")
        for info in pkgutil.iter_modules(package.__path__):
            if not info.name.startswith("_"):
                importlib.import_module(f"curator.mutate.{info.name}")
        _loaded = True
    return REGISTRY


def get(name: str) -> Mutation:
    mutations = load_all()
    try:
        return mutations[name]
    except KeyError:
        raise CuratorError(
            f"unknown mutation {name!r} (known: {', '.join(sorted(mutations))})"
        ) from None


def options() -> list[tuple[Mutation, Option | Switch]]:
    """Every `curator mutate` option with the mutation that declares it, in registry order."""
    return [(mutation, option) for mutation in load_all().values() for option in mutation.options]


def option_usages() -> list[str]:
    """How each option that starts a step is written ("--truncate [F]", "--contradict FIELD")."""
    return [option.usage for _, option in options() if isinstance(option, Option)]


def steps_from_options(given: Iterable[tuple[str, Any]]) -> list[Step]:
    """The chain that options name, in the order given: (key, value) pairs as click parses them.

    An option not given is None (a switch False); keys that are no mutation option are refused.
    """
    declared = {option.key: (mutation, option) for mutation, option in options()}
    made: dict[str, tuple[str, dict[str, Any]]] = {}  # option flag -> (mutation name, params)
    switches: list[tuple[Mutation, Switch]] = []
    for key, value in given:
        if key not in declared:
            raise CuratorError(f"no mutation option {key!r} (known: {', '.join(sorted(declared))})")
        mutation, option = declared[key]
        if isinstance(option, Switch):
            if value:
                switches.append((mutation, option))
        elif value is not None:
            made[option.flag] = (mutation.name, {option.param: value})
    usage = {
        option.flag: option.usage for _, option in declared.values() if isinstance(option, Option)
    }
    for mutation, switch in switches:
        if switch.of not in made:
            raise CuratorError(f"{switch.flag} goes with {usage.get(switch.of, switch.of)}")
        name, params = made[switch.of]
        if switch.param:
            made[switch.of] = (name, {**params, switch.param: True})
        else:
            made[switch.of] = (mutation.name, params)
    return [Step(name, params) for name, params in made.values()]
