"""DeepEval: goldens.jsonl that `EvaluationDataset.add_goldens_from_jsonl_file` reads as is.

DeepEval's quirks: `expected_output` must be a string (a document's is the JSON of its
expected fields), `Golden` reads no id from the file (the fixture id is its `name`),
`custom_column_key_values` takes strings only, and a row with `scenario` would become a
conversational golden (none is written). curator's metadata is `additional_metadata`.
"""

from __future__ import annotations

from curator.harness.jsonl import dumps
from curator.harness.samples import HarnessSample

FOLDER = "deepeval"
GOLDENS = "goldens.jsonl"
LOADER = 'dataset.add_goldens_from_jsonl_file("{folder}/goldens.jsonl")'


def files(samples: list[HarnessSample]) -> dict[str, str]:
    rows = [
        {
            "name": sample.id,
            "input": sample.input,
            "expected_output": sample.target,
            "context": sample.contexts,
            "additional_metadata": {**sample.metadata, "content": sample.content},
            "custom_column_key_values": {
                "fixture_id": sample.metadata["fixture_id"],
                "fixture_sha256": sample.metadata["fixture_sha256"],
                "bundle_version": sample.metadata["bundle_version"],
                "category": sample.metadata["category"],
                "adversarial": str(sample.metadata["adversarial"]).lower(),
            },
        }
        for sample in samples
    ]
    return {GOLDENS: dumps(rows)}
