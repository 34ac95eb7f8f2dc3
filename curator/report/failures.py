"""The failures section: each failing fixture of the gate and each failing test of the
newest run, with an excerpt of the fixture's content, the truth and the answer."""

from __future__ import annotations

from html import escape

from curator.bundle import BundledFixture
from curator.eval.results import Item
from curator.model import (
    ConversationContent,
    DocumentContent,
    FixtureScore,
    ItemScore,
    ThreadContent,
)
from curator.report.inputs import ReportInputs
from curator.report.markup import paragraph, section, table

WINDOW = 120  # characters of context either side of the evidence
OPENING = 320  # characters shown when there is no evidence span
POSTS = 3  # thread posts shown when the rubric names none


def failures(inputs: ReportInputs) -> str:
    body = ""
    if inputs.gate is not None:
        failing = [f for f in inputs.gate.fixtures if not f.passed]
        body += (
            f"<h3>Gate: {len(failing)} of {len(inputs.gate.fixtures)} fixtures not fully right</h3>"
        )
        body += "".join(
            _gate_fixture(f, inputs.fixtures.get(f.id), i == 0) for i, f in enumerate(failing)
        )
    if inputs.runs:
        latest = inputs.runs[-1]
        failing_items = [item for item in latest.items if not item.passed]
        body += (
            f"<h3>Eval run {escape(latest.label)}: "
            f"{len(failing_items)} of {len(latest.items)} tests did not pass</h3>"
        )
        body += "".join(
            _run_item(item, inputs.fixtures.get(item.line.fixture_id or item.name), i == 0)
            for i, item in enumerate(failing_items)
        )
    if not body:
        body = paragraph("No gate report or eval run given: no failures to show.")
    return section("failures", "Failing fixtures", body)


def excerpt(fixture: BundledFixture | None, item: str | None) -> str:
    """HTML: the part of the content the item is about (its evidence), else the opening."""
    if fixture is None:
        return paragraph("This fixture is not in the bundle.")
    if isinstance(fixture.content, DocumentContent):
        return _document_excerpt(fixture, fixture.content, item)
    if isinstance(fixture.content, ConversationContent):
        text = fixture.content.transcript()
        more = "…" if len(text) > OPENING else ""
        return f'<pre class="excerpt">{escape(text[:OPENING])}{more}</pre>'
    return _thread_excerpt(fixture, fixture.content, item)


def _document_excerpt(fixture: BundledFixture, content: DocumentContent, field: str | None) -> str:
    label = fixture.labels.fields.get(field or "") if fixture.labels else None
    span = label.evidence if label else None
    if span is not None and span.page is not None and span.page <= len(content.pages):
        text = content.page(span.page).text
        start, end = max(0, span.start - WINDOW), min(len(text), span.end + WINDOW)
        shown = (
            ("…" if start else "")
            + escape(text[start : span.start])
            + "<mark>"
            + escape(text[span.start : span.end])
            + "</mark>"
            + escape(text[span.end : end])
            + ("…" if end < len(text) else "")
        )
        return f'<pre class="excerpt">page {span.page}: {shown}</pre>'
    text = content.pages[0].text if content.pages else ""
    return (
        f'<pre class="excerpt">{escape(text[:OPENING])}{"…" if len(text) > OPENING else ""}</pre>'
    )


def _thread_excerpt(fixture: BundledFixture, content: ThreadContent, rubric: str | None) -> str:
    """The posts the rubric is judged on, else the first few."""
    export = content.export
    wanted = set()
    if fixture.labels:
        wanted = {
            post
            for r in fixture.labels.all_rubrics()
            if _same(r.text, rubric)
            for post in r.evidence_posts
        }
    posts = export.ordered_posts()
    shown = [post for post in posts if post.id in wanted] or posts[:POSTS]
    users = export.users
    lines = [
        f"{users[post.user_id].username if post.user_id in users else post.user_id}: {post.message}"
        for post in shown
    ]
    return f'<pre class="excerpt">{escape(chr(10).join(lines))}</pre>'


def _gate_fixture(score: FixtureScore, fixture: BundledFixture | None, first: bool) -> str:
    wrong = [item for item in score.items if item.outcome != "right"]
    about = (
        "no prediction for this fixture"
        if score.missing
        else f"{score.right}/{score.total} items right"
    )
    made = f"made by {'+'.join(score.mutations)}" if score.mutations else "golden"
    classes = f"failure classes: {', '.join(score.classes)}" if score.classes else ""
    meta = " · ".join(filter(None, [f"category {score.category}", made, about, classes]))
    rows = [
        (
            item.name,
            _truth(item),
            _answer(item),
            item.outcome,
            ", ".join(item.classes),
            "" if item.confidence is None else f"{item.confidence:.2f}",
        )
        for item in wrong
    ]
    first_field = next((item.name for item in wrong if item.kind == "field"), None)
    body = excerpt(fixture, first_field or (wrong[0].name if wrong else None))
    body += table(
        ["item", "truth", "answer", "outcome", "failure classes", "confidence"],
        rows,
        numeric=(5,),
        free=(0, 1, 2),
    )
    return _details(f"<code>{escape(score.name)}</code> {escape(meta)}", body, open_=first)


def _run_item(item: Item, fixture: BundledFixture | None, first: bool) -> str:
    line = item.line
    truth = f"{line.field} = {line.expected}" if line.field else (line.expected or line.rubric)
    rows = [("truth", truth), ("answer", line.output), ("reasoning", line.reasoning)]
    if line.evidence:
        rows.append(("judge's evidence", line.evidence))
    if line.error:
        rows.append(("error", line.error))
    body = excerpt(fixture, line.field or line.rubric) + table(["", ""], rows, free=(1,))
    summary = (
        f"<code>{escape(item.name)}</code> {escape(item.rubric)} "
        f"({item.result}, score {item.score:.2f})"
    )
    return _details(summary, body, open_=first)


def _truth(item: ItemScore) -> str:
    if item.kind == "rubric":
        return "the statement holds"
    if item.expected_absent:
        return "(absent: no value)"
    variants = f" (also {', '.join(item.variants)})" if item.variants else ""
    return f"{item.expected}{variants}"


def _answer(item: ItemScore) -> str:
    if item.outcome == "missing":
        return "(no prediction)"
    if item.kind == "rubric":
        return "the judge said it does not hold"
    return item.predicted if item.predicted not in (None, "") else "(left empty)"


def _same(rubric: str, item: str | None) -> bool:
    return item is not None and " ".join(rubric.split()).lower() == " ".join(item.split()).lower()


def _details(summary: str, body: str, *, open_: bool) -> str:
    """Folded, but the first of a list is open: the page shows what a failure looks like."""
    return (
        f'<details class="failure"{" open" if open_ else ""}>'
        f"<summary>{summary}</summary>{body}</details>"
    )
