"""`curator export --to langfuse --push URL`: the exported items sent through the Langfuse SDK.

The SDK is not a curator dependency: --push needs `pip install langfuse` where curator runs
(curator's own install has it only if you add it). Keys come from the SDK's environment
variables, LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY, never from the command line.
Items are upserts by id, so pushing the same bundle again changes nothing.
"""

from __future__ import annotations

import json
import os
from typing import Any

from curator.errors import CuratorError

KEYS = ("LANGFUSE_PUBLIC_KEY", "LANGFUSE_SECRET_KEY")


def push_items(items_jsonl: str, dataset: str, host: str, bundle_version: str) -> int:
    """Create (or update) `dataset` on the Langfuse server at `host` with every item; the
    number of items sent."""
    try:
        from langfuse import Langfuse
    except ImportError:
        raise CuratorError(
            "--push needs the Langfuse SDK where curator runs: pip install 'langfuse==5.2.0'"
        ) from None
    missing = [key for key in KEYS if not os.environ.get(key)]
    if missing:
        raise CuratorError(f"--push needs {' and '.join(missing)} set (the project's API keys)")
    client: Any = Langfuse(host=host, tracing_enabled=False)
    rows = [json.loads(line) for line in items_jsonl.splitlines() if line]
    try:
        client.create_dataset(name=dataset, metadata={"curator_bundle_version": bundle_version})
        for row in rows:
            client.create_dataset_item(dataset_name=dataset, **row)
    except Exception as error:  # the SDK's errors have no common base; say which and stop
        raise CuratorError(
            f"Langfuse push to {host} failed: {type(error).__name__}: {str(error)[:200]}"
        ) from None
    finally:
        client.shutdown()
    return len(rows)
