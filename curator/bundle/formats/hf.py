"""hf/: a Hugging Face `DatasetDict` (`save_to_disk`) with splits `golden` and `adversarial`.

`datasets.load_from_disk("bundles/1.0.0/hf")` opens it. Both splits are always there with
the same explicit Features, an empty one with no rows, so `ds["adversarial"]` never fails
on a set that has no variants yet. Fingerprints are derived from the content digest
rather than random, so the saved files are byte-identical across rebuilds.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

FOLDER = "hf"
# split -> what it holds (the dataset card says so too)
SPLITS = {
    "golden": "fixtures made from real inputs, curated and labelled",
    "adversarial": "variants made by mutations, and production failures promoted to fixtures",
}
DATA_FILE = "data-00000-of-00001.arrow"  # save_to_disk's one shard per split


def features(tasks: bool = False) -> Any:  # datasets.Features, imported lazily
    """The columns' types; `tasks`: with the column of named tasks (bundles that have some)."""
    from datasets import Features, List, Value

    text = Value("string")
    pairs = List({"name": text, "value": text})
    named_tasks = {
        "tasks": List(
            {
                "name": text,
                "rubrics": List(text),
                "rubric_evidence": List({"rubric": text, "posts": List(text)}),
                "reference": text,
                "fields": List(text),
            }
        )
    }
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
            "label_source": text,
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
            "messages": List(
                {
                    "role": text,
                    "content": text,
                    "name": text,
                    "tool_call_id": text,
                    "tool_calls": List({"id": text, "name": text, "arguments": text}),
                }
            ),
            "model": text,
            "fields": List(
                {
                    "name": text,
                    "type": text,
                    "value": text,
                    "expected_absent": Value("bool"),
                    "variants": List(text),
                    "evidence_page": Value("int32"),
                    "evidence_post": text,
                    "evidence_message": Value("int32"),
                    "evidence_start": Value("int32"),
                    "evidence_end": Value("int32"),
                    "evidence_text": text,
                    "authority": text,
                    "no_evidence": text,
                    "unanswerable": text,
                }
            ),
            "rubrics": List(text),
            "rubric_evidence": List({"rubric": text, "posts": List(text)}),
            "reference": text,
            "known_bad": List(
                {
                    "failure_mode": text,
                    "trace_id": text,
                    "observed_at": text,
                    "text": text,
                    "fields": pairs,
                }
            ),
            "lineage": {
                "parent": text,
                "parent_label_rev": Value("int32"),
                "mutations": List(
                    {"name": text, "seed": Value("int64"), "params": pairs, "measured": pairs}
                ),
            },
            "provenance": {
                "source_sha256": text,
                "source_name": text,
                "importer": text,
                "imported_at": text,
                "trace_id": text,
                "vault_id": text,
            },
            **(named_tasks if tasks else {}),
        }
    )


def arrow_table(columns: dict[str, list[Any]]) -> Any:  # pyarrow.Table
    """The rows (`columns.rows`) as an Arrow table typed by `features()`: parquet shares it."""
    import pyarrow as pa

    return pa.Table.from_pydict(columns, schema=features("tasks" in columns).arrow_schema)


def split_tables(table: Any) -> dict[str, Any]:
    """split name -> its rows, in bundle (id) order; a split may have none."""
    import pyarrow as pa

    flags = table.column("adversarial").to_pylist()
    return {
        name: table.take(
            pa.array(
                [i for i, flag in enumerate(flags) if flag == (name == "adversarial")],
                type=pa.int64(),
            )
        )
        for name in SPLITS
    }


def write(directory: Path, splits: dict[str, Any], fingerprint: str) -> list[str]:
    import datasets
    from datasets import Dataset, DatasetDict, DatasetInfo
    from datasets.table import InMemoryTable

    datasets.disable_progress_bars()
    info = DatasetInfo(features=features("tasks" in next(iter(splits.values())).column_names))
    dataset = DatasetDict(
        {
            name: Dataset(
                InMemoryTable(table), info=info.copy(), fingerprint=_fingerprint(fingerprint, name)
            )
            for name, table in splits.items()
        }
    )
    target = directory / FOLDER
    dataset.save_to_disk(str(target), num_shards={name: 1 for name in splits})
    return sorted(
        f"{FOLDER}/{p.relative_to(target).as_posix()}" for p in target.rglob("*") if p.is_file()
    )


def data_path(split: str) -> str:
    """The split's Arrow file inside the bundle: what the card's `configs` point at."""
    return f"{FOLDER}/{split}/{DATA_FILE}"


def _fingerprint(digest: str, split: str) -> str:
    return hashlib.sha256(f"{digest}:{split}".encode()).hexdigest()[:16]
