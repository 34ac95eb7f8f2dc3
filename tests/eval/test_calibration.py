"""Judge calibration on known-bad answers curator makes from the fixtures themselves: a
lenient judge is caught on a bundle nobody wrote known-bad answers for, an honest one is
trusted, a bundle without enough known answers is refused, and the answers are seeded."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from curator.bundle import load
from curator.bundle.manifest import read_manifest
from curator.judge.calibration import find, record_path, wilson
from curator.judge.known_answers import field_question, known_answers
from curator.judge.rules import PROMPT_VERSION as RULES_VERSION
from curator.model import CalibrationRecord, Rubric
from curator.normalise import matches_any
from tests.conftest import run_cli

PROMOTED = "adversarial/hallucination-thread-17daac55"  # the only hand-written known-bad answer
CONTRADICTED = "residential-lease-agreement-contradict-6f1af05b"
_RATE = r"\d+/\d+ = \d\.\d{3} \(95% CI \d\.\d{3}-\d\.\d{3}\)"


@pytest.fixture
def unwritten_bundle(own_bundle) -> Path:
    """The sample store's bundle without its promoted failure: no hand-written known-bad."""
    shutil.rmtree(own_bundle.store.root / PROMOTED)
    bundle = own_bundle()
    assert not any(item.fixture.known_bad for item in load(bundle))
    return bundle


def calibrate(bundle: Path, *args: str):
    return run_cli("judge", "calibrate", str(bundle), *args)


def test_a_lenient_judge_fails_and_an_honest_one_passes_without_hand_written_answers(
    unwritten_bundle, eval_env, judge_server, tmp_path, monkeypatch
):
    eval_env(judge_server("lenient"))
    lenient = calibrate(unwritten_bundle, "--judge", "openai")
    assert lenient.exit_code == 1, lenient.stdout + lenient.stderr
    assert re.search(rf"^  rubric: false-pass {_RATE}, false-fail {_RATE}$", lenient.stdout, re.M)
    assert re.search(rf"REFUSED: .*rubric false-pass {_RATE}: upper bound > 0\.1", lenient.stdout)
    record = CalibrationRecord.model_validate_json(
        Path(lenient.stdout.rsplit("wrote ", 1)[1].strip()).read_bytes()
    )
    rubric = next(rates for rates in record.by_kind if rates.kind == "rubric")
    assert rubric.false_pass.rate is not None and rubric.false_pass.rate > 0.5
    assert rubric.false_pass.low is not None and rubric.false_pass.low > 0.1
    made = {case.answer for case in record.results}
    assert {"evidence-removed", "contradicted", "other-reference", "empty", "off-topic"} <= made
    assert {"true-value", "neighbour-value", "shifted-date", "parent-value"} <= made
    assert "known-bad" not in made
    assert all(case.text is not None for case in record.results)

    monkeypatch.setenv("CURATOR_JUDGE_DIR", str(tmp_path / "reader-judge"))  # no verdict replayed
    eval_env(judge_server("reader"))
    reader = calibrate(unwritten_bundle, "--judge", "openai")
    assert reader.exit_code == 0, reader.stdout
    assert re.search(
        r"^  rubric: false-pass 0/\d+ = 0\.000 \(95% CI 0\.000-0\.0\d\d\)", reader.stdout, re.M
    )
    assert "meets the judge floors" in reader.stdout
    rules = calibrate(unwritten_bundle, "--judge", "rules")
    assert rules.exit_code == 0 and "accuracy 1.000, false-pass rate 0.000" in rules.stdout


def test_a_bundle_short_of_known_answers_is_refused_before_any_judge_call(
    sample_bundle, eval_env, judge_server, tmp_path
):
    server = judge_server("reader")
    eval_env(server)
    run = calibrate(sample_bundle, "--judge", "openai", "--min-positives", "9")
    assert run.exit_code == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1
    assert "rubric 46 known-bad and 8 must-pass answers" in run.stderr
    assert "at least 3 known-bad and 9 must-pass per rubric kind" in run.stderr
    assert server.calls == 0 and not (tmp_path / "judge").exists()


def test_the_same_seed_gives_the_same_record(sample_bundle, eval_env):
    first = calibrate(sample_bundle, "--judge", "rules", "--json")
    path = Path(json.loads(first.stdout)["record"])
    written = path.read_bytes()
    again = calibrate(sample_bundle, "--judge", "rules", "--json")
    assert first.exit_code == again.exit_code == 0
    assert first.stdout == again.stdout and path.read_bytes() == written
    other = json.loads(calibrate(sample_bundle, "--judge", "rules", "--json", "--seed", "7").stdout)
    assert other["results"] != json.loads(first.stdout)["results"] and other["seed"] == 7


def answers_of(bundle: Path, seed: int = 0, items=None):
    sha = {entry.id: entry.line_sha256 for entry in read_manifest(bundle).fixtures}
    return known_answers(items if items is not None else load(bundle), sha, seed)


