"""Run by the harness venv's Python (tests/harness/test_export_deepeval_ragas.py): Ragas loads
the export with its own loader and evaluates it with curator's (non-LLM) field metric.

argv: the export's ragas folder, answers.json (fixture id -> answer text).
Prints one JSON object: each sample as loaded, and each sample's metric score (None: NaN).
"""

import json
import math
import sys

from ragas import EvaluationDataset, evaluate

from curator.harness.ragas_metric import CuratorFieldAccuracy

folder, answers_path = sys.argv[1:3]
ANSWERS = json.load(open(answers_path, encoding="utf-8"))

dataset = EvaluationDataset.from_jsonl(f"{folder}/dataset.jsonl")  # the docs' loader line
ids = [json.loads(line)["fixture_id"] for line in open(f"{folder}/metadata.jsonl")]
for sample, fixture_id in zip(dataset.samples, ids, strict=True):
    sample.response = ANSWERS[fixture_id]
metric = CuratorFieldAccuracy(metadata_file=f"{folder}/metadata.jsonl")
result = evaluate(dataset, metrics=[metric], show_progress=False, raise_exceptions=True)
scores = [None if math.isnan(s) else s for s in result.to_pandas()[metric.name].tolist()]
print(
    json.dumps(
        {
            "samples": [s.model_dump() for s in dataset.samples],
            "scores": dict(zip(ids, scores, strict=True)),
        }
    )
)
