"""The gate's report: built from fixture results, written as JSON, read back as a baseline."""

from __future__ import annotations

from pathlib import Path

from curator.errors import CuratorError
from curator.model import FixtureScore, GateReport, ItemScore, Prediction, Regression
from curator.score.metrics import fixture_composite
from curator.score.scoring import FixtureResult

FLAKY = "flaky"  # a fixture that passed in some repeated runs and failed in others


def fixture_score(
    result: FixtureResult, weights: dict[str, float], prediction: Prediction | None = None
) -> FixtureScore:
    runs = prediction.runs if prediction is not None else None
    flaky = runs is not None and 0 < runs.passed < runs.repetitions
    return FixtureScore(
        id=result.id,
        task=result.task,
        kind=result.kind,
        category=result.category,
        adversarial=result.adversarial,
        mutations=result.mutations,
        missing=result.missing,
        passed=result.passed,
        right=result.right,
        total=result.total,
        classes=result.classes + ([FLAKY] if flaky else []),
        metrics=result.metrics,
        composite=fixture_composite(result.metrics, weights),
        extra_fields=result.extra_fields,
        pass_rate=runs.passed / runs.repetitions if runs is not None else None,
        flaky=flaky,
        items=[ItemScore.model_validate(item.to_json()) for item in result.items],
    )


def regressions(now: list[FixtureScore], baseline: GateReport | None) -> list[Regression]:
    """Fixtures that got fewer items right than in the baseline (fixtures new to it are not)."""
    if baseline is None:
        return []
    before = {f.name: f for f in baseline.fixtures}
    found = []
    for fixture in now:
        old = before.get(fixture.name)
        if old is None or _share(fixture) >= _share(old):
            continue
        found.append(
            Regression(
                id=fixture.name,
                before=f"{old.right}/{old.total}",
                after=f"{fixture.right}/{fixture.total}",
                classes=fixture.classes,
            )
        )
    return found


def load_baseline(path: Path) -> GateReport:
    from curator.json_input import JsonInputError, parse_model
    from curator.limits import DEFAULT, read_limited

    data = read_limited(path, DEFAULT.json_bytes, "max_json_mb")
    try:
        return parse_model(GateReport, data, str(path))
    except JsonInputError as error:
        raise CuratorError(f"{path}: not a gate report: {error.reason}") from None


def render_json(report: GateReport) -> str:
    # pydantic's serialiser: the stdlib's pure-Python indenting encoder was most of a run.
    return report.model_dump_json(indent=2) + "\n"


def _share(fixture: FixtureScore) -> float:
    return fixture.right / fixture.total if fixture.total else 1.0
