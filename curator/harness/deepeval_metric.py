"""curator's field metric for DeepEval: the share of a fixture's items right, as the gate
judges them. Import it where deepeval is installed (curator does not depend on it):

    from curator.harness.deepeval_metric import CuratorFieldMetric

It reads curator's metadata from the test case's `metadata` (a golden's
`additional_metadata`, passed on as `LLMTestCase(..., metadata=golden.additional_metadata)`).
No model is called.
"""

from __future__ import annotations

from typing import Any

from deepeval.metrics import BaseMetric
from deepeval.test_case import LLMTestCase, SingleTurnParams

from curator.harness.verdicts import score_answer, summary
from curator.score.scoring import ItemResult


class CuratorFieldMetric(BaseMetric):
    _required_params = [SingleTurnParams.INPUT, SingleTurnParams.ACTUAL_OUTPUT]

    def __init__(self, threshold: float = 1.0) -> None:
        self.threshold = threshold
        self.include_reason = True
        self.async_mode = False
        self.items: list[ItemResult] = []

    def measure(self, test_case: LLMTestCase, *args: Any, **kwargs: Any) -> float:
        self.items = score_answer(
            test_case.metadata or {}, test_case.actual_output, test_case.input or ""
        )
        right = sum(item.right for item in self.items)
        self.score = right / len(self.items) if self.items else 0.0
        self.success = bool(self.items) and self.score >= self.threshold
        self.reason = summary(self.items)
        return self.score

    async def a_measure(self, test_case: LLMTestCase, *args: Any, **kwargs: Any) -> float:
        return self.measure(test_case)

    def is_successful(self) -> bool:
        return bool(self.success)

    @property
    def __name__(self) -> str:  # DeepEval names a metric by this
        return "curator fields"
