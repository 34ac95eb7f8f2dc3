"""fixtures.parquet: the same typed rows as the HF dataset, for pandas and DuckDB users."""

from __future__ import annotations

from pathlib import Path
from typing import Any

FILE = "fixtures.parquet"


def write(directory: Path, table: Any) -> list[str]:
    import pyarrow.parquet as pq

    # No statistics/page index timestamps exist in parquet; the writer is deterministic.
    pq.write_table(table, directory / FILE, compression="zstd")
    return [FILE]
