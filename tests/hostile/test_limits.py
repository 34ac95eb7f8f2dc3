"""The limits refuse what is hostile and nothing else: every real input reads as json.loads
reads it, and the documented defaults are the ones in force."""

from __future__ import annotations

import json
import tomllib

from hypothesis import given, settings
from hypothesis import strategies as st

from curator.config import default_config_text
from curator.json_input import parse, parse_lines
from curator.model import LimitSettings
from tests.conftest import REPO

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=40,
)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES)
def test_any_ordinary_json_reads_as_json_loads_reads_it(value):
    text = json.dumps(value, ensure_ascii=False)
    assert parse(text.encode("utf-8"), "x.json") == json.loads(text)


def test_every_committed_input_reads_as_json_loads_reads_it():
    files = [*(REPO / "examples").rglob("*.json"), *(REPO / "tests" / "data").rglob("*.json")]
    assert len(files) > 10
    for path in files:
        assert parse(path.read_bytes(), path.name) == json.loads(path.read_bytes()), path
    for path in [
        *(REPO / "examples").rglob("*.jsonl"),
        *(REPO / "tests" / "data").rglob("*.jsonl"),
    ]:
        lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        assert [value for _, value in parse_lines(path.read_bytes(), path.name)] == lines, path


def test_the_new_store_template_shows_the_defaults_in_force():
    block = default_config_text().split("# [limits]\n", 1)[1]
    shown = tomllib.loads(
        "\n".join(
            line.removeprefix("# ") for line in block.splitlines() if line.startswith("# max")
        )
    )
    assert LimitSettings(**shown) == LimitSettings()
    assert set(shown) == set(LimitSettings.model_fields)
