"""Pieces of review that need no server: offsets, configs, agreement."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from curator.config import load_config
from curator.model import DocumentContent, Page
from curator.review import configs
from curator.review.agreement import Agreement, Said, disagreements
from curator.review.textmap import from_utf16, join_pages, to_utf16

REPO = Path(__file__).resolve().parents[2]


@given(st.text(max_size=40), st.data())
def test_utf16_offsets_round_trip(text, data):
    index = data.draw(st.integers(min_value=0, max_value=len(text)))
    assert from_utf16(text, to_utf16(text, index)) == index


def test_a_span_is_found_on_its_page_and_not_across_pages():
    content = DocumentContent(
        pages=[
            Page(number=1, text="a😀 Tenant: Ann", origin="text-layer"),
            Page(number=2, text="Rent: 5", origin="ocr"),
        ]
    )
    joined = join_pages(content)
    start, end = joined.span_to_utf16(1, 11, 14)  # "Ann", after the two-unit emoji
    assert (start, end) == (12, 15)
    assert joined.span_from_utf16(start, end) == (1, 11, 14)
    rent = joined.span_to_utf16(2, 6, 7)
    assert joined.span_from_utf16(*rent) == (2, 6, 7)
    assert joined.span_from_utf16(start, rent[1]) is None  # crosses the page break
    assert joined.span_from_utf16(2, 3) is None  # splits the emoji's surrogate pair


def test_document_config_has_a_span_label_and_value_box_per_field():
    spec = load_config(REPO / "curator.toml").doc_types["invoice"]
    found = configs.controls(configs.document_config("invoice", spec))
    assert found[configs.SPAN].options == tuple(sorted(spec.fields))
    for field in spec.fields:
        assert found[configs.value_control(field)].tag == "TextArea"
        assert found[configs.variants_control(field)].tag == "TextArea"
    assert found[configs.ABSENT].options == tuple(sorted(spec.fields))


def test_thread_config_has_a_verdict_and_evidence_posts_per_rubric_slot():
    found = configs.controls(configs.thread_config(7))
    assert configs.rubric_slots(configs.thread_config(7)) == 7
    # the choices come from each task's data, so an unused slot shows none (no orphan choices)
    assert found["verdict_7"] == configs.Control("Choices", "rubric_7", ())
    assert found["posts_7"] == configs.Control("Choices", "rubric_7", ())
    shown = configs.objects(configs.thread_config(2))
    assert shown[configs.DIALOGUE] == "$dialogue"
    assert (shown["verdict_2"], shown["posts_2"]) == ("$verdicts_2", "$posts_2")


def test_conversation_config_shows_turns_rubrics_reference_and_fields():
    spec = load_config(REPO / "curator.toml").doc_types["lease"]
    names = configs.controls(configs.conversation_config("lease", spec, 5))
    assert names["reference"].tag == "TextArea" and names["reference"].to_name == "dialogue"
    assert {f"value_{field}" for field in spec.fields} <= set(names)
    assert {f"verdict_{n}" for n in range(1, 6)} <= set(names)
    assert not any(name.startswith("posts_") for name in names)  # no posts to tick
    assert configs.objects(configs.conversation_config(None, None, 5))["dialogue"] == "$messages"


def test_a_conversation_task_shows_each_turn_under_its_role(store, tmp_path):
    from curator.ingest.api import import_sources
    from curator.review.tasks import build_task, project_key
    from tests.ingest import conversation_samples as sample

    import_sources(store, [sample.write_jsonl(tmp_path, "one.jsonl", [sample.chat_line()])])
    [fixture_id] = store.ids()
    record = store.load(fixture_id)
    assert project_key(record.fixture) == "conversation"
    turns = build_task(record.fixture, record.content, None)["data"]["messages"]
    assert [t["role"] for t in turns] == ["system", "user", "assistant", "tool", "assistant"]
    assert turns[2]["text"].startswith("called find_lease(")  # a bare tool call
    assert turns[0]["text"] == record.content.messages[0].content


def test_instructions_come_from_the_field_descriptions():
    spec = load_config(REPO / "curator.toml").doc_types["lease"]
    html = configs.document_instructions("lease", spec)
    config = configs.document_config("lease", spec)
    for name, field in spec.fields.items():
        assert (
            field.description and field.description in html
        )  # the shipped types describe every field
        assert configs.field_line(name, field.type, field.description) in config


def test_config_problems_allow_additions_and_catch_removals():
    spec = load_config(REPO / "curator.toml").doc_types["lease"]
    ours = configs.document_config("lease", spec)
    assert configs.config_problems(ours, ours) == []
    added = ours.replace(
        '<Label value="tenant"', '<Label value="subtenant" /><Label value="tenant"'
    )
    assert configs.config_problems(added, ours) == []
    renamed = ours.replace('<Label value="tenant"', '<Label value="renter"')
    assert configs.config_problems(renamed, ours) == ["control 'span' lost tenant"]
    retargeted = ours.replace(
        'name="value_tenant" toName="text"', 'name="value_tenant" toName="other"'
    )
    assert "value_tenant" in configs.config_problems(retargeted, ours)[0]
    assert configs.config_problems("<View", ours) != []


def test_agreement_is_type_aware_and_counts_only_shared_fields():
    alice = {
        "date": Said("2024-01-15", "date"),
        "rent": Said("$1,250.00", "money"),
        "who": Said(None, "person"),
    }
    bob = {
        "date": Said("January 15, 2024", "date"),
        "rent": Said("1250", "money"),
        "who": Said("Ann", "person"),
    }
    assert disagreements([alice, bob]) == ["who"]
    agreement = Agreement()
    agreement.add_task([alice, bob])
    agreement.add_task([{"date": Said("2024-01-16", "date")}, {"date": Said("2024-01-15", "date")}])
    agreement.add_task([{"rent": Said("1", "money")}])  # one annotator: nothing to compare
    assert agreement.as_dict() == {
        "date": {"tasks": 2, "agreed": 1, "rate": 0.5},
        "rent": {"tasks": 1, "agreed": 1, "rate": 1.0},
        "who": {"tasks": 1, "agreed": 0, "rate": 0.0},
    }


def test_a_missing_label_studio_binary_is_a_clear_failure(monkeypatch, tmp_path):
    import pytest
    from labelstudio_server import label_studio_bin

    monkeypatch.setenv("LABEL_STUDIO_BIN", str(tmp_path / "no-such-label-studio"))
    with pytest.raises(RuntimeError, match="make test"):
        label_studio_bin()
