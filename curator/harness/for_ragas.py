"""Ragas: dataset.jsonl that `EvaluationDataset.from_jsonl` reads, and curator's metadata beside it.

Ragas' `from_jsonl` fails on a blank line and silently drops keys it does not know, and a
sample has no id or metadata slot: metadata.jsonl holds, line for line, each sample's
fixture id and curator metadata (curator.harness.ragas_metric reads it). `reference` must
be a non-empty string: a thread without a reviewed reference answer gets its rubric
statements, one a line (the metadata says `reference_from_rubrics`). `rubrics` is in
Ragas' shape, score descriptions by name: score1 meets every statement, score0 does not.
"""

from __future__ import annotations

from typing import Any

from curator.harness.jsonl import dumps
from curator.harness.samples import HarnessSample

FOLDER = "ragas"
DATASET = "dataset.jsonl"
METADATA = "metadata.jsonl"
LOADER = 'EvaluationDataset.from_jsonl("{folder}/dataset.jsonl")'
NO_TRUTH = "(no ground truth: the fixture is unlabelled)"


def files(samples: list[HarnessSample]) -> dict[str, str]:
    rows = [_row(sample) for sample in samples]
    meta = [{"fixture_id": s.id, "user_input": s.input, **s.metadata} for s in samples]
    return {DATASET: dumps(rows), METADATA: dumps(meta)}


def _row(sample: HarnessSample) -> dict[str, Any]:
    row: dict[str, Any] = {
        "user_input": sample.input,
        "reference": sample.target or NO_TRUTH,
        "reference_contexts": sample.contexts,
    }
    statements = [rubric["text"] for rubric in sample.rubrics]
    if statements:
        listed = " ".join(f"({n}) {text}" for n, text in enumerate(statements, 1))
        row["rubrics"] = {
            "score0_description": f"The response fails at least one of: {listed}",
            "score1_description": f"The response meets every one of: {listed}",
        }
    return row
