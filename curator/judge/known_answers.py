"""Answers whose verdict is known, made from a bundle's own fixtures: what calibration judges.

A new golden set rarely has production failures written down, so a judge that passes
everything would never be caught by hand-written known-bad answers alone. These are derived
instead, each recorded with how it was made:

rubric kind (a rubric of a fixture with a reviewed reference answer or evidence posts)
    reference         the reviewed reference: must pass
    known-bad         a production failure the fixture carries (hand-written): must fail
    evidence-removed  the reference without the sentences that carry the rubric's evidence
                      (what the rubric declares, or the evidence posts' values and @mentions);
                      with evidence posts and no reference, the thread's other posts
    contradicted      a fact of the reference the rubric asks for (a date, an amount, an
                      @mention, a participant's name) swapped for another of the same thread,
                      or moved to a plausible different value of its type
    other-reference   another fixture's reference (never one of the same lineage)
    empty, off-topic  no answer, and an answer about something else

field kind (every labelled field with a value): asked as "the answer gives FIELD as VALUE"
    true-value        the true value: must pass
    parent-value      a contradicted field's value before the contradiction (its parent's)
    neighbour-value   another field's value (one of the same type first)
    shifted-date      a date field's value moved by some months
    known-bad         a field value of a production failure

A derived negative is kept only when it visibly lacks something the rubric declares (see
curator.judge.rules) or the rubric declares nothing, and never when it equals an accepted
value: a "known-bad" answer that might be right is no calibration. The same bundle and seed
give the same answers.

A fixture with named tasks gives each task's rubrics the answers of that task (its own
reference, and what is derived from it), each recorded with its `task`; its fields are the
fixture's, asked once.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from curator.bundle import BundledFixture
from curator.errors import CuratorError
from curator.judge.context import fixture_context
from curator.judge.rules import Check, checks
from curator.model import (
    CalibrationAnswer,
    FieldLabel,
    FieldType,
    LabelRevision,
    ThreadContent,
    task_label,
    task_truths,
)
from curator.normalise import find_value, matches_any, typed_values

Kind = Literal["rubric", "field"]
POSITIVES: tuple[CalibrationAnswer, ...] = ("reference", "true-value")
OTHER_REFERENCES = 2  # another fixture's reference: this many, each a separate negative
# (drawn from a few candidates, not a shuffle of them all: a big bundle stays linear)
OFF_TOPIC = (
    "Mix two cups of flour with one cup of water, knead the dough and bake it until golden.",
    "The forecast says tomorrow will be mild, with light winds in the afternoon.",
    "To change the display language, open the settings page and pick one from the list.",
    "The museum opens at ten and the guided tour of the west wing takes about an hour.",
)
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")
_HANDLE = re.compile(r"^[A-Za-z0-9](?:[\w.-]*[A-Za-z0-9_])?$")


@dataclass(frozen=True)
class KnownAnswer:
    """One answer to judge against one rubric, and whether a right judge passes it."""

    fixture_id: str
    fixture_sha256: str
    kind: Kind
    rubric: str  # the rubric text; for a field, the question curator asks about it
    text: str  # the answer
    made: CalibrationAnswer  # how: one of the names in this module's docstring
    detail: str = ""  # what exactly was done ("$950.00 -> $1,900.00 of the same thread")
    field: str | None = None
    task: str | None = None  # the named task whose rubric it is

    @property
    def expected_pass(self) -> bool:
        return self.made in POSITIVES


def known_answers(
    items: Iterable[BundledFixture], line_sha256: dict[str, str], seed: int = 0
) -> list[KnownAnswer]:
    """Every known answer of the bundle's fixtures, in fixture then rubric order."""
    fixtures = [item for item in items if item.labels is not None]
    references = [
        (_family(item), task_label(item.id, task), truth.reference)
        for item in fixtures
        for task, truth in task_truths(item.labels)
        if truth is not None and truth.reference
    ]
    answers: list[KnownAnswer] = []
    for item in fixtures:
        labels = item.labels
        assert labels is not None
        sha = line_sha256[item.id]
        others = [(i, text) for family, i, text in references if family != _family(item)]
        for task, truth in task_truths(labels):
            assert truth is not None
            for rubric in truth.rubrics:
                made = _rubric_answers(
                    item, truth, rubric.text, rubric.evidence_posts, others, seed, task
                )
                answers += [
                    KnownAnswer(item.id, sha, "rubric", rubric.text, text, how, detail, task=task)
                    for how, text, detail in made
                ]
        for name, label in labels.fields.items():
            if label.value is None or label.unanswerable:
                continue
            question = field_question(name, label.value)
            answers += [
                KnownAnswer(item.id, sha, "field", question, text, how, detail, field=name)
                for how, text, detail in _field_answers(item, labels, name, label, seed)
            ]
    return answers


