"""Exports of a verified bundle for eval harnesses, and curator's scoring inside each.

The door: `export_bundle` (what `curator export` calls), `HARNESSES`, and `score_answer`,
the gate's own item scoring of one harness answer that every adapter calls. The adapters
themselves import their harness and are imported only where it is installed:

for_inspect, for_deepeval, for_ragas, for_promptfoo, for_langfuse   one writer per harness
samples.py      a fixture as a harness sample: input, target, traceable metadata
render.py       inputs: page breaks, a thread as Mattermost prints it, a conversation
verdicts.py     an answer scored from an export's metadata, as `curator gate` scores it
results.py      a harness's results (inspect_ai eval log, promptfoo JSON) as predictions
inspect_scorer.py, deepeval_metric.py, ragas_metric.py, promptfoo_assert.py   the adapters
push.py         `--push`: the Langfuse items sent through the Langfuse SDK
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from curator.harness.export import HARNESSES, ExportResult, export_bundle
    from curator.harness.verdicts import score_answer

__all__ = ["HARNESSES", "ExportResult", "export_bundle", "score_answer"]


def __getattr__(name: str) -> Any:
    # Resolved on first use: an adapter that promptfoo starts once per assertion imports
    # only the scoring it needs, not the bundle reader and every writer.
    if name == "score_answer":
        from curator.harness import verdicts

        return verdicts.score_answer
    if name in __all__:
        from curator.harness import export

        return getattr(export, name)
    raise AttributeError(name)
