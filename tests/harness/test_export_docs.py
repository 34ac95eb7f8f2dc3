"""docs/guide/export.md shows, for each harness, the one loader line that works: each is
taken from the page and run in the harness venv on the sample bundle's export (promptfoo's
command: tests/harness/test_export_promptfoo.py), and it is the line `curator export`
itself prints."""

from __future__ import annotations

import pytest

from curator.harness import HARNESSES
from tests.conftest import REPO, run_cli
from tests.harness.conftest import PAGE, harness_env, loader_block, run_harness_python
from tests.harness.langfuse_stub import LangfuseStub

# What the test appends to the docs' block: the number of samples the harness loaded.
COUNTS = {
    "inspect": "print(len(dataset))",
    "deepeval": "print(len(dataset.goldens))",
    "ragas": "print(len(dataset))",
}


@pytest.fixture(scope="module")
def exported(sample_bundle, tmp_path_factory):
    root = tmp_path_factory.mktemp("docs")
    done = run_cli("export", str(sample_bundle), "--to", "all", "--out", str(root / "exports"))
    assert done.exit_code == 0, done.stderr
    return root, done.stdout


def fixture_count(root) -> int:
    return len((root / "exports" / "inspect" / "samples.jsonl").read_text().splitlines())


@pytest.mark.parametrize("harness", list(COUNTS))
def test_the_python_loader_line_of_the_docs_loads_every_sample(harness, exported, tmp_path):
    root, _ = exported
    code = loader_block(harness) + "\n" + COUNTS[harness] + "\n"
    done = run_harness_python(code, tmp=tmp_path, cwd=root)
    assert done.stdout.strip().splitlines()[-1] == str(fixture_count(root))


def test_the_langfuse_lines_of_the_docs_create_every_item(exported, tmp_path):
    root, _ = exported
    with LangfuseStub() as server:
        env_code = (
            "import os\n"
            f"os.environ.update(LANGFUSE_HOST={server.url!r}, LANGFUSE_PUBLIC_KEY='pk', "
            "LANGFUSE_SECRET_KEY='sk', LANGFUSE_TRACING_ENABLED='false')\n"
        )
        run_harness_python(env_code + loader_block("langfuse"), tmp=tmp_path, cwd=root)
    assert len(server.items()) == fixture_count(root)


def test_curator_export_prints_the_loader_lines_of_the_docs(exported):
    root, stdout = exported
    page = PAGE.read_text(encoding="utf-8")
    for folder, _, loader in HARNESSES.values():
        line, _, where = loader.format(folder=f"exports/{folder}").partition("  # each line of ")
        assert where in page
        assert f"load: {loader.format(folder=(root / 'exports' / folder).as_posix())}" in stdout
        assert line in page, line


def test_no_harness_is_a_curator_dependency():
    names = ("inspect-ai", "deepeval", "ragas", "langfuse", "promptfoo")
    dependencies = (REPO / "pyproject.toml").read_text().split("[project.optional-dependencies]")[0]
    assert not [name for name in names if f'"{name}' in dependencies]
    assert harness_env  # the harnesses run only in the venv this module's helpers start