def field_question(name: str, value: str) -> str:
    """The rubric a field is judged on: its value quoted, so the rules judge can check it."""
    quoted = f"“{value}”" if '"' in value else f'"{value}"'
    return f"The answer gives the {name} as {quoted}."


Made = tuple[CalibrationAnswer, str, str]  # (how, answer text, detail)


def _rubric_answers(
    item: BundledFixture,
    labels: LabelRevision,
    rubric: str,
    evidence_posts: list[str],
    others: list[tuple[str, str]],
    seed: int,
    task: str | None = None,
) -> list[Made]:
    made: list[Made] = [
        ("known-bad", bad.text, bad.failure_mode) for bad in item.fixture.known_bad if bad.text
    ]
    reference = labels.reference
    if reference:
        made.append(("reference", reference, ""))
    if not reference and not evidence_posts:
        return made
    declared = checks(rubric)
    rng = _rng(seed, item.id, rubric) if task is None else _rng(seed, item.id, task, rubric)
    derived = _without_evidence(item, reference, declared, evidence_posts)
    if reference:
        derived += _contradicted(item, labels, reference, rubric, rng)
    derived += [
        ("other-reference", text, f"the reference of {other}")
        for other, text in rng.sample(others, min(len(others), 4 * OTHER_REFERENCES))
    ]
    derived += [("empty", "", ""), ("off-topic", rng.choice(OFF_TOPIC), "")]
    seen, other_references = {reference or ""}, 0
    for how, text, detail in derived:
        if how != "empty" and (text in seen or not _lacks(text, declared)):
            continue
        if how == "other-reference":
            if other_references == OTHER_REFERENCES:
                continue
            other_references += 1
        seen.add(text)
        made.append((how, text, detail))
    return made


def _without_evidence(
    item: BundledFixture, reference: str | None, declared: list[Check], evidence_posts: list[str]
) -> list[Made]:
    markers = list(declared)
    posts = item.content.export.posts if isinstance(item.content, ThreadContent) else {}
    for post_id in evidence_posts:
        if post_id in posts:
            markers += checks(_values_and_mentions(posts[post_id].message))
    if not markers:
        return []
    if reference:
        sentences = [s for s in _SENTENCE_END.split(reference.strip()) if s]
        kept = [s for s in sentences if not _carries(s, markers)]
        if not kept or len(kept) == len(sentences):
            return []
        text = " ".join(kept)
        return [("evidence-removed", re.sub(r"[;,]$", ".", text), "the evidence sentences")]
    if not isinstance(item.content, ThreadContent):
        return []
    rest = [
        post.message
        for post in item.content.export.ordered_posts()
        if post.id not in evidence_posts
        and not post.type.startswith("system_")
        and post.message
        and not _carries(post.message, markers)
    ]
    if not rest:
        return []
    return [("evidence-removed", "\n".join(rest), "the thread's posts other than the evidence")]


def _contradicted(
    item: BundledFixture, labels: LabelRevision, reference: str, rubric: str, rng: random.Random
) -> list[Made]:
    """Each fact the rubric asks for that the reference states, swapped for a wrong one."""
    from curator.mutate.contradict import new_value

    context = fixture_context(item.content)
    made: list[Made] = []
    for kind, value in typed_values(rubric):
        spans = find_value(reference, value, kind)
        if not spans:
            continue
        written = reference[spans[0][0] : spans[0][1]]
        thread = _unique(
            v for k, v in typed_values(context) if k is kind and not find_value(v, written, kind)
        )
        if thread:
            other = rng.choice(thread)
            made.append(_swap(reference, spans, other, f"{written} -> {other} of the same thread"))
        try:
            moved = new_value(written, kind, rng)
        except CuratorError:
            continue
        made.append(_swap(reference, spans, moved, f"{written} -> {moved}"))
    swapped: list[str] = []
    for old, others in sorted(_people(item, labels).items(), key=lambda p: -len(p[0])):
        if any(old.casefold() in done.casefold() for done in swapped):
            continue  # "Brandi" of "Brandi Cannon", swapped whole already
        whole = re.compile(rf"(?<![\w@]){re.escape(old)}(?![\w-])", re.IGNORECASE)
        spans = [match.span() for match in whole.finditer(reference)]
        if whole.search(rubric) and spans and others:
            other = rng.choice(others)
            swapped.append(old)
            made.append(_swap(reference, spans, other, f"{old} -> {other} of the same thread"))
    return made


