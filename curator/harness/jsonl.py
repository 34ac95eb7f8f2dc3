"""JSON Lines as the harness exports write them: one object a line, no blank line (Ragas'
`from_jsonl` fails on one), non-ASCII kept, keys in the order written: same samples, same bytes."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any


def dumps(rows: Iterable[dict[str, Any]]) -> str:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
