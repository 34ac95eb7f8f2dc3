"""Label Studio labeling configs and instructions generated from curator's doc types.

Documents: the text with one span label per field, per field a box for its value and a box
for other accepted answers (each beside the field's description from curator.toml), and a
choice to mark fields the document does not contain. Threads: the posts with their author
and time, each rubric beside its pass/fail choice and the posts it is judged on, and a box
for new rubric statements. Conversations: the turns as a dialogue (each message under its
role, which is structure and never anonymised), each rubric beside its pass/fail choice, a
box for new rubric statements, the reference answer in a box to edit, and per field of its
doc type (when it has one) a box for the expected value and one for other accepted
answers. A project with rubrics has rubric slots for its longest task; a slot's choices
are the task's own (dynamic, from its data), so a task shows exactly its own rubrics and
an unused slot shows nothing.

Control names are the contract with pull: `span`, `value_<field>`, `variants_<field>`,
`absent`, `verdict_<n>`, `posts_<n>`, `new_rubrics`, `reference`, `suspect_names`,
`suspect_not_personal`, `suspect_other_kind` (each task's suspects: personal as the kind
suggested, not personal, personal as another kind). A project whose config lost or renamed
one of them (edited in the UI) no longer matches, and push and pull refuse it instead of
guessing; one made before the suspects' controls grows them on the next push.
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Any

from curator.model import DocTypeSpec

SPAN = "span"
TEXT = "text"
ABSENT = "absent"
DIALOGUE = "dialogue"
NEW_RUBRICS = "new_rubrics"
REFERENCE = "reference"  # a conversation's reference answer
MESSAGES = "messages"  # a conversation task's data: its turns, {"role", "text"} each
PASS, FAIL = "pass", "fail"
MIN_RUBRIC_SLOTS = 5
# the fixture's suspects (curator.anonymise.find_suspects): each ticked as personal, of the
# kind suggested or of another, or as not personal
SUSPECT_NAMES = "suspect_names"
SUSPECT_NOT_PERSONAL = "suspect_not_personal"
SUSPECT_OTHER_KIND = "suspect_other_kind"
SUSPECT_CONTROLS = (SUSPECT_NAMES, SUSPECT_NOT_PERSONAL, SUSPECT_OTHER_KIND)
SUSPECTS = "suspects"  # the task data the first two list: each suspect's key
SUSPECT_KINDS = "suspect_kinds"  # ...and the third: "<key>:<kind>" per other kind

DOCUMENT_STEPS = (
    "Select the text that proves a field and pick the field's label.",
    "Check the field's value. If the marked text is not how the value should be written "
    '(OCR noise, "Jan 5th"), write the clean value in its box; otherwise leave the box as it is.',
    'Under "other accepted answers", add each other way of writing the value a reader could '
    "rightly give (a name in capitals, without its middle initial), one per line.",
    'Tick a field under "not in this document" only when the document truly lacks it.',
)
CONVERSATION_STEPS = (
    "Read the conversation: each message shows its role (system, user, assistant, tool).",
    "For each rubric statement, pick pass if a right answer to it must meet it, fail to drop it.",
    "Add missing statements in the box, one per line.",
    "Edit the reference answer: an answer to the last turn that meets every rubric.",
    "Check each expected field's value, and add other accepted answers one per line.",
)
THREAD_STEPS = (
    "Read the posts: each shows its author and when it was written.",
    "For each rubric statement, pick pass if it holds for this thread, fail to drop it.",
    "Tick the posts each statement is judged on (its evidence), so that a shortened thread "
    "keeps or drops the statement by itself.",
    "Add missing statements in the box, one per line.",
)


def value_control(field: str) -> str:
    return f"value_{field}"


def variants_control(field: str) -> str:
    return f"variants_{field}"


def verdict_control(slot: int) -> str:
    return f"verdict_{slot}"


def posts_control(slot: int) -> str:
    return f"posts_{slot}"


def rubric_object(slot: int) -> str:
    return f"rubric_{slot}"


# A thread with named tasks shows each rubric as "task: statement", grouped by task; its
# task's data keeps the task and the bare statement per slot, which pull reads back.
def task_key(slot: int) -> str:
    return f"task_{slot}"


def statement_key(slot: int) -> str:
    return f"statement_{slot}"


def shown_rubric(text: str, task: str | None) -> str:
    return text if task is None else f"{task}: {text}"


def slot_rubric(data: dict[str, Any], slot: int) -> tuple[str, str | None]:
    """(the rubric statement, its named task or None) a task's data holds in a slot."""
    task = data.get(task_key(slot)) or None
    text = data.get(statement_key(slot)) if task else data.get(rubric_object(slot))
    return str(text or ""), task


