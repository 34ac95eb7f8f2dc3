"""Faults: each says what happened in one line, exits 2 and leaves the store as it was.

The server is real; only the faults a healthy server never makes (a 500, a timeout) are
injected, by wrapping httpx's send under the SDK.
"""

from __future__ import annotations

import httpx
import jwt
import pytest
from labelstudio_server import free_port
from review_data import add_lease
from review_helpers import (
    edited,
    labelstudio_sources,
    prediction_result,
    project_id,
    tasks_by_fixture,
)

from tests.conftest import run_cli, snapshot

pytestmark = pytest.mark.labelstudio


def _cli(store, command, url, key, *args):
    return run_cli("review", command, "--url", url, "--api-key", key, *args, store=store.root)


def _one_line_error(done, *needles):
    assert done.exit_code == 2, (done.stdout, done.stderr)
    assert done.stderr.startswith("curator: error: ") and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr
    for needle in needles:
        assert needle in done.stderr, done.stderr


@pytest.fixture
def annotated(review_store, ls_server, admin, alice):
    """Two leases pushed and annotated by a labeller: (fixture ids, their task ids)."""
    fixtures = [add_lease(review_store, 201), add_lease(review_store, 202)]
    assert _cli(review_store, "push", ls_server.url, ls_server.legacy_token).exit_code == 0
    tasks = tasks_by_fixture(admin, project_id(admin, review_store, "document/lease"))
    for fixture in fixtures:
        alice.annotate(
            tasks[fixture].id,
            edited(prediction_result(admin, tasks[fixture].id), monthly_rent="$1,111.00"),
        )
    return fixtures, [tasks[f].id for f in fixtures]


@pytest.mark.parametrize("command", ["push", "pull"])
def test_server_down(review_store, command):
    add_lease(review_store, 211)
    before = snapshot(review_store.root)

    done = _cli(review_store, command, f"http://127.0.0.1:{free_port()}", "any-token-123")

    _one_line_error(done, "cannot reach Label Studio")
    assert snapshot(review_store.root) == before


@pytest.mark.parametrize("command", ["push", "pull"])
def test_wrong_url(review_store, ls_server, command):
    add_lease(review_store, 221)
    before = snapshot(review_store.root)

    done = _cli(review_store, command, ls_server.url + "/not-label-studio", ls_server.legacy_token)

    _one_line_error(done, "is the URL right?")
    assert snapshot(review_store.root) == before


