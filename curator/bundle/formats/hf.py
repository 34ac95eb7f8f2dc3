"""hf/: a Hugging Face dataset (`Dataset.save_to_disk`) with explicit Features.

`datasets.load_from_disk("bundles/1.0.0/hf")` opens it. The fingerprint is the content
digest rather than a random one, so the saved files are byte-identical across rebuilds.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from curator.bundle.formats.columns import rows
from curator.bundle.serialise import Serialised

FOLDER = "hf"


def features() -> Any:  # datasets.Features, imported lazily
    from datasets import Features, List, Value

    text = Value("string")
    return Features(
        {
            "id": text,
            "kind": text,
            "doc_type": text,
            "category": text,
            "status": text,
            "adversarial": Value("bool"),
            "mutation_kinds": List(text),
            "label_rev": Value("int32"),
            "pages": List(
                {
                    "number": Value("int32"),
                    "text": text,
                    "origin": text,
                    "ocr_confidence": Value("float64"),
                    "language": text,
                }
            ),
            "posts": List(
                {
                    "id": text,
                    "create_at": Value("int64"),
                    "user_id": text,
                    "username": text,
                    "root_id": text,
                    "message": text,
                }
            ),
            "fields": List(
                {
                    "name": text,
                    "type": text,
                    "value": text,
                    "expected_absent": Value("bool"),
                    "variants": List(text),
                    "evidence_page": Value("int32"),
                    "evidence_post": text,
                    "evidence_start": Value("int32"),
                    "evidence_end": Value("int32"),
                    "evidence_text": text,
                    "authority": text,
                }
            ),
            "rubrics": List(text),
            "known_bad": List(
                {"failure_mode": text, "trace_id": text, "text": text, "fields_json": text}
            ),
            "parent": text,
            "lineage_json": text,
        }
    )


def arrow_table(items: Sequence[Serialised]) -> Any:  # pyarrow.Table
    """The rows as an Arrow table typed by `features()`: shared with the parquet format."""
    import pyarrow as pa

    return pa.Table.from_pydict(rows(items), schema=features().arrow_schema)


def write(directory: Path, table: Any, fingerprint: str) -> list[str]:
    import datasets
    from datasets import Dataset, DatasetInfo
    from datasets.table import InMemoryTable

    datasets.disable_progress_bars()
    dataset = Dataset(InMemoryTable(table), info=DatasetInfo(features=features()), fingerprint=fingerprint[:16])
    target = directory / FOLDER
    dataset.save_to_disk(str(target), num_shards=1)
    return sorted(f"{FOLDER}/{p.relative_to(target).as_posix()}" for p in target.rglob("*") if p.is_file())
