"""The eval harnesses, run for real: the venv and the promptfoo install `make harness-envs`
makes under build/ (`make test` makes them when missing). A harness runs in a subprocess of
its own environment, never imported here: curator does not depend on any of them.

`answers` are what a system under test says for each fixture, chosen to hit every verdict:
values as labelled, the same values written another way, wrong values, values left out,
values with a confidence, invented values where a field is expected absent, and rubric
verdicts for threads.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from curator.bundle import load
from tests.conftest import REPO
from tests.score.conftest import built_bundle  # noqa: F401  (a fixture: expected-absent, variants)

HARNESS_PYTHON = REPO / "build" / "harness-venv" / "bin" / "python"
PROMPTFOO = REPO / "build" / "promptfoo" / "node_modules" / ".bin" / "promptfoo"
HERE = Path(__file__).resolve().parent
PAGE = REPO / "docs" / "guide" / "export.md"
SECTIONS = {
    "inspect": "inspect_ai",
    "deepeval": "DeepEval",
    "ragas": "Ragas",
    "promptfoo": "promptfoo",
    "langfuse": "Langfuse",
}


def loader_block(harness: str) -> str:
    """The first code block of the harness's section of docs/guide/export.md: its loader."""
    text = PAGE.read_text(encoding="utf-8")
    section = text.split(f"\n## {SECTIONS[harness]}\n", 1)[1].split("\n## ", 1)[0]
    found = re.search(r"```(?:python|bash)\n(.*?)```", section, re.DOTALL)
    assert found, f"no code block in the {SECTIONS[harness]} section"
    return found.group(1)


def _require(path: Path) -> Path:
    # Never skipped: a missing harness is a broken set-up, and `make test` makes them.
    assert path.exists(), f"{path} is missing: run `make harness-envs`"
    return path


def harness_env(tmp: Path) -> dict[str, str]:
    """No network, no telemetry, no update checks; curator importable from this checkout."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYTHON", "VIRTUAL_ENV", "OPENAI", "LANGFUSE"))
    }
    env.update(
        PYTHONPATH=str(REPO),
        HOME=str(tmp),
        PROMPTFOO_DISABLE_TELEMETRY="1",
        PROMPTFOO_DISABLE_UPDATE="1",
        PROMPTFOO_DISABLE_SHARING="1",
        PROMPTFOO_CACHE_ENABLED="false",
        PROMPTFOO_CONFIG_DIR=str(tmp / ".promptfoo"),
        PROMPTFOO_PYTHON=str(_require(HARNESS_PYTHON)),
        INSPECT_LOG_DIR=str(tmp / "inspect-logs"),
        INSPECT_DISPLAY="none",
        DEEPEVAL_TELEMETRY_OPT_OUT="YES",
        DEEPEVAL_DISABLE_PROGRESS_BAR="YES",
        RAGAS_DO_NOT_TRACK="true",
        HF_HUB_OFFLINE="1",
        NO_COLOR="1",
    )
    return env


def run_harness_python(script: Path | str, *args: str, tmp: Path, cwd: Path | None = None):
    """Run a script (a path, or code) with the harness venv's Python; fails with its output."""
    command = [str(_require(HARNESS_PYTHON))]
    command += [str(script)] if isinstance(script, Path) else ["-c", script]
    done = subprocess.run(
        [*command, *args],
        cwd=cwd or tmp,
        env=harness_env(tmp),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    return done


def run_promptfoo(config: Path, results: Path, tmp: Path) -> subprocess.CompletedProcess[str]:
    """`promptfoo eval` offline; exit 100 (some test failed) is a finished run too."""
    done = subprocess.run(
        [
            str(_require(PROMPTFOO)),
            "eval",
            "-c",
            str(config),
            "-o",
            str(results),
            "--no-cache",
            "--no-progress-bar",
            "--no-table",
            "--grader",
            "echo",  # llm-rubric's grader: no model, no network
            "-j",
            "2",
        ],
        cwd=tmp,
        env=harness_env(tmp),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode in (0, 100), done.stdout[-3000:] + done.stderr[-5000:]
    return done


def answers_for(bundle: Path) -> dict[str, dict[str, Any]]:
    """fixture id -> the answer a system gives (a JSON object), deterministic."""
    answers: dict[str, dict[str, Any]] = {}
    for number, item in enumerate(load(bundle)):
        labels = item.labels
        if labels is None:
            answers[item.id] = {}
            continue
        fields: dict[str, Any] = {}
        names = list(labels.fields)
        for index, (name, label) in enumerate(labels.fields.items()):
            case = (number + index) % 6
            if label.expected_absent:
                fields[name] = "Invented Value" if case % 2 else None
                continue
            value = label.value or ""
            if case == 0:
                fields[name] = value
            elif case == 1:
                fields[name] = _rewritten(value, str(label.type))
            elif case == 2:
                fields[name] = value + " and more"
            elif case == 3:
                fields[name] = None
            elif case == 4:
                fields[name] = {"value": value, "confidence": 0.8}
            else:  # another field's value: a field-targeting mistake
                other = labels.fields[names[(index + 1) % len(names)]]
                fields[name] = other.value or "nothing"
        rubrics = [
            {"rubric": rubric.text, "pass": (number + index) % 2 == 0}
            for index, rubric in enumerate(labels.rubrics)
        ]
        answers[item.id] = {"fields": fields, "rubrics": rubrics} if rubrics else fields
    return answers


def _rewritten(value: str, field_type: str) -> str:
    """The same value written another way: what type-aware comparison must accept."""
    if field_type == "date":
        for form in ("%B %d, %Y", "%Y-%m-%d", "%d %B %Y"):
            try:
                return datetime.strptime(value, form).date().isoformat()
            except ValueError:
                continue
    if field_type == "money" and value.startswith("$"):
        return value[1:].replace(",", "") + " USD"
    return value.upper()


def predictions_jsonl(answers: dict[str, dict[str, Any]]) -> str:
    """The same answers as a curator predictions file, written independently of curator's
    harness code, for `curator gate`."""
    lines = []
    for fixture_id, answer in answers.items():
        fields = answer.get("fields", answer) if "rubrics" in answer else answer
        predicted = {
            name: value if isinstance(value, dict) else {"value": value}
            for name, value in fields.items()
        }
        line = {"fixture_id": fixture_id, "fields": predicted, "rubrics": answer.get("rubrics", [])}
        lines.append(json.dumps(line))
    return "\n".join(lines) + "\n"


def gate_outcomes(report: Path) -> dict[tuple[str, str], str]:
    """(fixture id, item name) -> outcome, from a gate report.json."""
    data = json.loads(report.read_text())
    return {
        (fixture["id"], item["name"]): item["outcome"]
        for fixture in data["fixtures"]
        for item in fixture["items"]
    }


@pytest.fixture(params=["sample", "built"])
def any_bundle(request: pytest.FixtureRequest) -> Path:
    """The sample store's bundle, and a small one with expected-absent fields and variants."""
    name = "sample_bundle" if request.param == "sample" else "built_bundle"
    return request.getfixturevalue(name)
