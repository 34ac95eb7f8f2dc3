"""What a labeller sees: pushed tasks opened in a real headless Chromium (Debian's chromium,
driven by Playwright), logged in as a labeller of the test Label Studio server.

Screenshots land in build/review-screens/ (look at them when the labelling UI changes).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from labelstudio_server import Browser

from curator.labels import LabelEdit, set_labels
from curator.review import configs, state
from tests import samples
from tests.conftest import REPO, run_cli

pytestmark = pytest.mark.labelstudio

CHROMIUM = Path(os.environ.get("CURATOR_CHROMIUM", "/usr/bin/chromium"))
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENS = REPO / "build" / "review-screens"
EMAIL, PASSWORD = "carol@curator.test", "carol-password-123"
EDITOR = ".lsf-main-view__annotation"  # the labelling area (not the task table beside it)


@pytest.fixture(scope="module")
def page(ls_server, admin, tmp_path_factory):
    """A labeller, signed up through the invite link, logged in to Label Studio in Chromium."""
    if not CHROMIUM.is_file():  # make test installs it; where it could not, it said so
        pytest.skip(
            f"no chromium at {CHROMIUM}: `make test` installs Debian's chromium (or set "
            "CURATOR_CHROMIUM)"
        )
    from playwright.sync_api import sync_playwright

    invite = admin.organizations.invites.get_invite_link()
    signup = Browser(ls_server.url)
    signup.signup(invite.token, EMAIL, PASSWORD)
    signup.close()
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=str(CHROMIUM),
            headless=True,
            args=FLAGS,
            viewport={"width": 1400, "height": 2600},
        )  # tall: the whole task, no scrolling
        tab = context.new_page()
        tab.goto(f"{ls_server.url}/user/login/")
        tab.fill("input[name=email]", EMAIL)
        tab.fill("input[name=password]", PASSWORD)
        tab.click("button[type=submit]")
        tab.wait_for_url(lambda url: "/user/login" not in url)
        yield tab
        context.close()


def _open(page, store, ls_server, fixture_id: str, screenshot: str):
    where = state.load(store, ls_server.url)["tasks"][fixture_id]
    page.goto(f"{ls_server.url}/projects/{where['project']}/data?task={where['task']}")
    editor = page.locator(EDITOR)
    editor.get_by_text("How to label").first.wait_for(timeout=60_000)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(1500)  # the pre-annotation is drawn after the task data
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / screenshot))
    return editor


def _push(store, ls_server, *ids):
    result = run_cli(
        "review",
        "push",
        *ids,
        "--url",
        ls_server.url,
        "--api-key",
        ls_server.legacy_token,
        store=store.root,
    )
    assert result.exit_code == 0, result.stderr


def test_a_document_task_shows_instructions_and_every_pre_annotated_value(
    review_store, ls_server, page
):
    lease = samples.add(review_store, "lease", 1)
    tenant = review_store.load(lease).labels.fields["tenant"].value
    variant = tenant.split()[-1].upper()
    set_labels(
        review_store,
        lease,
        edit=LabelEdit(accept={"tenant": [variant]}, assignments={"security_deposit": ""}),
        author="lead",
    )
    _push(review_store, ls_server, lease)

    editor = _open(page, review_store, ls_server, lease, "document-task.png")

    shown = editor.inner_text()
    spec = review_store.config.doc_types["lease"]
    assert f"How to label: {spec.description}" in shown
    for step in configs.DOCUMENT_STEPS:
        assert step in shown
    for name, field in spec.fields.items():  # each box beside the description curator.toml gives
        assert configs.field_line(name, field.type, field.description) in shown
    labels = review_store.load(lease).labels
    for name, label in labels.fields.items():
        if label.expected_absent:  # ticked under "does not contain"
            assert name in _ticked(editor, "checkbox")
            continue
        box = editor.locator(f'[name^="{configs.value_control(name)}:"]')
        assert box.inner_text().strip() == label.value, name
    assert (
        editor.locator(f'[name^="{configs.variants_control("tenant")}:"]').inner_text().strip()
        == variant
    )
    assert _ticked(editor, "checkbox") == ["security_deposit"]


def test_a_thread_task_shows_its_own_rubrics_and_posts_with_author_and_time(
    review_store, ls_server, page
):
    thread = samples.add(review_store, "thread", 3)
    _push(review_store, ls_server, thread)

    editor = _open(page, review_store, ls_server, thread, "thread-task.png")

    shown = editor.inner_text()
    assert "How to label: threads" in shown and configs.THREAD_STEPS[2] in shown
    export = review_store.load(thread).content.export
    for number, post in enumerate(export.ordered_posts(), start=1):
        assert f"#{number} {export.author(post)} {post.written_at()}" in shown
        assert post.message in shown
    assert "00:00:00" not in shown  # no meaningless time ranges
    rubrics = review_store.load(thread).labels.rubrics
    rows = [row for row in editor.locator(".curator-rubric").all() if row.inner_text().strip()]
    assert len(rows) == len(rubrics) < configs.MIN_RUBRIC_SLOTS  # unused slots show nothing
    for row, rubric in zip(rows, rubrics, strict=True):
        text = row.inner_text()
        assert (
            rubric.text in text and "pass" in text and "fail" in text
        )  # each rubric beside its choices
        assert _ticked(row, "radio") == ["pass"]  # pre-filled: it holds
        assert (
            _ticked(row, "checkbox") == rubric.evidence_posts
        )  # its evidence posts, and no others
    # no orphan choices: exactly one pass/fail pair per rubric in the whole task
    assert editor.locator("input[type=radio][name=pass]").count() == len(rubrics)
    assert editor.locator("input[type=radio][name=fail]").count() == len(rubrics)


def _ticked(area, kind: str) -> list[str]:
    """The values of the ticked choices of a kind (radio, checkbox) in an area, as the UI draws
    them."""
    return [
        box.get_attribute("name")
        for box in area.locator(f".ant-{kind}-wrapper-checked input").all()
    ]


def test_a_conversation_task_shows_each_turn_under_its_role_and_its_reference(
    review_store, ls_server, page, tmp_path
):
    from curator.ingest.api import import_sources
    from tests.ingest import conversation_samples as sample

    import_sources(review_store, [sample.write_jsonl(tmp_path, "talk.jsonl", [sample.chat_line()])])
    [talk] = [i for i in review_store.ids() if review_store.load(i).fixture.kind == "conversation"]
    messages = review_store.load(talk).content.messages
    set_labels(
        review_store,
        talk,
        edit=LabelEdit(add_rubrics=["Gives the end date"], reference=messages[-1].content),
        author="lead",
    )
    _push(review_store, ls_server, talk)

    editor = _open(page, review_store, ls_server, talk, "conversation-task.png")

    shown = editor.inner_text()
    assert "How to label: conversations" in shown and configs.CONVERSATION_STEPS[3] in shown
    for message in messages:  # each turn under its role, as stored
        if message.content is not None:
            assert message.role in shown and message.content.splitlines()[0] in shown
    assert "called find_lease(" in shown
    box = editor.locator(f'[name^="{configs.REFERENCE}:"]')
    assert box.inner_text().strip() == messages[-1].content
    rows = [row for row in editor.locator(".curator-rubric").all() if row.inner_text().strip()]
    assert len(rows) == 1 and "Gives the end date" in rows[0].inner_text()
    assert _ticked(rows[0], "radio") == ["pass"]
