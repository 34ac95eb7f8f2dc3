"""Label Studio labeling configs generated from curator's doc types, and checking them.

Documents: the text with one span label per field, a text box per field for the normalised
value, and a choice to mark fields the document does not contain. Threads: the posts as a
dialogue, one pass/fail choice per rubric, and a box for new rubric statements.

Control names are the contract with pull: `span`, `value_<field>`, `absent`, `verdict_<n>`,
`new_rubrics`. A project whose config lost or renamed one of them (edited in the UI) no
longer matches, and push and pull refuse it instead of guessing.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

from curator.model import DocTypeSpec

SPAN = "span"
TEXT = "text"
ABSENT = "absent"
DIALOGUE = "dialogue"
NEW_RUBRICS = "new_rubrics"
PASS, FAIL = "pass", "fail"
MIN_RUBRIC_SLOTS = 5


def value_control(field: str) -> str:
    return f"value_{field}"


def verdict_control(slot: int) -> str:
    return f"verdict_{slot}"


def rubric_object(slot: int) -> str:
    return f"rubric_{slot}"


def document_config(doc_type_name: str, spec: DocTypeSpec) -> str:
    view = ET.Element("View")
    ET.SubElement(view, "Header", value="$title")
    labels = ET.SubElement(view, "Labels", name=SPAN, toName=TEXT)
    for field, field_spec in spec.fields.items():
        ET.SubElement(labels, "Label", value=field, hint=f"{field} ({field_spec.type})")
    ET.SubElement(view, "Text", name=TEXT, value="$text")
    ET.SubElement(view, "Header", value=f"Values ({doc_type_name}): write the normalised value; "
                                         "empty means the marked text is the value")
    for field, field_spec in spec.fields.items():
        box = ET.SubElement(view, "View", style="display: flex; gap: 1em; align-items: center")
        ET.SubElement(box, "Header", value=f"{field} ({field_spec.type})", size="5")
        ET.SubElement(box, "TextArea", name=value_control(field), toName=TEXT, rows="1",
                      maxSubmissions="1", editable="true", showSubmitButton="false")
    ET.SubElement(view, "Header", value="Fields this document does not contain")
    absent = ET.SubElement(view, "Choices", name=ABSENT, toName=TEXT, choice="multiple",
                           showInline="true")
    for field in spec.fields:
        ET.SubElement(absent, "Choice", value=field)
    return _render(view)


def thread_config(rubric_slots: int) -> str:
    view = ET.Element("View")
    ET.SubElement(view, "Header", value="$title")
    ET.SubElement(view, "Paragraphs", name=DIALOGUE, value="$dialogue", layout="dialogue",
                  nameKey="author", textKey="text")
    ET.SubElement(view, "Header", value="Rubrics: does each statement hold for this thread?")
    for slot in range(1, rubric_slots + 1):
        row = ET.SubElement(view, "View", style="display: flex; gap: 1em; align-items: center")
        ET.SubElement(row, "Text", name=rubric_object(slot), value=f"$rubric_{slot}")
        choices = ET.SubElement(row, "Choices", name=verdict_control(slot), toName=rubric_object(slot),
                                choice="single-radio", showInline="true")
        ET.SubElement(choices, "Choice", value=PASS)
        ET.SubElement(choices, "Choice", value=FAIL)
    ET.SubElement(view, "Header", value="New rubric statements, one per line")
    ET.SubElement(view, "TextArea", name=NEW_RUBRICS, toName=DIALOGUE, rows="3",
                  editable="true", showSubmitButton="false")
    return _render(view)


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
            options = tuple(sorted(child.get("value", "") for child in element
                                   if child.tag in ("Label", "Choice")))
            found[name] = Control(element.tag, to_name, options)
    return found


def objects(config: str) -> dict[str, str]:
    """Object tags (what is shown): name -> its data variable."""
    try:
        root = ET.fromstring(config)
    except ET.ParseError:
        return {}
    return {e.get("name", ""): e.get("value", "") for e in root.iter()
            if e.get("name") and not e.get("toName") and e.get("value", "").startswith("$")}


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
            problems.append(f"control {name!r} is a {got.tag} on {got.to_name!r}, "
                            f"expected a {control.tag} on {control.to_name!r}")
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
