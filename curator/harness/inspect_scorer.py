"""curator's scorer for inspect_ai: each field and rubric judged as `curator gate` judges it.

Import it where inspect_ai is installed (curator does not depend on it):

    from curator.harness.inspect_scorer import curator_scorer

The Score's value is the share of the fixture's items right; its metadata lists each
item (`items`: name, outcome, failure classes), the verdicts `curator gate` reads back
from the eval log.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.scorer import Score, Target, mean, scorer
from inspect_ai.solver import TaskState

from curator.harness.verdicts import score_answer, summary


@scorer(metrics=[mean()])
def curator_scorer() -> Any:
    async def score(state: TaskState, target: Target) -> Score:
        items = score_answer(state.metadata, state.output.completion, state.input_text)
        right = sum(item.right for item in items)
        return Score(
            value=right / len(items) if items else 0.0,
            answer=state.output.completion,
            explanation=summary(items),
            metadata={"items": [item.to_json() for item in items]},
        )

    return score
