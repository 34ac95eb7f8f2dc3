"""Run by the harness venv's Python (tests/harness/test_export_inspect.py): an inspect_ai eval
over curator's export, with a solver that answers from the sample and curator's scorer.

argv: the export's inspect folder, answers.json (fixture id -> answer text), the log folder,
the log format (json, or eval: inspect_ai's default archive).
Prints one JSON object: the dataset's samples as loaded, and the eval log's path.
"""

import json
import sys

from inspect_ai import Task, eval
from inspect_ai.dataset import json_dataset
from inspect_ai.model import ModelOutput
from inspect_ai.solver import solver

from curator.harness.inspect_scorer import curator_scorer

folder, answers_path, log_dir, log_format = sys.argv[1:5]
ANSWERS = json.load(open(answers_path, encoding="utf-8"))


@solver
def answer_from_sample():
    async def solve(state, generate):
        state.output = ModelOutput.from_content("mockllm/model", ANSWERS[str(state.sample_id)])
        return state

    return solve


dataset = json_dataset(f"{folder}/samples.jsonl")  # the loader line of docs/guide/export.md
task = Task(dataset=dataset, solver=answer_from_sample(), scorer=curator_scorer())
[log] = eval(task, model="mockllm/model", log_dir=log_dir, log_format=log_format, display="none")
print(
    json.dumps(
        {
            "status": log.status,
            "log": log.location,
            "samples": [
                {
                    "id": s.id,
                    "input": s.input if isinstance(s.input, str) else [m.text for m in s.input],
                    "target": s.target,
                    "metadata": s.metadata,
                }
                for s in dataset
            ],
        }
    )
)
