"""`curator export` itself: refuses a bundle that fails verification (exit 1, one line,
nothing written), writes the same bytes for the same bundle, and reads answers the way the
adapters inside the harnesses do. No harness runs here."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from curator.harness import HARNESSES
from curator.harness.render import PAGE_BREAK
from curator.harness.verdicts import labels_of, parse_answer, prediction_of, score_answer
from tests.conftest import run_cli


def files_under(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


@pytest.mark.parametrize("damage", ["tamper", "extra"])
def test_a_bundle_that_fails_verification_is_never_exported(damage, sample_bundle, tmp_path):
    broken = tmp_path / "bundle"
    shutil.copytree(sample_bundle, broken)
    if damage == "tamper":
        path = broken / "fixtures.jsonl"
        path.write_bytes(path.read_bytes().replace(b"clean", b"dirty", 1))
    else:
        (broken / "notes.txt").write_text("not in the manifest\n")
    done = run_cli("export", str(broken), "--to", "all", "--out", str(tmp_path / "out"))
    assert done.exit_code == 1
    assert done.stderr.count("\n") == 1 and "bundle verification failed" in done.stderr
    assert not (tmp_path / "out").exists()


def test_the_same_bundle_exports_the_same_bytes(sample_bundle, tmp_path):
    for name in ("a", "b"):
        done = run_cli("export", str(sample_bundle), "--to", "all", "--out", str(tmp_path / name))
        assert done.exit_code == 0, done.stderr
    first = files_under(tmp_path / "a")
    assert first == files_under(tmp_path / "b")
    assert {name.split("/")[0] for name in first} == {folder for folder, _, _ in HARNESSES.values()}


def test_no_bare_sha256_reaches_promptfoo(sample_bundle, tmp_path):
    run_cli("export", str(sample_bundle), "--to", "promptfoo", "--out", str(tmp_path))
    text = (tmp_path / "promptfoo" / "tests.yaml").read_text()
    assert "fixture_sha256: sha256:" in text


def test_push_is_only_for_langfuse(sample_bundle, tmp_path):
    done = run_cli(
        "export", sample_bundle, "--to", "inspect", "--out", tmp_path, "--push", "http://x"
    )
    assert done.exit_code == 2 and "--to langfuse" in done.stderr


def test_a_document_input_keeps_its_page_breaks(sample_bundle, tmp_path):
    run_cli("export", str(sample_bundle), "--to", "inspect", "--out", str(tmp_path))
    rows = [json.loads(line) for line in (tmp_path / "inspect" / "samples.jsonl").open()]
    documents = [r for r in rows if r["metadata"]["kind"] == "document"]
    several = [r for r in documents if len(r["metadata"]["content"]["pages"]) > 1]
    assert several, "the sample store has multi-page documents"
    for row in several:
        pages = row["metadata"]["content"]["pages"]
        assert row["input"] == PAGE_BREAK.join(page["text"] for page in pages)
    threads = [r for r in rows if r["metadata"]["kind"] == "thread"]
    assert all(r["input"].startswith("Thread Export: ") for r in threads)
    assert all("\nPosts: " in r["input"] for r in threads)


METADATA = {
    "fixture_id": "lease-1",
    "mutations": [],
    "fields": {
        "rent": {"type": "money", "value": "$1,250.00", "variants": [], "expected_absent": False},
        "start": {"type": "date", "value": "January 15, 2024", "variants": ["15/01/2024"]},
        "deposit": {"type": "money", "value": None, "expected_absent": True},
        "tenant": {"type": "person", "value": "Jo Blake", "unanswerable": "OCR noise"},
    },
    "rubrics": [{"text": "says the rent", "evidence_posts": []}],
}


@pytest.mark.parametrize(
    ("output", "outcomes"),
    [
        ('{"rent": "1250 USD", "start": "2024-01-15"}', ["right", "right", "right", "missing"]),
        ('```json\n{"rent": "$1,250.00", "deposit": "$500"}\n```', ["right", "omitted", "wrong"]),
        ("I could not find anything.", ["omitted", "omitted", "right", "missing"]),
        (
            '{"fields": {"start": {"value": "15/01/2024", "confidence": 0.9}}, '
            '"rubrics": [{"rubric": "Says the rent.", "pass": false}]}',
            ["omitted", "right", "right", "wrong"],
        ),
    ],
)
def test_answers_are_scored_as_the_gate_scores_them(output, outcomes):
    items = score_answer(METADATA, output)
    assert [item.outcome for item in items][: len(outcomes)] == outcomes
    assert "tenant" not in [item.name for item in items]  # unanswerable: no item


def test_a_value_that_is_no_field_value_scores_wrong_not_as_an_error():
    labels = labels_of(METADATA)
    prediction = prediction_of("lease-1", {"rent": ["$1,250.00"], "start": True}, labels)
    assert prediction.fields["rent"].value == '["$1,250.00"]'
    assert parse_answer("no json {here") is None


@pytest.mark.parametrize(
    ("document", "problem"),
    [
        (
            {
                "evalId": "e",
                "results": {"results": [{"testCase": {"metadata": {"fixture_id": "x"}}}]},
            },
            "fixture 'x' is not in the bundle",
        ),
        ({"evalId": "e", "results": {"results": [{"testCase": {}}]}}, "names no fixture_id"),
        ({"version": 2, "eval": {}, "plan": {}, "samples": None}, "without samples"),
    ],
)
def test_harness_results_the_gate_cannot_use_are_one_error_line(
    document, problem, sample_bundle, tmp_path
):
    results = tmp_path / "results.json"
    results.write_text(json.dumps(document))
    done = run_cli("gate", "--bundle", sample_bundle, "--predictions", results, "--out", tmp_path)
    assert done.exit_code == 2
    assert done.stderr.count("\n") == 1 and problem in done.stderr


def test_a_conversation_between_roles_is_its_messages():
    from curator.harness.render import chat_messages
    from curator.model import Post, ThreadContent, ThreadExport, User

    def thread(names: list[str]) -> ThreadContent:
        users = {f"u{i}": User(id=f"u{i}", username=name) for i, name in enumerate(names)}
        posts = {
            f"p{i}": Post(id=f"p{i}", create_at=i, user_id=f"u{i}", message=f"line {i}")
            for i in range(len(names))
        }
        return ThreadContent(export=ThreadExport(posts=posts, users=users))

    assert chat_messages(thread(["user", "Assistant"])) == [
        {"role": "user", "content": "line 0"},
        {"role": "assistant", "content": "line 1"},
    ]
    assert chat_messages(thread(["user", "dana.whitfield"])) is None  # a person: a thread


def test_a_thread_prints_as_mattermosts_thread_export_string():
    from curator.harness.render import thread_string
    from curator.model import Fixture, Post, Provenance, ThreadContent, ThreadExport, User

    export = ThreadExport(
        posts={
            "r": Post(id="r", create_at=1704103200000, user_id="u1", message="Rent due?"),
            "a": Post(
                id="a", create_at=1704103260000, user_id="u2", root_id="r", file_ids=["f1", "f2"]
            ),
        },
        users={
            "u1": User(id="u1", username="dana", first_name="Dana", last_name="W"),
            "u2": User(id="u2", username="sam"),
        },
        team={"display_name": "Ops"},
        channel={"display_name": "Leases"},
        file_infos={"f1": {"name": "lease.pdf", "mime_type": "application/pdf"}},
    )
    fixture = Fixture(
        id="rent-due-0a1b2c3d",
        kind="thread",
        category="clean",
        created_at="2024-01-01T00:00:00Z",
        provenance=Provenance(
            source_sha256="0" * 64, source_name="t.json", importer="mattermost", imported_at=""
        ),
    )
    assert thread_string(ThreadContent(export=export), fixture) == (
        "Thread Export: Ops > Leases\n"
        "Posts: 2\n\n"
        "[ROOT] Dana W (@dana) - 2024-01-01 10:00:00\n"
        "  Rent due?\n\n"
        "[REPLY] sam (@sam) - 2024-01-01 10:01:00\n"
        "    - lease.pdf (application/pdf)\n"
        "    - File ID: f2 (info not available)\n\n"
    )


def test_harness_results_run_on_other_content_are_refused(sample_bundle, tmp_path):
    run_cli("export", str(sample_bundle), "--to", "inspect", "--out", str(tmp_path / "x"))
    first = json.loads((tmp_path / "x" / "inspect" / "samples.jsonl").open().readline())
    metadata = first["metadata"]

    def gate(digest: str):
        sample = {"id": first["id"], "epoch": 1, "metadata": {**metadata, "fixture_sha256": digest}}
        sample["output"] = {"completion": first["target"]}
        log = tmp_path / "log.json"
        log.write_text(json.dumps({"version": 2, "eval": {}, "plan": {}, "samples": [sample]}))
        return run_cli("gate", "--bundle", sample_bundle, "--predictions", log, "--out", tmp_path)

    assert gate(metadata["fixture_sha256"]).exit_code == 1  # the others have no prediction
    stale = gate("sha256:" + "0" * 64)
    assert stale.exit_code == 2 and "stale export" in stale.stderr
