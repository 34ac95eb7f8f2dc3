import json

from curator.schemas import SCHEMAS, generate, render
from tests.conftest import REPO


def test_committed_schemas_match_the_models():
    """Fails when a model changes without `python -m curator.schemas` being re-run."""
    for name, schema in generate().items():
        committed = REPO / "schemas" / name
        assert committed.exists(), f"schemas/{name} missing: run python -m curator.schemas"
        assert committed.read_text() == render(schema), f"schemas/{name} drifted from curator.model"


def test_no_stray_schema_files():
    on_disk = {p.name for p in (REPO / "schemas").glob("*.schema.json")}
    assert on_disk == set(SCHEMAS)


def test_schemas_are_draft_2020_12():
    for name in SCHEMAS:
        schema = json.loads((REPO / "schemas" / name).read_text())
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
