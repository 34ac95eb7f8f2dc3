"""Comparing two runs, restricted to identical fixtures.

Items pair up only when their key matches: the same fixture content (the sha256 of its
bundle line) and the same rubric. A fixture whose content changed between the runs is a
dropped item and a new one, never a regression: the question was not the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from curator.eval.results import Item

# group -> what it means, in the order the viewer, comment and report list them
GROUPS = {
    "regressed": "passed before, does not pass now",
    "fixed": "did not pass before, passes now",
    "new": "only in the new run",
    "dropped": "only in the old run",
    "still failing": "did not pass in either run",
}


@dataclass(frozen=True)
class Change:
    group: str
    old: Item | None
    new: Item | None

    @property
    def item(self) -> Item:
        """The item to show: the new one, or the old one when it was dropped."""
        shown = self.new or self.old
        assert shown is not None
        return shown


@dataclass(frozen=True)
class Comparison:
    changes: list[Change]  # in GROUPS order, then by test name and rubric
    unchanged: int  # items that passed in both runs

    def count(self, group: str) -> int:
        return sum(1 for change in self.changes if change.group == group)

    def header(self) -> str:
        return (
            " | ".join(f"{self.count(group)} {group}" for group in GROUPS)
            + f" | {self.unchanged} still passing"
        )

    def as_dict(self) -> dict:
        return {**{group: self.count(group) for group in GROUPS}, "still passing": self.unchanged}


def compare(old: Sequence[Item], new: Sequence[Item]) -> Comparison:
    before = {item.key: item for item in old}
    after = {item.key: item for item in new}
    changes = []
    unchanged = 0
    for key in before.keys() | after.keys():
        was, now = before.get(key), after.get(key)
        if was is None:
            changes.append(Change("new", None, now))
        elif now is None:
            changes.append(Change("dropped", was, None))
        elif was.passed and now.passed:
            unchanged += 1
        elif was.passed:
            changes.append(Change("regressed", was, now))
        elif now.passed:
            changes.append(Change("fixed", was, now))
        else:
            changes.append(Change("still failing", was, now))
    order = list(GROUPS)
    changes.sort(key=lambda c: (order.index(c.group), c.item.name, c.item.rubric, c.item.key))
    return Comparison(changes, unchanged)


def visible_changes(
    comparison: Comparison, *, failures_only: bool = False, query: str = ""
) -> list[Change]:
    """The changes the comparison table shows: with failures only, those whose item does not
    pass now (a dropped item does not run now), matching the search."""
    needle = query.strip().lower()
    return [
        change
        for change in comparison.changes
        if not (failures_only and change.new is not None and change.new.passed)
        and (not needle or needle in change.item.text())
    ]
