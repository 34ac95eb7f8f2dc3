"""`curator stats`: the store's composition (category x mutation kind, status) against the
share of adversarial fixtures curator.toml asks for (`adversarial_target_share`)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

from curator.model import Fixture, Status
from curator.store import Store

NOT_MUTATED = "none"
PROMOTED = "promoted"


@dataclass(frozen=True)
class StoreStats:
    total: int  # fixtures counted (those with the selected statuses)
    statuses: list[str]  # the selected statuses
    by_status: dict[str, int]  # over the whole store
    table: dict[str, dict[str, int]]  # category -> mutation kind -> fixtures
    mutation_kinds: list[str]
    adversarial: int
    share: float
    target: float
    meets_target: bool
    needed: int  # adversarial fixtures to add to reach the target

    check: bool = False  # `curator stats --check`: below the target is a failure

    @property
    def exit_code(self) -> int:
        return 1 if self.check and not self.meets_target else 0

    def as_json(self) -> dict:
        data = asdict(self)
        del data["check"]
        return data

    def render(self) -> str:
        status_line = (
            ", ".join(f"{name} {count}" for name, count in self.by_status.items()) or "none"
        )
        lines = [
            f"fixtures by status: {status_line}",
            f"counted ({', '.join(self.statuses)}): {self.total}",
        ]
        if self.table:
            kinds = self.mutation_kinds
            width = max(len("category"), *(len(c) for c in self.table))
            header = (
                f"{'category':<{width}}  "
                + "  ".join(f"{k:>{max(len(k), 3)}}" for k in kinds)
                + "  total"
            )
            lines += ["", header]
            for category, row in self.table.items():
                cells = "  ".join(f"{row.get(k, 0):>{max(len(k), 3)}}" for k in kinds)
                lines.append(f"{category:<{width}}  {cells}  {sum(row.values()):>5}")
        verdict = (
            "meets the target"
            if self.meets_target
            else f"below target: add {self.needed} adversarial"
        )
        lines += [
            "",
            f"adversarial share {self.share:.2f} ({self.adversarial} of {self.total}), "
            f"target {self.target:.2f}: {verdict}",
        ]
        return "\n".join(lines)


def mutation_kind(fixture: Fixture) -> str:
    """How a fixture became adversarial: its mutations joined by '+', 'promoted' or 'none'."""
    names = [step.name for step in fixture.lineage.mutations] if fixture.lineage else []
    return kind_of(names, fixture.adversarial)


def kind_of(mutations: Sequence[str], adversarial: bool) -> str:
    """The mutation kind of a fixture from its mutation names (as bundles list them)."""
    if mutations:
        return "+".join(mutations)
    return PROMOTED if adversarial else NOT_MUTATED


def tabulate(pairs: Iterable[tuple[str, str]]) -> tuple[dict[str, dict[str, int]], list[str]]:
    """(category, mutation kind) of each fixture -> category x kind counts, and the kinds
    in column order ('none' first): what `curator stats`, dataset cards and reports show."""
    table: dict[str, Counter[str]] = {}
    for category, kind in pairs:
        table.setdefault(category, Counter())[kind] += 1
    kinds = sorted(
        {kind for row in table.values() for kind in row}, key=lambda k: (k != NOT_MUTATED, k)
    )
    return {category: dict(sorted(row.items())) for category, row in sorted(table.items())}, kinds


def store_stats(store: Store, statuses: Sequence[str] | None = None) -> StoreStats:
    """Composition of the fixtures with `statuses` (default: every status but retired)."""
    everything = store.select()
    wanted = list(statuses) if statuses else [s.value for s in Status if s is not Status.retired]
    chosen = [f for f in everything if f.status.value in wanted]
    table, kinds = tabulate((fixture.category, mutation_kind(fixture)) for fixture in chosen)
    adversarial = sum(1 for f in chosen if f.adversarial)
    target = store.config.store.adversarial_target_share
    share = adversarial / len(chosen) if chosen else 0.0
    return StoreStats(
        total=len(chosen),
        statuses=wanted,
        by_status={
            s.value: n for s in Status if (n := sum(1 for f in everything if f.status is s))
        },
        table=table,
        mutation_kinds=kinds,
        adversarial=adversarial,
        share=round(share, 4),
        target=target,
        meets_target=bool(chosen) and share >= target,
        needed=_needed(adversarial, len(chosen), target),
    )


def _needed(adversarial: int, total: int, target: float) -> int:
    """Fewest adversarial fixtures to add so that their share reaches the target."""
    if total and adversarial / total >= target:
        return 0
    if target >= 1:
        return 0 if adversarial == total and total else max(1, total - adversarial)
    return max(1, math.ceil((target * total - adversarial) / (1 - target) - 1e-9))
