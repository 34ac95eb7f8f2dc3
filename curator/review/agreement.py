"""Do annotators agree? Field by field, with curator's type-aware value comparison.

"2024-01-15" and "January 15, 2024" are one answer; "absent" only agrees with "absent".
Rubric verdicts count as fields named `rubric: <statement>`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from curator.model import FieldType
from curator.normalise import same_value
from curator.reading import Reading


@dataclass(frozen=True)
class Said:
    """One annotator's answer on one field."""

    value: str | None  # None: expected absent
    type: FieldType | str
    reading: Reading | None = None  # how the fixture's locale reads it (curator.reading)


def agree(a: Said, b: Said) -> bool:
    if a.value is None or b.value is None:
        return a.value is None and b.value is None
    return same_value(a.value, b.value, a.type, a.reading)


def disagreements(answers: list[dict[str, Said]]) -> list[str]:
    """Fields on which any two annotators' answers differ (fields only one stated don't count)."""
    found = []
    for name in sorted({n for answer in answers for n in answer}):
        said = [answer[name] for answer in answers if name in answer]
        if any(not agree(said[0], other) for other in said[1:]):
            found.append(name)
    return found


@dataclass
class Agreement:
    """Per field: on how many multiply-annotated tasks all annotators agreed."""

    compared: dict[str, int] = field(default_factory=dict)
    agreed: dict[str, int] = field(default_factory=dict)

    def add_task(self, answers: list[dict[str, Said]]) -> list[str]:
        """Count one task's annotations; return the fields they disagree on."""
        conflicts = disagreements(answers)
        for name in sorted({n for answer in answers for n in answer}):
            if sum(1 for answer in answers if name in answer) < 2:
                continue
            self.compared[name] = self.compared.get(name, 0) + 1
            if name not in conflicts:
                self.agreed[name] = self.agreed.get(name, 0) + 1
        return conflicts

    def as_dict(self) -> dict[str, dict[str, float | int]]:
        return {
            name: {
                "tasks": n,
                "agreed": self.agreed.get(name, 0),
                "rate": round(self.agreed.get(name, 0) / n, 4),
            }
            for name, n in sorted(self.compared.items())
        }

    def lines(self) -> list[str]:
        rows = self.as_dict()
        if not rows:
            return ["agreement: no task has two annotations yet"]
        width = max(len(name) for name in rows)
        return ["agreement between annotators (tasks with 2+ annotations):"] + [
            f"  {name:<{width}}  {r['agreed']}/{r['tasks']} agree ({r['rate']:.0%})"
            for name, r in rows.items()
        ]