def field_line(field: str, spec_type: str, description: str) -> str:
    return f"{field} ({spec_type})" + (f": {description}" if description else "")


def document_instructions(doc_type_name: str, spec: DocTypeSpec) -> str:
    """The project's labelling instructions (HTML), from the field descriptions in curator.toml."""
    what = spec.description or doc_type_name
    fields = "".join(
        f"<li><b>{html.escape(name)}</b> ({field.type})"
        f"{': ' + html.escape(field.description) if field.description else ''}</li>"
        for name, field in spec.fields.items()
    )
    steps = "".join(f"<li>{html.escape(step)}</li>" for step in DOCUMENT_STEPS)
    return (
        f"<h3>How to label: {html.escape(what)}</h3><ol>{steps}</ol>"
        f"<h4>The fields</h4><ul>{fields}</ul>"
        "<p>Then Submit. curator keeps the labels; do not rename labels or controls in the "
        "settings.</p>"
    )


def thread_instructions() -> str:
    steps = "".join(f"<li>{html.escape(step)}</li>" for step in THREAD_STEPS)
    return (
        f"<h3>How to label: threads</h3><ol>{steps}</ol>"
        "<p>Then Submit. curator keeps the labels; do not rename labels or controls in the "
        "settings.</p>"
    )


def conversation_instructions(doc_type_name: str | None, spec: DocTypeSpec | None) -> str:
    steps = "".join(f"<li>{html.escape(step)}</li>" for step in CONVERSATION_STEPS)
    fields = "".join(
        f"<li><b>{html.escape(name)}</b> ({field.type})"
        f"{': ' + html.escape(field.description) if field.description else ''}</li>"
        for name, field in (spec.fields.items() if spec else ())
    )
    what = (spec.description if spec else "") or doc_type_name or "conversations"
    return (
        f"<h3>How to label: {html.escape(what)}</h3><ol>{steps}</ol>"
        + (f"<h4>The fields</h4><ul>{fields}</ul>" if fields else "")
        + "<p>Then Submit. curator keeps the labels; do not rename labels or controls in the "
        "settings.</p>"
    )


def conversation_config(
    doc_type_name: str | None, spec: DocTypeSpec | None, rubric_slots: int
) -> str:
    """The turns (role as the speaker), the rubric slots, the reference answer and the
    doc type's fields (none without a doc type)."""
    view = ET.Element("View")
    ET.SubElement(view, "Header", value="$title")
    _steps(view, f"How to label: {doc_type_name or 'conversations'}", CONVERSATION_STEPS)
    ET.SubElement(
        view,
        "Paragraphs",
        name=DIALOGUE,
        value=f"${MESSAGES}",
        layout="dialogue",
        nameKey="role",
        textKey="text",
    )
    _rubric_slots(view, rubric_slots, posts=False)
    ET.SubElement(view, "Header", value="The reference answer: one that meets every rubric")
    ET.SubElement(
        view,
        "TextArea",
        name=REFERENCE,
        toName=DIALOGUE,
        rows="4",
        maxSubmissions="1",
        editable="true",
        showSubmitButton="false",
    )
    if spec is not None and spec.fields:
        ET.SubElement(
            view,
            "Header",
            value=f"The expected fields of a {doc_type_name}: value, and other accepted answers",
        )
        for field, field_spec in spec.fields.items():
            _field_boxes(view, field, field_spec.type, field_spec.description, DIALOGUE)
    _suspects(view, DIALOGUE)
    return _render(view)


def _field_boxes(view: ET.Element, field: str, spec_type: str, description: str, to: str) -> None:
    """A field's description over its value box and its accepted-answers box."""
    row = ET.SubElement(view, "View", className="curator-field")
    ET.SubElement(row, "Header", value=field_line(field, spec_type, description))
    ET.SubElement(
        row,
        "TextArea",
        name=value_control(field),
        toName=to,
        rows="1",
        maxSubmissions="1",
        editable="true",
        showSubmitButton="false",
        placeholder=f"{field}: the value",
    )
    ET.SubElement(
        row,
        "TextArea",
        name=variants_control(field),
        toName=to,
        rows="1",
        editable="true",
        showSubmitButton="false",
        placeholder=f"{field}: other accepted answers, one per line",
    )


