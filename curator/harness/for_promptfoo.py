"""promptfoo: promptfooconfig.yaml, tests.yaml and the curator assertion file it runs.

Every test carries assertions (promptfoo passes a test without any, "No assertions"):
a curator python assertion per answerable field (type-aware, variants, expected absent),
an `llm-rubric` per rubric statement, and for a fixture with neither one assertion that
fails saying it has no ground truth. Category, lineage and the line's hash (written
`sha256:<hex>`: promptfoo redacts bare 64-hex strings) go in the test's `metadata`.
`file://` paths resolve relative to the config, so the folder moves as a whole.
"""

from __future__ import annotations

from typing import Any

import yaml

from curator.harness.samples import HarnessSample

FOLDER = "promptfoo"
CONFIG = "promptfooconfig.yaml"
TESTS = "tests.yaml"
ASSERTION = "curator_assert.py"
LOADER = "npx promptfoo@0.121.20 eval -c {folder}/promptfooconfig.yaml"

# The file promptfoo imports: curator's assertion, from the curator installed beside it.
_ASSERTION_FILE = '''"""curator's type-aware field assertion (curator.harness.promptfoo_assert)."""

from curator.harness.promptfoo_assert import get_assert

__all__ = ["get_assert"]
'''


def files(samples: list[HarnessSample], bundle_version: str) -> dict[str, str]:
    config = {
        "description": f"curator bundle {bundle_version}",
        # Replace the prompt and the provider with your own; `echo` answers with the prompt.
        "prompts": ["{{input}}"],
        "providers": ["echo"],
        "tests": f"file://{TESTS}",
    }
    return {
        CONFIG: _yaml(config),
        TESTS: _yaml([test_case(sample) for sample in samples]),
        ASSERTION: _ASSERTION_FILE,
    }


def test_case(sample: HarnessSample) -> dict[str, Any]:
    asserts: list[dict[str, Any]] = [
        {
            "type": "python",
            "value": f"file://{ASSERTION}",
            "metric": f"field:{name}",
            "config": {"field": name},
        }
        for name, spec in sample.fields.items()
        if not spec["unanswerable"]
    ]
    asserts += [
        {"type": "llm-rubric", "value": rubric["text"], "metric": f"rubric:{number}"}
        for number, rubric in enumerate(sample.rubrics, 1)
    ]
    if not asserts:
        asserts.append({"type": "python", "value": f"file://{ASSERTION}", "metric": "no-truth"})
    return {
        "description": sample.id,
        "vars": {"input": sample.input},
        "assert": asserts,
        "metadata": sample.metadata,
    }


def _yaml(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
