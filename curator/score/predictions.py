"""The predictions JSONL file: one curator.model.Prediction per line, checked against a bundle.

Every problem is a CuratorError naming the file and line (exit 2): a line that is not JSON,
a line the model rejects (a confidence outside [0, 1], an unknown key), a fixture id the
bundle lacks, a fixture predicted twice, a rubric verdict for a rubric the fixture lacks,
a file with no prediction at all (empty or blank). Blank lines are skipped. Fields the
labels do not name are kept and reported, not scored. An inspect_ai eval log or promptfoo
results JSON is read as predictions too (curator.harness.results).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from curator.errors import CuratorError, first_problem
from curator.json_input import parse_lines
from curator.limits import DEFAULT, read_limited
from curator.model import LimitSettings, Prediction, task_label
from curator.normalise import normalise_text
from curator.score.scoring import Case, SimpleCase


def load_predictions(
    path: Path,
    cases: Iterable[SimpleCase],
    limits: LimitSettings = DEFAULT,
    line_hashes: dict[str, str] | None = None,
) -> dict[str, Prediction]:
    """case name (fixture id, `fixture/task` for a named task) -> its prediction, for a
    predictions file scored against `cases` (`line_hashes`: the manifest's fixture line
    hashes, that harness results are checked against)."""
    data = read_limited(path, limits.json_bytes, "max_json_mb")
    from curator.harness.results import harness_format, predictions_from

    if kind := harness_format(data):  # an inspect_ai eval log or promptfoo results JSON
        return _some(predictions_from(data, kind, path, cases, limits, line_hashes), path)
    by_name = {task_label(case.fixture.id, case.task): case for case in cases}
    fixtures = {case.fixture.id for case in by_name.values()}
    predictions: dict[str, Prediction] = {}
    for number, line in parse_lines(data, str(path), limits):
        where = f"{path}:{number}"
        prediction = parse_line(line, where)
        name = task_label(prediction.fixture_id, prediction.task)
        case = by_name.get(name)
        if case is None:
            if prediction.fixture_id not in fixtures:
                raise CuratorError(
                    f"{where}: fixture {prediction.fixture_id!r} is not in the bundle"
                )
            tasks = [
                c.task or "(none)"
                for c in by_name.values()
                if c.fixture.id == prediction.fixture_id
            ]
            raise CuratorError(
                f"{where}: fixture {prediction.fixture_id!r} has no task "
                f"{prediction.task or '(none)'} (its tasks: {', '.join(tasks)})"
            )
        if name in predictions:
            raise CuratorError(f"{where}: {_named(prediction)} is predicted twice")
        _check_rubrics(prediction, case, where)
        predictions[name] = prediction
    return _some(predictions, path)


def _some(predictions: dict[str, Prediction], path: Path) -> dict[str, Prediction]:
    """No prediction at all is bad input, not a run whose fixtures are all missing: the step
    that should have written them wrote nothing."""
    if not predictions:
        raise CuratorError(f"{path}: no results were recorded (the file has no prediction)")
    return predictions


def _named(prediction: Prediction) -> str:
    return f"fixture {prediction.fixture_id!r}" + (
        f" task {prediction.task}" if prediction.task else ""
    )


def parse_line(data: Any, where: str) -> Prediction:
    """A prediction from one parsed JSONL line."""
    if not isinstance(data, dict):
        raise CuratorError(f"{where}: a prediction is a JSON object, not {type(data).__name__}")
    try:
        return Prediction.model_validate(data)
    except ValidationError as error:
        raise CuratorError(f"{where}: {first_problem(error)}") from None


def _check_rubrics(prediction: Prediction, case: Case, where: str) -> None:
    known = {normalise_text(r.text) for r in (case.labels.rubrics if case.labels else [])}
    seen: set[str] = set()
    for verdict in prediction.rubrics:
        key = normalise_text(verdict.rubric)
        if key not in known:
            raise CuratorError(f"{where}: {_named(prediction)} has no rubric {verdict.rubric!r}")
        if key in seen:
            raise CuratorError(f"{where}: rubric {verdict.rubric!r} is judged twice")
        seen.add(key)