def _people(item: BundledFixture, labels: LabelRevision) -> dict[str, list[str]]:
    """Each participant's @mention and name -> the others' of the same form."""
    if isinstance(item.content, ThreadContent):
        users = list(item.content.export.users.values())
        forms = [
            [f"@{u.username}" for u in users if _HANDLE.match(u.username)],
            [f"{u.first_name} {u.last_name}" for u in users if u.first_name and u.last_name],
            [u.first_name for u in users if u.first_name],
        ]
    else:
        forms = [
            [
                label.value
                for label in labels.fields.values()
                if label.type is FieldType.person and label.value
            ]
        ]
    people: dict[str, list[str]] = {}
    for form in forms:
        names = _unique(form)
        for name in names:
            people.setdefault(name, [n for n in names if n.casefold() != name.casefold()])
    return people


def _field_answers(
    item: BundledFixture, labels: LabelRevision, name: str, label: FieldLabel, seed: int
) -> list[Made]:
    from curator.mutate.contradict import new_value

    value = label.value
    assert value is not None
    accepted = [value, *label.variants]
    rng = _rng(seed, item.id, name)
    wrong: list[Made] = [
        ("known-bad", str(bad.fields[name]), bad.failure_mode)
        for bad in item.fixture.known_bad
        if bad.fields.get(name) not in (None, "")
    ]
    for step in item.fixture.lineage.mutations if item.fixture.lineage else []:
        if step.name == "contradict" and step.measured.get("field") == name:
            wrong.append(("parent-value", str(step.measured["old_value"]), "before contradict"))
    neighbours = [
        (other, o.value)
        for other, o in labels.fields.items()
        if other != name and o.value is not None
    ]
    same_type = [(o, v) for o, v in neighbours if labels.fields[o].type is label.type]
    if same_type or neighbours:
        other, other_value = rng.choice(same_type or neighbours)
        wrong.append(("neighbour-value", other_value, f"the value of {other}"))
    if label.type is FieldType.date:
        try:
            wrong.append(("shifted-date", new_value(value, FieldType.date, rng), ""))
        except CuratorError:
            pass
    made: list[Made] = [("true-value", f"{name}: {value}", "")]
    seen = set()
    for how, text, detail in wrong:
        if matches_any(text, accepted, label.type) or find_value(text, value, label.type):
            continue
        if text not in seen:
            seen.add(text)
            made.append((how, f"{name}: {text}", detail))
    return made


def _lacks(text: str, declared: list[Check]) -> bool:
    """A wrong answer for sure: it misses something the rubric declares (or it declares none)."""
    try:
        return not declared or any(check.find(text) is None for check in declared)
    except re.error:
        return False


def _carries(sentence: str, markers: list[Check]) -> bool:
    try:
        return any(marker.find(sentence) is not None for marker in markers)
    except re.error:
        return False


def _values_and_mentions(message: str) -> str:
    """A post's dates, amounts and @mentions, written so `checks` declares each one."""
    values = [value for _, value in typed_values(message)]
    mentions = re.findall(r"(?<![\w@])@[A-Za-z0-9][\w.-]*[A-Za-z0-9_]", message)
    return " ".join([*values, *mentions])


def _swap(text: str, spans: list[tuple[int, int]], new: str, detail: str) -> Made:
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return ("contradicted", text, detail)


def _family(item: BundledFixture) -> str:
    return item.fixture.lineage.parent if item.fixture.lineage else item.id


def _rng(seed: int, *parts: str) -> random.Random:
    return random.Random("\0".join([str(seed), *parts]))


def _unique(values: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(values))
