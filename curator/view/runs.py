"""Reading evals.jsonl: every line through `curator.model.EvalLine`, the one definition.

Lines written by Mattermost's own eval package (only its eight members) read too.
A line that is not JSON or not an eval line is an error naming the file and line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from curator.errors import CuratorError, first_problem
from curator.json_input import parse_lines
from curator.limits import DEFAULT, read_limited
from curator.model import EvalLine, LimitSettings


@dataclass(frozen=True)
class Run:
    """One evals.jsonl file: its lines in file order."""

    path: Path
    lines: list[EvalLine]

    @property
    def label(self) -> str:
        return self.path.name


def read_run(path: Path, limits: LimitSettings = DEFAULT) -> Run:
    text = read_limited(path, limits.json_bytes, "max_json_mb")
    lines = []
    for number, data in parse_lines(text, str(path), limits):
        if not isinstance(data, dict):
            raise CuratorError(f"{path}:{number}: not an eval line (a JSON object)")
        try:
            lines.append(EvalLine.model_validate(data))
        except ValidationError as error:
            raise CuratorError(f"{path}:{number}: {first_problem(error)}") from None
    return Run(path, lines)
