"""Langfuse: items.jsonl, each line the keyword arguments of `Langfuse.create_dataset_item`.

`create_dataset_item` takes only input, expected_output, metadata, source_trace_id,
source_observation_id, status and id, so a line has only input, expected_output, metadata
and id. Item ids are unique across a Langfuse project, not a dataset: each is the bundle
version and the fixture id (`1.0.0:lease-0f35b496`), so two versions never collide.
"""

from __future__ import annotations

from curator.harness.jsonl import dumps
from curator.harness.samples import HarnessSample

FOLDER = "langfuse"
ITEMS = "items.jsonl"
LOADER = (
    'langfuse.create_dataset_item(dataset_name="curator", **json.loads(line))'
    "  # each line of {folder}/items.jsonl"
)


def item_id(bundle_version: str, fixture_id: str) -> str:
    return f"{bundle_version}:{fixture_id}"


def files(samples: list[HarnessSample], bundle_version: str) -> dict[str, str]:
    rows = [
        {
            "id": item_id(bundle_version, sample.id),
            "input": {"text": sample.input, "messages": sample.messages},
            "expected_output": sample.target or None,
            "metadata": {**sample.metadata, "content": sample.content},
        }
        for sample in samples
    ]
    return {ITEMS: dumps(rows)}
