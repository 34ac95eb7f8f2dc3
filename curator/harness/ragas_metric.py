"""curator's field metric for Ragas: the share of a sample's items right, as the gate judges
them. Import it where ragas is installed (curator does not depend on it):

    from curator.harness.ragas_metric import CuratorFieldAccuracy
    metric = CuratorFieldAccuracy(metadata_file="exports/ragas/metadata.jsonl")

A Ragas sample has no id or metadata slot, so the metric finds each sample's curator
metadata in the export's metadata.jsonl by its `user_input`. No model is called.
"""

from __future__ import annotations

import json
import math
import typing as t
from dataclasses import dataclass, field

from ragas.dataset_schema import SingleTurnSample
from ragas.metrics.base import MetricType, SingleTurnMetric

from curator.harness.verdicts import score_answer


@dataclass
class CuratorFieldAccuracy(SingleTurnMetric):
    name: str = "curator_field_accuracy"
    metadata_file: str = ""
    _required_columns: dict[MetricType, set[str]] = field(
        default_factory=lambda: {MetricType.SINGLE_TURN: {"user_input", "response"}}
    )

    def __post_init__(self) -> None:
        self._by_input: dict[str, dict[str, t.Any]] = {}
        if self.metadata_file:
            with open(self.metadata_file, encoding="utf-8") as lines:
                for line in lines:
                    row = json.loads(line)
                    self._by_input[row["user_input"]] = row

    def init(self, run_config: t.Any) -> None:
        """Nothing to set up: no model, no embeddings."""

    async def _single_turn_ascore(self, sample: SingleTurnSample, callbacks: t.Any) -> float:
        metadata = self._by_input.get(sample.user_input or "")
        if metadata is None:
            return math.nan  # not a sample of this export
        items = score_answer(metadata, sample.response, sample.user_input or "")
        return sum(item.right for item in items) / len(items) if items else math.nan
