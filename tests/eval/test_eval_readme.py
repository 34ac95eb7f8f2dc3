"""The README's "Running evals" examples are the files the tests and the demo run."""

from __future__ import annotations

from tests.conftest import REPO


def test_the_readme_shows_the_example_system_and_test_file_verbatim():
    readme = (REPO / "README.md").read_text()
    section = readme[
        readme.index("## Running evals") : readme.index("## Gate CI on quality floors")
    ]
    for name in ("extractor.py", "test_extractor.py"):
        code = (REPO / "examples" / "evals" / name).read_text()
        assert f"```python\n{code}```" in section, (
            f"README's copy of examples/evals/{name} is out of date"
        )
