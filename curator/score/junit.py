"""JUnit XML: one test case per fixture (and one per gate), so CI systems show failures natively."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from curator.model import FixtureScore, GateReport, ItemScore


def render_junit(report: GateReport) -> str:
    root = ET.Element("testsuites", name="curator-gate")
    fixtures = _suite(
        root,
        f"curator-gate.fixtures.{report.bundle}",
        len(report.fixtures),
        sum(not f.passed for f in report.fixtures),
    )
    for fixture in report.fixtures:
        case = ET.SubElement(
            fixtures,
            "testcase",
            name=fixture.id,
            classname=f"{fixture.kind}.{fixture.category}",
            time="0",
        )
        if not fixture.passed:
            failure = ET.SubElement(
                case,
                "failure",
                message=_message(fixture),
                type=",".join(fixture.classes) or "wrong",
            )
            failure.text = "\n".join(
                _item_line(item) for item in fixture.items if item.outcome != "right"
            )
    gates = _suite(
        root,
        "curator-gate.gates",
        len(report.gates),
        sum(g.status == "fail" for g in report.gates),
        sum(g.status == "skip" for g in report.gates),
    )
    for check in report.gates:
        case = ET.SubElement(gates, "testcase", name=check.name, classname="gate", time="0")
        if check.status == "fail":
            ET.SubElement(case, "failure", message=check.detail, type="floor").text = check.detail
        elif check.status == "skip":
            ET.SubElement(case, "skipped", message=check.detail)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _suite(root: ET.Element, name: str, tests: int, failures: int, skipped: int = 0) -> ET.Element:
    return ET.SubElement(
        root,
        "testsuite",
        name=name,
        tests=str(tests),
        failures=str(failures),
        errors="0",
        skipped=str(skipped),
        time="0",
    )


def _message(fixture: FixtureScore) -> str:
    if fixture.missing:
        return "no prediction for this fixture"
    wrong = fixture.total - fixture.right
    return f"{wrong} of {fixture.total} items wrong: {', '.join(fixture.classes)}"


def _item_line(item: ItemScore) -> str:
    classes = f" [{', '.join(item.classes)}]" if item.classes else ""
    if item.kind == "rubric":
        verdict = {"wrong": "failed", "missing": "no verdict"}.get(item.outcome, item.outcome)
        return f"rubric {item.name!r}: {verdict}{classes}"
    expected = "(expected absent)" if item.expected_absent else repr(item.expected)
    confidence = "" if item.confidence is None else f" (confidence {item.confidence:g})"
    return f"{item.name}: expected {expected}, got {item.predicted!r}{confidence}{classes}"
