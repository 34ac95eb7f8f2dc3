"""The predictions JSONL file: one curator.model.Prediction per line, checked against a bundle.

Every problem is a CuratorError naming the file and line (exit 2): a line that is not JSON,
a line the model rejects (a confidence outside [0, 1], an unknown key), a fixture id the
bundle lacks, a fixture predicted twice, a rubric verdict for a rubric the fixture lacks.
Blank lines are skipped. Fields the labels do not name are kept and reported, not scored.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from pydantic import ValidationError

from curator.errors import CuratorError, first_problem
from curator.model import Prediction
from curator.normalise import normalise_text
from curator.score.scoring import Case


def load_predictions(path: Path, cases: Iterable[Case]) -> dict[str, Prediction]:
    """fixture id -> its prediction, for a predictions file scored against `cases`."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise CuratorError(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise CuratorError(f"{path}: not UTF-8 text") from None
    by_id = {case.fixture.id: case for case in cases}
    predictions: dict[str, Prediction] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        prediction = parse_line(line, where)
        case = by_id.get(prediction.fixture_id)
        if case is None:
            raise CuratorError(f"{where}: fixture {prediction.fixture_id!r} is not in the bundle")
        if prediction.fixture_id in predictions:
            raise CuratorError(f"{where}: fixture {prediction.fixture_id!r} is predicted twice")
        _check_rubrics(prediction, case, where)
        predictions[prediction.fixture_id] = prediction
    return predictions


def parse_line(line: str, where: str) -> Prediction:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise CuratorError(f"{where}: not valid JSON: {error.msg} (column {error.colno})") from None
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
            raise CuratorError(
                f"{where}: fixture {prediction.fixture_id!r} has no rubric {verdict.rubric!r}"
            )
        if key in seen:
            raise CuratorError(f"{where}: rubric {verdict.rubric!r} is judged twice")
        seen.add(key)