def document_config(doc_type_name: str, spec: DocTypeSpec) -> str:
    view = ET.Element("View")
    ET.SubElement(view, "Header", value="$title")
    _steps(view, f"How to label: {spec.description or doc_type_name}", DOCUMENT_STEPS)
    labels = ET.SubElement(view, "Labels", name=SPAN, toName=TEXT)
    for field, field_spec in spec.fields.items():
        ET.SubElement(
            labels,
            "Label",
            value=field,
            hint=field_line(field, field_spec.type, field_spec.description),
        )
    ET.SubElement(view, "Text", name=TEXT, value="$text")
    ET.SubElement(
        view, "Header", value=f"The fields of a {doc_type_name}: value, and other accepted answers"
    )
    for field, field_spec in spec.fields.items():
        _field_boxes(view, field, field_spec.type, field_spec.description, TEXT)
    ET.SubElement(view, "Header", value="Fields this document does not contain")
    absent = ET.SubElement(
        view, "Choices", name=ABSENT, toName=TEXT, choice="multiple", showInline="true"
    )
    for field in spec.fields:
        ET.SubElement(absent, "Choice", value=field)
    _suspects(view, TEXT)
    return _render(view)


def _suspects(view: ET.Element, to_name: str) -> None:
    """What the anonymiser kept but doubts: the reviewer ticks each as personal, of the kind
    suggested or of another (`vault add --kind`: rewritten everywhere), or as not personal
    (`vault forget`)."""
    for name, what, options in (
        (
            SUSPECT_NAMES,
            "Kept but perhaps personal: tick each that is personal, of the kind shown "
            "(it is rewritten everywhere)",
            SUSPECTS,
        ),
        (
            SUSPECT_NOT_PERSONAL,
            "...each that is not personal (it is kept, never asked about again)",
            SUSPECTS,
        ),
        (
            SUSPECT_OTHER_KIND,
            "...and each that is personal but of another kind: tick the kind it is",
            SUSPECT_KINDS,
        ),
    ):
        ET.SubElement(view, "Header", value=what)
        ET.SubElement(
            view,
            "Choices",
            name=name,
            toName=to_name,
            choice="multiple",
            value=f"${options}",
        )


def thread_config(rubric_slots: int) -> str:
    view = ET.Element("View")
    ET.SubElement(view, "Header", value="$title")
    _steps(view, "How to label: threads", THREAD_STEPS)
    ET.SubElement(view, "HyperText", name=DIALOGUE, value="$dialogue", inline="true")
    _rubric_slots(view, rubric_slots, posts=True)
    _suspects(view, DIALOGUE)
    return _render(view)


def _rubric_slots(view: ET.Element, rubric_slots: int, *, posts: bool) -> None:
    """Each slot's statement beside its pass/fail choice (and the posts it is judged on, for
    a thread), then the box for new statements."""
    ET.SubElement(
        view,
        "Header",
        value="Rubrics: does each statement hold, and which posts show it?"
        if posts
        else "Rubrics: must a right answer meet each statement?",
    )
    for slot in range(1, rubric_slots + 1):
        row = ET.SubElement(view, "View", className="curator-rubric")
        ET.SubElement(row, "Text", name=rubric_object(slot), value=f"$rubric_{slot}")
        # Dynamic choices (from the task's data): an unused slot has none, so shows nothing.
        ET.SubElement(
            row,
            "Choices",
            name=verdict_control(slot),
            toName=rubric_object(slot),
            choice="single-radio",
            showInline="true",
            value=f"$verdicts_{slot}",
        )
        if posts:
            ET.SubElement(
                row,
                "Choices",
                name=posts_control(slot),
                toName=rubric_object(slot),
                choice="multiple",
                showInline="true",
                value=f"$posts_{slot}",
            )
    ET.SubElement(view, "Header", value="New rubric statements, one per line")
    ET.SubElement(
        view,
        "TextArea",
        name=NEW_RUBRICS,
        toName=DIALOGUE,
        rows="3",
        editable="true",
        showSubmitButton="false",
    )


