"""JSON Schemas (Draft 2020-12) of every file curator writes, generated from curator.model.

Regenerate with `python -m curator.schemas` after changing a model; a test fails when the
committed files in schemas/ drift from the models.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from curator import model

DIALECT = "https://json-schema.org/draft/2020-12/schema"

# schema file name -> the model it describes
SCHEMAS: dict[str, type[BaseModel]] = {
    "fixture.schema.json": model.Fixture,
    "content.schema.json": model.ContentFile,
    "label-revision.schema.json": model.LabelRevision,
    "curator-toml.schema.json": model.StoreConfig,
    "predictions.schema.json": model.Prediction,
    "floors-toml.schema.json": model.FloorsFile,
    "gate-report.schema.json": model.GateReport,
    "bundle-manifest.schema.json": model.BundleManifest,
    "bundle-fixture.schema.json": model.BundleLine,
    "chat-message.schema.json": model.ChatMessage,
    "failure-record.schema.json": model.FailureRecord,
    "evals-line.schema.json": model.EvalLine,
    "judge-calibration.schema.json": model.CalibrationRecord,
}


def generate() -> dict[str, dict[str, Any]]:
    schemas = {}
    for name, schema_model in SCHEMAS.items():
        schema = schema_model.model_json_schema(mode="validation")
        schemas[name] = {"$schema": DIALECT, "$id": f"curator/{name}", **schema}
    return schemas


def render(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def write(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in generate().items():
        path = directory / name
        path.write_text(render(schema), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    target = (
        Path(sys.argv[1])
        if len(sys.argv) > 1
        else Path(__file__).resolve().parent.parent / "schemas"
    )
    for path in write(target):
        print(path)
