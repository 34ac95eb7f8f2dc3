"""Run by the harness venv's Python (tests/harness/test_export_deepeval_ragas.py): DeepEval
loads the export with its own loader and evaluates it with curator's (non-LLM) field metric.

argv: the export's deepeval folder, answers.json (fixture id -> answer text).
Prints one JSON object: each golden as loaded, and each test case's metric score.
"""

import json
import sys

from deepeval import evaluate
from deepeval.dataset import EvaluationDataset
from deepeval.evaluate.configs import AsyncConfig, DisplayConfig
from deepeval.test_case import LLMTestCase

from curator.harness.deepeval_metric import CuratorFieldMetric

folder, answers_path = sys.argv[1:3]
ANSWERS = json.load(open(answers_path, encoding="utf-8"))

dataset = EvaluationDataset()
dataset.add_goldens_from_jsonl_file(f"{folder}/goldens.jsonl")  # the docs' loader line
cases = [
    LLMTestCase(
        name=golden.name,
        input=golden.input,
        actual_output=ANSWERS[golden.name],
        expected_output=golden.expected_output,
        context=golden.context,
        metadata=golden.additional_metadata,
    )
    for golden in dataset.goldens
]
result = evaluate(
    test_cases=cases,
    metrics=[CuratorFieldMetric()],
    async_config=AsyncConfig(run_async=False),
    display_config=DisplayConfig(show_indicator=False, print_results=False),
)
print(
    json.dumps(
        {
            "goldens": [
                {
                    "name": g.name,
                    "input": g.input,
                    "expected_output": g.expected_output,
                    "metadata": g.additional_metadata,
                }
                for g in dataset.goldens
            ],
            "scores": {r.name: r.metrics_data[0].score for r in result.test_results},
        }
    )
)
