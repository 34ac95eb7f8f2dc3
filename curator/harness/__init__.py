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

from curator.harness.export import HARNESSES, ExportResult, export_bundle
from curator.harness.verdicts import score_answer

__all__ = ["HARNESSES", "ExportResult", "export_bundle", "score_answer"]
