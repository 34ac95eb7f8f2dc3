"""One bundle fixture as every harness export needs it: input, target and a traceable metadata.

The metadata names the exact fixture content (its fixtures.jsonl line's sha256, written
`sha256:<hex>` because promptfoo redacts a bare 64-character hex string) and the bundle
version, the category, adversarial flag, mutations and parent, and for every field its
type, accepted answers and whether it is expected absent or unanswerable, so that a result
can be scored by type and traced back (curator.harness.verdicts reads it back).

A fixture with named tasks is one sample per task, its id `fixture/task` and its metadata
naming the `task`; its fields, rubrics and reference are that task's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from curator.harness.render import chat_messages, input_text
from curator.model import BundleEntry, Content, Fixture, LabelRevision, task_label

HASH_PREFIX = "sha256:"


@dataclass(frozen=True)
class HarnessSample:
    id: str
    input: str  # never empty: document pages, or the thread printed as Mattermost does
    messages: list[dict[str, str]] | None  # a conversation's messages, else None
    target: str  # the reference answer; "" only when the fixture has no ground truth
    contexts: list[str]  # the texts the answer is grounded in: pages, or posts
    metadata: dict[str, Any]
    content: dict[str, Any]  # the structured input (pages, or the Mattermost export) as JSON

    @property
    def fields(self) -> dict[str, dict[str, Any]]:
        return self.metadata["fields"]

    @property
    def rubrics(self) -> list[dict[str, Any]]:
        return self.metadata["rubrics"]


def make_sample(
    fixture: Fixture,
    content: Content,
    labels: LabelRevision | None,
    entry: BundleEntry,
    bundle_version: str,
    task: str | None = None,
) -> HarnessSample:
    """The sample of one fixture, or of one of its named tasks (`labels` then that task's
    truth, LabelRevision.for_task)."""
    target, from_rubrics = reference_answer(labels)
    lineage = fixture.lineage
    metadata: dict[str, Any] = {
        "fixture_id": fixture.id,
        **({} if task is None else {"task": task}),
        "fixture_sha256": HASH_PREFIX + entry.line_sha256,
        "bundle_version": bundle_version,
        "kind": str(fixture.kind),
        "doc_type": fixture.doc_type,
        "category": fixture.category,
        "adversarial": fixture.adversarial,
        "mutations": [step.name for step in lineage.mutations] if lineage else [],
        "parent": lineage.parent if lineage else None,
        "label_rev": labels.rev if labels else None,
        "fields": field_specs(labels),
        "rubrics": [
            {"text": r.text, "evidence_posts": list(r.evidence_posts)}
            for r in (labels.rubrics if labels else [])
        ],
        "reference": labels.reference if labels else None,
        "reference_from_rubrics": from_rubrics,
    }
    if labels is not None and labels.locale:  # left out for en_US: exports keep their bytes
        metadata["locale"] = labels.locale
    return HarnessSample(
        id=task_label(fixture.id, task),
        input=input_text(content, fixture),
        messages=chat_messages(content),
        target=target,
        contexts=[text for _, text in content.texts()],
        metadata=metadata,
        content=content.model_dump(mode="json"),
    )


def field_specs(labels: LabelRevision | None) -> dict[str, dict[str, Any]]:
    """name -> what scoring needs of the field, in the labels' order."""
    if labels is None:
        return {}
    return {
        name: {
            "type": str(label.type),
            "value": label.value,
            "variants": list(label.variants),
            "expected_absent": label.expected_absent,
            "unanswerable": label.unanswerable,
            "no_evidence": label.no_evidence,
        }
        for name, label in labels.fields.items()
    }


def reference_answer(labels: LabelRevision | None) -> tuple[str, bool]:
    """(the answer a right system gives, whether it was made from the rubric statements).

    Fields: a JSON object of the answerable fields' values (null where a field is expected
    absent). A thread: its reviewed reference answer, else its rubric statements one a line.
    """
    if labels is None:
        return "", False
    if labels.fields:
        answer = {
            name: label.value for name, label in labels.fields.items() if not label.unanswerable
        }
        return json.dumps(answer, ensure_ascii=False), False
    if labels.reference:
        return labels.reference, False
    statements = [rubric.text for rubric in labels.rubrics]
    return "\n".join(statements), bool(statements)
