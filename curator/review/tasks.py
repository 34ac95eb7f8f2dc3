"""Fixtures as Label Studio tasks, and annotations back as what a labeller said.

A task's data carries the fixture id, the label revision it shows and a digest of both, so
push can tell an unchanged task from one to update without any local state. Its
pre-annotation (prediction) is the fixture's current labels in the config's terms.
"""

from __future__ import annotations

import hashlib
import html
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from curator.errors import CuratorError
from curator.model import (
    Content,
    ConversationContent,
    DocumentContent,
    Fixture,
    Kind,
    LabelRevision,
    Rubric,
    ThreadContent,
)
from curator.review import configs
from curator.review.textmap import JoinedDocument, join_pages

if TYPE_CHECKING:
    from curator.anonymise import Suspect

MODEL_VERSION = "curator"
_POST_STYLE = "margin: 0.4em 0; padding: 0.3em 0.6em; border-left: 3px solid #99a"


def project_key(fixture: Fixture) -> str:
    """Which project reviews a fixture: one per kind and doc type."""
    if fixture.kind is Kind.thread:
        return "thread"
    if fixture.kind is Kind.conversation:
        # its fields are its doc type's: one project per doc type, one for none
        return f"conversation/{fixture.doc_type}" if fixture.doc_type else "conversation"
    if not fixture.doc_type:
        raise CuratorError(f"{fixture.id}: a document without a doc type has no fields to review")
    return f"document/{fixture.doc_type}"


def build_task(
    fixture: Fixture,
    content: Content,
    labels: LabelRevision | None,
    suspects: Sequence[Suspect] = (),
) -> dict[str, Any]:
    """{"data": ..., "predictions": [...]} for the import API; `suspects`, the fixture's words
    the anonymiser kept but doubts, as choices shown masked."""
    rev = labels.rev if labels else 0
    # a document is reviewed as one text with field spans, a thread as posts with rubrics, a
    # conversation as turns with rubrics, its reference answer and its expected fields
    if isinstance(content, DocumentContent):
        joined = join_pages(content)
        data: dict[str, Any] = {
            "text": joined.text,
            "pages": [[p.number, p.start, p.end] for p in joined.pages],
        }
        result = _document_prediction(joined, labels)
    elif isinstance(content, ConversationContent):
        data = {configs.MESSAGES: turns(content)}
        result = _rubric_slots(data, labels, posts=[])
        result += _conversation_prediction(labels)
    else:
        data = {"dialogue": dialogue_html(content)}
        result = _rubric_slots(data, labels, posts=post_options(content))
    data[configs.SUSPECTS] = suspect_options(suspects, _shown_text(content))
    data[configs.SUSPECT_KINDS] = other_kind_options(suspects, _shown_text(content))
    data.update(fixture_id=fixture.id, label_rev=rev, title=f"{fixture.id} (label rev {rev})")
    # One model version for every prediction: Label Studio pre-fills a task only with the
    # predictions of the project's model version (the label rev is in the task data).
    prediction = {"model_version": MODEL_VERSION, "score": 1.0, "result": result}
    data["curator_digest"] = digest(data, prediction)
    return {"data": data, "predictions": [prediction]}


def _rubric_slots(
    data: dict[str, Any], labels: LabelRevision | None, posts: list[dict[str, str]]
) -> list[dict[str, Any]]:
    """Each rubric in its slot of `data`, and its pre-annotation: pass, and its evidence posts
    (a thread's; a conversation has no posts to tick)."""
    result = []
    for slot, (task, rubric) in enumerate(rubrics_by_task(labels), start=1):
        data[configs.rubric_object(slot)] = configs.shown_rubric(rubric.text, task)
        if task is not None:
            data[configs.task_key(slot)] = task
            data[configs.statement_key(slot)] = rubric.text
        data[f"verdicts_{slot}"] = [{"value": configs.PASS}, {"value": configs.FAIL}]
        if posts:
            data[f"posts_{slot}"] = posts
        result.append(
            _choices(configs.verdict_control(slot), configs.rubric_object(slot), [configs.PASS])
        )
        if rubric.evidence_posts and posts:
            result.append(
                _choices(
                    configs.posts_control(slot),
                    configs.rubric_object(slot),
                    list(rubric.evidence_posts),
                )
            )
    return result


def turns(content: ConversationContent) -> list[dict[str, str]]:
    """The messages as the reviewer reads them: the role as the speaker (structure, never
    anonymised), the content, and a bare tool call as what it calls."""
    shown = []
    for message in content.messages:
        lines = [message.content] if message.content is not None else []
        lines += [
            f"called {call.function.get('name', '')}({call.function.get('arguments', '')})"
            for call in message.tool_calls or ()
        ]
        shown.append({"role": message.role, "text": "\n".join(lines)})
    return shown