def test_known_bad_answers_are_made_from_the_fixture_and_never_right(sample_bundle):
    answers = answers_of(sample_bundle)
    assert answers == answers_of(sample_bundle) and answers != answers_of(sample_bundle, seed=3)
    by = {}
    for answer in answers:
        by.setdefault((answer.fixture_id, answer.made), []).append(answer)

    rent = [
        a for a in by["can-someone-check-the-lease-787a1da6", "contradicted"] if "$950" in a.rubric
    ]
    assert "$950.00 -> $1,900.00 of the same thread" in [a.detail for a in rent]  # the deposit
    assert all("$950.00" not in a.text for a in rent)
    (removed,) = by["chat-log-channel-b0073482", "evidence-removed"]
    assert removed.text == "The cleaning invoice came in."
    (empty,) = {a.text for a in by["chat-log-channel-b0073482", "empty"]}
    assert empty == ""

    labels = next(item.labels for item in load(sample_bundle) if item.id == CONTRADICTED)
    (parent,) = by[CONTRADICTED, "parent-value"]
    assert parent.field == "lease_end_date" and parent.text == "lease_end_date: November 21, 2025"
    assert parent.rubric == field_question("lease_end_date", "May 20, 2026")
    landlord = next(a for a in by[CONTRADICTED, "neighbour-value"] if a.field == "landlord")
    assert landlord.text == f"landlord: {labels.fields['tenant'].value}"  # the other person

    families = {
        item.id: (item.fixture.lineage.parent if item.fixture.lineage else item.id)
        for item in load(sample_bundle)
    }
    for answer in answers:
        if answer.made == "other-reference":
            other = answer.detail.removeprefix("the reference of ")
            assert families[other] != families[answer.fixture_id]
        if answer.kind == "field" and not answer.expected_pass:
            label = next(
                item.labels for item in load(sample_bundle) if item.id == answer.fixture_id
            ).fields[answer.field]
            value = answer.text.removeprefix(f"{answer.field}: ")
            assert not matches_any(value, [label.value, *label.variants], label.type)


def test_evidence_posts_without_a_reference_give_the_rest_of_the_thread(sample_bundle):
    item = next(item for item in load(sample_bundle) if item.id == "chat-log-channel-b0073482")
    posts = item.content.export.posts
    evidence = next(post.id for post in posts.values() if "$1,840.00" in post.message)
    rubric = Rubric(text="The answer says who approves the invoice.", evidence_posts=[evidence])
    labels = item.labels.model_copy(update={"rubrics": [rubric], "reference": None})
    made = answers_of(sample_bundle, items=[replace(item, labels=labels)])
    removed = [a for a in made if a.made == "evidence-removed"]
    assert len(removed) == 1 and "$1,840.00" not in removed[0].text
    assert "Thanks, I will approve it today." in removed[0].text
    assert not any(a.expected_pass for a in made)  # no reference: nothing must pass


def test_a_record_moved_under_another_bundle_is_no_calibration_of_it(sample_bundle, eval_env):
    run = calibrate(sample_bundle, "--judge", "rules", "--json")
    written = Path(json.loads(run.stdout)["record"])
    folder, digest = written.parents[2], read_manifest(sample_bundle).content_sha256
    moved = record_path(folder, "f" * 64, "rules", RULES_VERSION)
    moved.parent.mkdir(parents=True)
    shutil.copyfile(written, moved)
    assert find(folder, digest, "rules", RULES_VERSION) is not None
    assert find(folder, "f" * 64, "rules", RULES_VERSION) is None


def test_rubrics_nobody_reviewed_are_refused_though_fields_could_calibrate(
    own_bundle, eval_env, monkeypatch
):
    store = own_bundle.store.root
    shutil.rmtree(store / PROMOTED)
    monkeypatch.setenv("CURATOR_STORE", str(store))
    for fixture in sorted(store.glob("*/*/fixture.json")):
        if json.loads(fixture.read_text())["kind"] == "thread":
            unset = run_cli("label", "set", fixture.parent.name, "--reference", "")
            assert unset.exit_code == 0, unset.stderr
    run = calibrate(own_bundle("2.0.0"), "--judge", "rules")
    assert run.exit_code == 2, run.stdout + run.stderr
    assert "gives rubric 0 known-bad and 0 must-pass answers;" in run.stderr  # fields suffice


def test_the_floor_is_the_one_in_floors_toml(sample_bundle, eval_env, tmp_path):
    strict = tmp_path / "floors.toml"
    strict.write_text("[floors]\nmax_judge_false_pass = 0.05\n")
    run = calibrate(sample_bundle, "--judge", "rules", "--floors", str(strict))
    # No false pass in 46, yet 46 known-bad answers cannot show a rate under 5 %.
    assert run.exit_code == 1
    assert "REFUSED: rubric false-pass 0/46 = 0.000 (95% CI 0.000-0.077): upper bound > 0.05" in (
        run.stdout
    )
    assert "field false-pass" not in run.stdout.split("REFUSED")[1]  # 0/176: at most 0.021


def test_a_mention_or_a_name_is_swapped_for_another_participant(sample_bundle):
    item = next(item for item in load(sample_bundle) if item.id in PROMOTED)
    reference = "@breanna.buckley sends the letter; Brandi Cannon gives the rent of $2,050.00."
    rubrics = [
        Rubric(text="Says that @breanna.buckley sends the letter."),
        Rubric(text="Says that Brandi Cannon gave the figure."),
    ]
    labels = item.labels.model_copy(update={"rubrics": rubrics, "reference": reference})
    made = answers_of(sample_bundle, items=[replace(item, labels=labels)])
    swapped = {}
    for answer in made:
        if answer.made == "contradicted":
            swapped.setdefault(answer.rubric, []).append(answer.text)
    (mention,) = swapped[rubrics[0].text]
    assert mention.split(" ")[0] in ("@brandi.cannon", "@gavin.doyle")
    (name,) = swapped[rubrics[1].text]  # the whole name, not its first name alone
    assert re.search(r"; (Breanna Buckley|Gavin Doyle) gives", name), name


def test_wilson_interval():
    assert wilson(0, 35)[1] == pytest.approx(0.0989, abs=1e-4)  # 0 of 35: still up to 10 %
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
