"""Two evals.jsonl runs with known differences, written through curator.model.EvalLine.

Items (fixture, rubric) and what happens to them from OLD to NEW:
  lease-a   tenant          pass -> pass                      (still passing)
  lease-b   monthly_rent    pass -> fail                      regressed
  lease-c   lease_end_date  fail -> pass                      fixed
  lease-d   landlord        fail -> fail                      still failing
  lease-e   tenant          -    -> pass                      new
  lease-f   tenant          pass -> -                         dropped
  lease-g   tenant          pass -> fail, but its content changed: dropped + new, not regressed
  thread-h  rubric          pass -> flaky (rep 0 pass, rep 1 fail)   regressed
  thread-i  rubric          pass -> error                     regressed
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from curator.model import EvalLine

TIME = "2026-01-01T00:00:00Z"


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def line(
    name: str, rubric: str, passed: bool, *, run_number: int = 0, content: str = "v1", **extra
) -> EvalLine:
    values = {
        "name": name,
        "timestamp": TIME,
        "run_number": run_number,
        "rubric": rubric,
        "output": f"answer for {name}",
        "reasoning": f"judged {name}",
        "score": 1.0 if passed else 0.2,
        "pass": passed,
        "fixture_id": f"{name}-0000000{len(name) % 10}",
        "fixture_sha256": sha(name + content),
        "category": "clean",
        "adversarial": False,
        "bundle_version": "1.0.0",
    }
    values.update(extra)
    return EvalLine.model_validate(values)


def write_run(path: Path, lines: list[EvalLine]) -> Path:
    path.write_text(
        "".join(item.model_dump_json(by_alias=True, exclude_none=True) + "\n" for item in lines)
    )
    return path


CONTRADICT = {
    "category": "contradictory",
    "adversarial": True,
    "mutations": ["contradict"],
    "parent": "lease-c-golden-00000001",
}


def old_lines() -> list[EvalLine]:
    return [
        line("lease-a", "tenant = Jordan Blake", True),
        line("lease-b", "monthly_rent = $1,250.00", True),
        line("lease-c", "lease_end_date = 2026-05-20", False, **CONTRADICT),
        line("lease-d", "landlord = Maple Court LLC", False),
        line("lease-f", "tenant = Casey Morgan", True),
        line("lease-g", "tenant = Riley Stone", True),
        line("thread-h", "mentions that @sam.lee will roll back", True),
        line("thread-i", "names the failing service", True),
    ]


def new_lines() -> list[EvalLine]:
    return [
        line("lease-a", "tenant = Jordan Blake", True),
        line(
            "lease-b",
            "monthly_rent = $1,250.00",
            False,
            output="$1,900.00",
            evidence="Monthly Rent: $1,250.00",
            verified=True,
            judge="rules",
            failure_class="wrong_value",
            category="truncated",
            adversarial=True,
            mutations=["truncate"],
            parent="lease-b-golden-00000002",
        ),
        line("lease-c", "lease_end_date = 2026-05-20", True, **CONTRADICT),
        line("lease-d", "landlord = Maple Court LLC", False),
        line("lease-e", "tenant = Alex Doe", True),
        line("lease-g", "tenant = Riley Stone", False, content="v2"),
        line("thread-h", "mentions that @sam.lee will roll back", True, run_number=0),
        line("thread-h", "mentions that @sam.lee will roll back", False, run_number=1),
        line(
            "thread-i",
            "names the failing service",
            False,
            error="judge timed out after 30 s",
            score=0.0,
        ),
    ]


@pytest.fixture
def runs(tmp_path: Path) -> tuple[Path, Path]:
    """(old.jsonl, new.jsonl)"""
    return write_run(tmp_path / "old.jsonl", old_lines()), write_run(
        tmp_path / "new.jsonl", new_lines()
    )