def _conversation_prediction(labels: LabelRevision | None) -> list[dict[str, Any]]:
    """The reference answer and each field's expected value and other accepted answers."""
    if labels is None:
        return []
    result = []
    if labels.reference is not None:
        result.append(_text_box(configs.REFERENCE, [labels.reference]))
    for name, label in labels.fields.items():
        if label.value is not None:
            result.append(_text_box(configs.value_control(name), [label.value]))
        if label.variants:
            result.append(_text_box(configs.variants_control(name), list(label.variants)))
    return result


def _text_box(control: str, lines: list[str]) -> dict[str, Any]:
    return {
        "id": control,
        "from_name": control,
        "to_name": configs.DIALOGUE,
        "type": "textarea",
        "value": {"text": lines},
    }


def rubrics_by_task(labels: LabelRevision | None) -> list[tuple[str | None, Rubric]]:
    """Every rubric with its task (None: the default task), grouped by task in label order:
    the order a thread's task shows them in, one slot each."""
    if labels is None:
        return []
    return [(None, r) for r in labels.rubrics] + [
        (name, r) for name, task in labels.tasks.items() for r in task.rubrics
    ]


# how a kind is named to a reviewer
KIND_SHOWN = {
    "person": "a person's name",
    "first_name": "a first name",
    "last_name": "a last name",
    "organisation": "an organisation",
    "address": "an address",
    "username": "a username",
    "phone": "a phone number",
    "credit_card": "a card number",
    "ssn": "a social security number",
}
_AROUND = 24  # characters of the task's text shown each side of a suspect


def suspect_options(suspects: Sequence[Suspect], shown: str) -> list[dict[str, str]]:
    """Each suspect as a choice: its key as the value, shown with the kind it is suggested
    as, in its context, its reason and where it is."""
    return [
        {
            "value": s.key,
            "html": f"{_suspect_html(s, shown)} — <b>{KIND_SHOWN[s.kind]}</b>?"
            f" <i>({html.escape(s.reason)}; {html.escape(s.location)})</i>",
        }
        for s in suspects
    ]


def other_kind_options(suspects: Sequence[Suspect], shown: str) -> list[dict[str, str]]:
    """Each suspect once per other kind it may be: "<key>:<kind>" as the value."""
    return [
        {"value": f"{s.key}:{kind}", "html": f"{_suspect_html(s, shown)} is {KIND_SHOWN[kind]}"}
        for s in suspects
        for kind in s.kinds[1:]
    ]


def _suspect_html(suspect: Suspect, shown: str) -> str:
    """The suspect as the reviewer reads it. Where the task shows it anyway (in the text or
    the posts), as written in a few characters of that text: masking would hide from the
    reviewer only what is on the screen beside, and a masked number cannot be judged.
    Anywhere else (a source file name, a user record), masked as `curator audit --suspects`
    prints it: the task must not carry what it does not show."""
    at = shown.find(suspect.value) if suspect.value else -1
    if at < 0:
        return html.escape(f"{suspect.masked} in “{suspect.context}”")
    before = " ".join(shown[max(0, at - _AROUND) : at].split())
    after = " ".join(shown[at + len(suspect.value) : at + len(suspect.value) + _AROUND].split())
    return (
        f"<b>{html.escape(suspect.value)}</b> in “{html.escape(before)} "
        f"<u>{html.escape(suspect.value)}</u> {html.escape(after)}”"
    )


def _shown_text(content: Content) -> str:
    """The text a task shows the reviewer, as written."""
    if isinstance(content, DocumentContent):
        return "\n".join(page.text for page in content.pages)
    if isinstance(content, ThreadContent):
        return "\n".join(post.message for post in content.export.ordered_posts())
    return "\n".join(turn["text"] for turn in turns(content))


def pad_rubric_slots(data: dict[str, Any], slots: int, *, posts: bool = True) -> None:
    """Every slot a config shows needs its data: an unused one is empty, so shows nothing
    (`posts`: a thread's slots also list the posts)."""
    for slot in range(1, slots + 1):
        data.setdefault(configs.rubric_object(slot), "")
        data.setdefault(f"verdicts_{slot}", [])
        if posts:
            data.setdefault(f"posts_{slot}", [])


def dialogue_html(content: ThreadContent) -> str:
    """The posts as the labeller reads them: number, author, real time, and the message
    (escaped)."""
    export = content.export
    numbers = {post.id: number for number, post in enumerate(export.ordered_posts(), start=1)}
    blocks = []
    for post in export.ordered_posts():
        reply = f" (reply to #{numbers[post.root_id]})" if post.root_id in numbers else ""
        message = html.escape(post.message).replace("\n", "<br/>")
        blocks.append(
            f'<div style="{_POST_STYLE}">'
            f"<b>#{numbers[post.id]} {html.escape(export.author(post))}</b> "
            f'<span style="color: #667">{post.written_at()}{reply}</span><br/>{message}</div>'
        )
    return "".join(blocks)


