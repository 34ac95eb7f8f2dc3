"""inspect_ai: samples.jsonl that `json_dataset` reads with its default field names.

inspect_ai keeps only the `metadata` key as metadata, so everything curator knows sits
under it; a target is a string (a dict would become its Python repr), so a document's
target is the JSON of its expected fields; the input is a string, or a conversation's
list of chat messages (a dict input is refused).
"""

from __future__ import annotations

from curator.harness.jsonl import dumps
from curator.harness.samples import HarnessSample

FOLDER = "inspect"
SAMPLES = "samples.jsonl"
LOADER = 'json_dataset("{folder}/samples.jsonl")'


def files(samples: list[HarnessSample]) -> dict[str, str]:
    rows = [
        {
            "id": sample.id,
            "input": sample.messages or sample.input,
            "target": sample.target,
            "metadata": {**sample.metadata, "content": sample.content},
        }
        for sample in samples
    ]
    return {SAMPLES: dumps(rows)}
