"""Reading evals.jsonl: every line through `curator.model.EvalLine`, the one definition.

Lines written by Mattermost's own eval package (only its eight members) read too.
A line that is not JSON or not an eval line is an error naming the file and line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from curator.config import first_problem
from curator.errors import CuratorError
from curator.model import EvalLine


@dataclass(frozen=True)
class Run:
    """One evals.jsonl file: its lines in file order."""

    path: Path
    lines: list[EvalLine]

    @property
    def label(self) -> str:
        return self.path.name


def read_run(path: Path) -> Run:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CuratorError(f"{path}: no such file") from None
    except UnicodeDecodeError as error:
        raise CuratorError(f"{path}: not UTF-8 text ({error.reason})") from None
    lines = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as error:
            raise CuratorError(f"{path}:{number}: not JSON ({error.msg})") from None
        if not isinstance(data, dict):
            raise CuratorError(f"{path}:{number}: not an eval line (a JSON object)")
        try:
            lines.append(EvalLine.model_validate(data))
        except ValidationError as error:
            raise CuratorError(f"{path}:{number}: {first_problem(error)}") from None
    return Run(path, lines)