def post_options(content: ThreadContent) -> list[dict[str, str]]:
    """The posts as choices of evidence: the value is the post id, the label its number and
    author."""
    export = content.export
    return [
        {"value": post.id, "html": f"#{number} {html.escape(export.author(post))}"}
        for number, post in enumerate(export.ordered_posts(), start=1)
    ]


def digest(data: dict[str, Any], prediction: dict[str, Any]) -> str:
    shown = {k: v for k, v in data.items() if k != "curator_digest"}
    canonical = json.dumps([shown, prediction], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def _document_prediction(
    joined: JoinedDocument, labels: LabelRevision | None
) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = []
    if labels is None:
        return result
    absent = []
    for name, label in labels.fields.items():
        if label.expected_absent:
            absent.append(name)
            continue
        span = label.evidence
        if span is not None and span.page is not None and span.page <= len(joined.pages):
            start, end = joined.span_to_utf16(span.page, span.start, span.end)
            page = joined.pages[span.page - 1]
            text = joined.text[page.start + span.start : page.start + span.end]
            result.append(
                {
                    "id": f"span-{name}",
                    "from_name": configs.SPAN,
                    "to_name": configs.TEXT,
                    "type": "labels",
                    "value": {"start": start, "end": end, "text": text, "labels": [name]},
                }
            )
        result.append(
            {
                "id": f"value-{name}",
                "from_name": configs.value_control(name),
                "to_name": configs.TEXT,
                "type": "textarea",
                "value": {"text": [label.value]},
            }
        )
        if label.variants:
            result.append(
                {
                    "id": f"variants-{name}",
                    "from_name": configs.variants_control(name),
                    "to_name": configs.TEXT,
                    "type": "textarea",
                    "value": {"text": list(label.variants)},
                }
            )
    if absent:
        result.append(
            {
                "id": "absent",
                "from_name": configs.ABSENT,
                "to_name": configs.TEXT,
                "type": "choices",
                "value": {"choices": sorted(absent)},
            }
        )
    return result


def _choices(control: str, to_name: str, choices: list[str]) -> dict[str, Any]:
    return {
        "id": control,
        "from_name": control,
        "to_name": to_name,
        "type": "choices",
        "value": {"choices": choices},
    }


# ---------------------------------------------------------------- reading annotations back


@dataclass
class MarkedSpan:
    start: int  # UTF-16 offsets in the task's joined text, as Label Studio gives them
    end: int
    text: str | None


@dataclass
class DocumentAnswer:
    """What one annotation says about a document's fields."""

    spans: dict[str, list[MarkedSpan]] = field(default_factory=dict)
    values: dict[str, str] = field(default_factory=dict)
    variants: dict[str, list[str]] = field(default_factory=dict)  # other accepted answers per field
    absent: set[str] = field(default_factory=set)


@dataclass
class ThreadAnswer:
    verdicts: dict[int, str] = field(default_factory=dict)  # rubric slot -> pass / fail
    posts: dict[int, list[str]] = field(default_factory=dict)  # rubric slot -> evidence post ids
    new_rubrics: list[str] = field(default_factory=list)


def read_document_answer(result: list[dict[str, Any]]) -> DocumentAnswer:
    answer = DocumentAnswer()
    for region in result:
        name, value = region.get("from_name", ""), region.get("value") or {}
        if name == configs.SPAN:
            for label in value.get("labels") or []:
                answer.spans.setdefault(label, []).append(
                    MarkedSpan(int(value["start"]), int(value["end"]), value.get("text"))
                )
        elif name == configs.ABSENT:
            answer.absent.update(value.get("choices") or [])
        elif name.startswith("value_"):
            text = " ".join(t.strip() for t in value.get("text") or [] if t and t.strip())
            if text:
                answer.values[name.removeprefix("value_")] = text
        elif name.startswith("variants_"):
            lines = [
                line.strip() for t in value.get("text") or [] for line in (t or "").splitlines()
            ]
            answer.variants[name.removeprefix("variants_")] = list(
                dict.fromkeys(line for line in lines if line)
            )
    return answer


def read_thread_answer(result: list[dict[str, Any]]) -> ThreadAnswer:
    answer = ThreadAnswer()
    for region in result:
        name, value = region.get("from_name", ""), region.get("value") or {}
        if name.startswith("verdict_"):
            choices = value.get("choices") or []
            if choices:
                answer.verdicts[int(name.removeprefix("verdict_"))] = choices[0]
        elif name.startswith("posts_"):
            answer.posts[int(name.removeprefix("posts_"))] = list(value.get("choices") or [])
        elif name == configs.NEW_RUBRICS:
            for text in value.get("text") or []:
                answer.new_rubrics.extend(
                    line.strip() for line in text.splitlines() if line.strip()
                )
    return answer


def read_reference(result: list[dict[str, Any]]) -> str | None:
    """The reference answer a conversation's annotation gives (None: it has no such box)."""
    for region in result:
        if region.get("from_name") == configs.REFERENCE:
            return "\n".join(t for t in (region.get("value") or {}).get("text") or [] if t)
    return None