@pytest.fixture
def not_label_studio():
    """Some other web server: answers 200 with an HTML page to everything."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Page(BaseHTTPRequestHandler):
        def _page(self):
            body = b"<html><body>Welcome to the intranet</body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = _page

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("kind", ["legacy", "personal"])
def test_a_url_that_is_not_label_studio(review_store, not_label_studio, personal_token, kind):
    add_lease(review_store, 226)
    before = snapshot(review_store.root)
    key = "some-legacy-token-123" if kind == "legacy" else personal_token

    done = _cli(review_store, "push", not_label_studio, key)

    _one_line_error(done, "does not answer like a Label Studio API")
    assert snapshot(review_store.root) == before


@pytest.mark.parametrize("kind", ["legacy", "personal"])
def test_bad_token(review_store, ls_server, kind):
    add_lease(review_store, 231)
    before = snapshot(review_store.root)
    if kind == "legacy":
        key = "not-the-right-token-0123456789"
    else:  # a well-formed personal access token this server never signed
        key = jwt.encode(
            {"token_type": "refresh", "exp": 4102444800, "user_id": "1", "jti": "x"},
            "a secret this server has never seen, long enough",
            algorithm="HS256",
        )

    done = _cli(review_store, "push", ls_server.url, key)

    _one_line_error(done, "refused the API key")
    assert key not in done.stdout + done.stderr
    assert snapshot(review_store.root) == before


def _fail_exports(monkeypatch, *, task_id, fault):
    """Make every export request that asks for `task_id` fail with `fault`."""
    real_send = httpx.Client.send
    calls = []

    def send(self, request, *args, **kwargs):
        if request.url.path.endswith("/export") and str(task_id) in request.url.params.get_list(
            "ids[]"
        ):
            calls.append(request.url)
            if fault == "500":
                return httpx.Response(500, json={"detail": "injected"}, request=request)
            raise httpx.ReadTimeout("injected", request=request)
        return real_send(self, request, *args, **kwargs)

    monkeypatch.setattr(httpx.Client, "send", send)
    return calls


def test_a_500_in_the_middle_of_a_pull_leaves_nothing_pulled_and_a_second_pull_takes_all(
    review_store, ls_server, annotated, monkeypatch
):
    (first, second), (_, second_task) = annotated
    before = snapshot(review_store.root)
    with monkeypatch.context() as patch:
        calls = _fail_exports(patch, task_id=second_task, fault="500")
        done = _cli(
            review_store, "pull", ls_server.url, ls_server.legacy_token, "--batch-size", "1"
        )
    assert calls, "the fault was never injected"
    _one_line_error(done, "HTTP 500", "exporting")
    # All or nothing (issue 32): the first batch, exported fine, is not kept either.
    assert snapshot(review_store.root) == before

    again = _cli(review_store, "pull", ls_server.url, ls_server.legacy_token, "--batch-size", "1")

    assert again.exit_code == 0, again.stderr
    assert len(labelstudio_sources(review_store, first)) == 1
    assert len(labelstudio_sources(review_store, second)) == 1
    assert review_store.load(second).labels.fields["monthly_rent"].value == "$1,111.00"


def test_a_timeout_says_so_and_leaves_the_store(review_store, ls_server, annotated, monkeypatch):
    (first, _), (first_task, _) = annotated
    before = snapshot(review_store.root)
    with monkeypatch.context() as patch:
        _fail_exports(patch, task_id=first_task, fault="timeout")
        done = _cli(review_store, "pull", ls_server.url, ls_server.legacy_token)

    _one_line_error(done, "did not answer in time")
    assert snapshot(review_store.root) == before


def _edit_config(admin, project, old, new):
    config = admin.projects.get(id=project).label_config
    assert old in config
    admin.projects.update(id=project, label_config=config.replace(old, new))


def test_a_config_edited_in_the_ui_is_refused_by_pull_and_push(review_store, ls_server, admin):
    fixture = add_lease(review_store, 241)
    assert _cli(review_store, "push", ls_server.url, ls_server.legacy_token).exit_code == 0
    project = project_id(admin, review_store, "document/lease")
    _edit_config(admin, project, '<Label value="tenant"', '<Label value="renter"')
    set_to = review_store.load_fixture(fixture)
    before = snapshot(review_store.root)

    pulled = _cli(review_store, "pull", ls_server.url, ls_server.legacy_token)
    pushed = _cli(review_store, "push", ls_server.url, ls_server.legacy_token, fixture)

    for done in (pulled, pushed):
        _one_line_error(done, f"project {project}", "no longer matches", "tenant")
    assert snapshot(review_store.root) == before
    assert review_store.load_fixture(fixture) == set_to


def test_a_result_with_a_label_added_in_the_ui_is_refused(review_store, ls_server, admin, alice):
    fixture = add_lease(review_store, 251)
    assert _cli(review_store, "push", ls_server.url, ls_server.legacy_token).exit_code == 0
    project = project_id(admin, review_store, "document/lease")
    _edit_config(
        admin, project, '<Label value="tenant"', '<Label value="renter" /><Label value="tenant"'
    )
    task = tasks_by_fixture(admin, project)[fixture]
    result = prediction_result(admin, task.id)
    for region in result:
        if region["from_name"] == "span" and region["value"]["labels"] == ["tenant"]:
            region["value"]["labels"] = ["renter"]
    alice.annotate(task.id, result)
    before = snapshot(review_store.root)

    done = _cli(review_store, "pull", ls_server.url, ls_server.legacy_token)

    _one_line_error(done, fixture, "does not fit", "renter")
    assert snapshot(review_store.root) == before


def test_no_url_or_key_is_bad_usage(review_store, monkeypatch):
    monkeypatch.delenv("LABEL_STUDIO_URL", raising=False)
    monkeypatch.delenv("LABEL_STUDIO_API_KEY", raising=False)

    _one_line_error(run_cli("review", "pull", store=review_store.root), "--url")
    _one_line_error(
        run_cli("review", "pull", "--url", "http://127.0.0.1:9", store=review_store.root),
        "--api-key",
    )
