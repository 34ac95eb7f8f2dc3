"""Per-item results of a run, what the viewer, `--check`, `--comment` and the report count.

An item is one (fixture, task, rubric), the fixture named by the sha256 of its bundle line
(a fixture whose content changed is another item) or, for plain Mattermost lines that
carry none, by the test name (`fixture/task` for a named task). Its result over the
repetitions (run_number):

- `error`: a line has `error` set (the system or judge failed; no verdict);
- `flaky`: it passed in some repetitions and failed in others;
- `pass` / `fail`: it passed, or failed, in every repetition.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from curator.bundle.stats import NOT_MUTATED as NO_MUTATION
from curator.bundle.stats import kind_of
from curator.model import EvalLine

RESULTS = ("pass", "fail", "flaky", "error")
UNCATEGORISED = "(none)"
DEFAULT_TASK = "default"  # the task group of a fixture without named tasks


@dataclass(frozen=True)
class Item:
    key: tuple[str, str]  # (fixture sha256, or the test name; rubric)
    lines: tuple[EvalLine, ...]  # every repetition, by run_number

    @property
    def line(self) -> EvalLine:
        """The last repetition: what the detail view shows."""
        return self.lines[-1]

    @property
    def name(self) -> str:
        return self.line.name

    @property
    def rubric(self) -> str:
        return self.line.rubric

    @property
    def result(self) -> str:
        if any(line.error for line in self.lines):
            return "error"
        passed = {line.passed for line in self.lines}
        if passed == {True, False}:
            return "flaky"
        return "pass" if passed == {True} else "fail"

    @property
    def passed(self) -> bool:
        return self.result == "pass"

    @property
    def score(self) -> float:
        """Mean score over the repetitions that have a verdict."""
        scored = [line.score for line in self.lines if not line.error] or [0.0]
        return sum(scored) / len(scored)

    @property
    def category(self) -> str:
        return self.line.category or UNCATEGORISED

    @property
    def task(self) -> str:
        """The named task, or 'default' for a fixture without named tasks."""
        return self.line.task or DEFAULT_TASK

    @property
    def fixture(self) -> str:
        """The fixture, whichever of its tasks the item is of."""
        return self.line.fixture_id or self.line.name

    @property
    def mutation(self) -> str:
        """'none', 'promoted' or the mutations joined by '+', as `curator stats` names them."""
        return kind_of(self.line.mutations, bool(self.line.adversarial))

    def text(self) -> str:
        """Everything search looks in."""
        line = self.line
        parts = [
            line.name,
            line.rubric,
            line.output,
            line.reasoning,
            self.category,
            self.mutation,
            line.fixture_id,
            line.parent,
            line.evidence,
            line.error,
            line.failure_class,
            line.field,
            line.expected,
            line.task,
            self.result,
        ]
        return "\n".join(part for part in parts if part).lower()


@dataclass(frozen=True)
class Counts:
    tests: int
    passed: int
    failed: int
    flaky: int
    errors: int
    repetitions: int  # most run_numbers any item has

    def header(self) -> str:
        """Mattermost's header, with curator's flaky and error counts."""
        return (
            f"{self.tests} tests | {self.passed} passed | {self.failed} failed | "
            f"{self.flaky} flaky | {self.errors} errors"
        )


def items_of(lines: Iterable[EvalLine]) -> list[Item]:
    """Lines grouped into items, sorted by test name and rubric."""
    grouped: dict[tuple[str, str], list[EvalLine]] = {}
    for line in lines:
        grouped.setdefault(item_key(line), []).append(line)
    found = [
        Item(key, tuple(sorted(group, key=lambda line: line.run_number)))
        for key, group in grouped.items()
    ]
    return sorted(found, key=lambda item: (item.name, item.rubric, item.key))


def item_key(line: EvalLine) -> tuple[str, str]:
    fixture = line.fixture_sha256 or line.name
    # the same rubric asked of two tasks of one fixture is two items
    return (fixture if line.task is None else f"{fixture}/{line.task}", line.rubric)


def has_tasks(items: Sequence[Item]) -> bool:
    """Whether any item is of a named task: only then do views group by task and fixture."""
    return any(item.line.task is not None for item in items)


def counts(items: Sequence[Item]) -> Counts:
    by_result = Counter(item.result for item in items)
    return Counts(
        tests=len(items),
        passed=by_result["pass"],
        failed=by_result["fail"],
        flaky=by_result["flaky"],
        errors=by_result["error"],
        repetitions=max(
            (len({line.run_number for line in item.lines}) for item in items), default=0
        ),
    )


def visible(items: Sequence[Item], *, failures_only: bool = False, query: str = "") -> list[Item]:
    """The items the table shows: failures only (anything but pass), matching the search."""
    needle = query.strip().lower()
    return [
        item
        for item in items
        if not (failures_only and item.passed) and (not needle or needle in item.text())
    ]


@dataclass(frozen=True)
class PassRate:
    group: str
    passed: int
    total: int

    @property
    def rate(self) -> float:
        return self.passed / self.total if self.total else 0.0


def groupings(items: Sequence[Item]) -> tuple[str, ...]:
    """What pass rates are shown by: category and mutation, and task and fixture when the
    run has named tasks."""
    return ("category", "mutation", *(("task", "fixture") if has_tasks(items) else ()))


def pass_rates(items: Sequence[Item], by: str) -> list[PassRate]:
    """Pass rate per `category`, `mutation`, `task` or `fixture` (over its tasks), groups
    sorted by name ('none' first).

    By mutation as `curator gate` counts accuracy: an item made by several mutations counts
    under each, one no mutation made under 'none'.
    """
    totals: Counter[str] = Counter()
    passed: Counter[str] = Counter()
    for item in items:
        groups = (
            sorted(set(item.line.mutations)) or [NO_MUTATION]
            if by == "mutation"
            else [getattr(item, by)]
        )
        for group in groups:
            totals[group] += 1
            passed[group] += item.passed
    order = sorted(totals, key=lambda group: (group != NO_MUTATION, group))
    return [PassRate(group, passed[group], totals[group]) for group in order]