# Label Studio draws a Header as an h3 with its own inline margins; these rules keep the
# instructions small and lay each field out as its description over its value box and its
# accepted-answers box. (No ">" in them: the config's XML would escape it.)
_HEADINGS = ":is(h1, h2, h3, h4, h5, h6)"
_CSS = (
    f".curator-steps {{ background: #f4f6fa; padding: 0.4em 1em; border-radius: 4px; "
    f"margin-bottom: 0.5em }} "
    f".curator-steps {_HEADINGS}, .curator-field {_HEADINGS} {{ font-size: 14px !important; "
    f"line-height: 1.4 !important; font-weight: normal !important; margin: 2px 0 !important }} "
    f".curator-steps {_HEADINGS}:first-of-type {{ font-size: 16px !important; "
    f"font-weight: 600 !important }} "
    f".curator-field {{ display: grid; grid-template-columns: 1fr 1fr; gap: 0.2em 1em; "
    f"margin: 0.6em 0 }} "
    f".curator-field {_HEADINGS} {{ grid-column: 1 / -1 }} "
    f".curator-rubric {{ display: flex; gap: 1em; align-items: center; flex-wrap: wrap; "
    f"margin: 0.3em 0 }}"
)


def _steps(view: ET.Element, title: str, steps: tuple[str, ...]) -> None:
    ET.SubElement(view, "Style").text = _CSS
    box = ET.SubElement(view, "View", className="curator-steps")
    ET.SubElement(box, "Header", value=title)
    for number, step in enumerate(steps, start=1):
        ET.SubElement(box, "Header", value=f"{number}. {step}")


def has_rubric_slots(project_key: str) -> bool:
    """A thread's or a conversation's project shows rubric slots (and grows them)."""
    return project_key.partition("/")[0] in ("thread", "conversation")


def rubric_slots_needed(rubric_counts: list[int]) -> int:
    """Slots a thread project needs: room for the most rubrics, never fewer than the minimum."""
    return max([MIN_RUBRIC_SLOTS, *rubric_counts])


def _render(view: ET.Element) -> str:
    ET.indent(view, space="  ")
    return ET.tostring(view, encoding="unicode") + "\n"


# ---------------------------------------------------------------- matching a server's config


@dataclass(frozen=True)
class Control:
    tag: str
    to_name: str
    options: tuple[str, ...]  # label / choice values, sorted


def controls(config: str) -> dict[str, Control]:
    """The named control tags of a config: what annotations' results refer to."""
    try:
        root = ET.fromstring(config)
    except ET.ParseError:
        return {}
    found: dict[str, Control] = {}
    for element in root.iter():
        name, to_name = element.get("name"), element.get("toName")
        if name and to_name:
            options = tuple(
                sorted(
                    child.get("value", "") for child in element if child.tag in ("Label", "Choice")
                )
            )
            found[name] = Control(element.tag, to_name, options)
    return found


def objects(config: str) -> dict[str, str]:
    """Object tags (what is shown) and dynamic controls: name -> its data variable."""
    try:
        root = ET.fromstring(config)
    except ET.ParseError:
        return {}
    return {
        e.get("name", ""): e.get("value", "")
        for e in root.iter()
        if e.get("name") and e.get("value", "").startswith("$")
    }


def config_problems(actual: str, expected: str) -> list[str]:
    """How a project's config fails to carry what curator's config needs (empty: it matches).

    Additions made in the UI (a comment box, an extra label) are harmless; a missing,
    renamed or retargeted control, a removed label, or a changed object are not.
    """
    have, need = controls(actual), controls(expected)
    if not have:
        return ["the labeling config is not valid XML or has no controls"]
    problems = []
    for name, control in need.items():
        got = have.get(name)
        if got is None:
            problems.append(f"control {name!r} is missing")
        elif got.tag != control.tag or got.to_name != control.to_name:
            problems.append(
                f"control {name!r} is a {got.tag} on {got.to_name!r}, "
                f"expected a {control.tag} on {control.to_name!r}"
            )
        else:
            lost = sorted(set(control.options) - set(got.options))
            if lost:
                problems.append(f"control {name!r} lost {', '.join(lost)}")
    have_objects = objects(actual)
    for name, variable in objects(expected).items():
        if have_objects.get(name) != variable:
            problems.append(f"object {name!r} no longer shows {variable}")
    return problems


def rubric_slots(config: str) -> int:
    """How many rubric verdict slots a thread config has."""
    return sum(1 for name in controls(config) if name.startswith("verdict_"))
