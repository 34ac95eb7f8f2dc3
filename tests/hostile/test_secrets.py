"""Secrets and personal data never appear in errors, tracebacks or files.

A planted API key (one with a line break in it too, as pasted from a file) and a planted
personal name go into failing commands; afterwards every output, every error and every file
the command could have written (the store, the working folder, TMPDIR) is searched for them.
The name is synthetic, as every name in this repository outside tests/data's corpus list.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hostile.conftest import ChildRun, Sandbox, run

KEY = "lsk-PLANTED-7c1e9a4b2d"
SPLIT_KEY = "lsk-PLANTED-a1b2\nsecond-half-5e8f9d"
NAME = "Wilhelmina Quarterfield"
NEEDLES = [KEY, *SPLIT_KEY.split(), NAME, *NAME.split()]


def found(result: ChildRun, *roots: Path) -> list[str]:
    """Where any planted value shows: in the output, the errors, or a file under `roots`."""
    places = {"stdout": result.stdout.encode(), "stderr": result.stderr.encode()}
    for root in roots:
        for path in root.rglob("*"):
            if path.is_file() and not path.is_symlink():
                places[str(path)] = path.read_bytes()
    return [
        f"{needle!r} in {where}"
        for where, data in places.items()
        for needle in NEEDLES
        if needle.encode() in data
    ]


@pytest.fixture(scope="module")
def listener() -> Iterator[str]:
    """A TCP port that accepts and hangs up: far enough for an HTTP client to send headers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            conn.close()

    threading.Thread(target=serve, daemon=True).start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}"
    server.close()


# The header check turned off: the HTTP library then refuses the key itself, quoting it.
NO_HEADER_CHECK = "import re, curator.review.client as c; c._HEADER_SAFE = re.compile(r'(?s).+')"


def review_cases(url: str) -> dict[str, tuple[list[str], dict[str, str], str]]:
    """case -> (arguments, environment, fault to inject)."""
    return {
        "key-with-newline": (["review", "pull", "--url", url, "--api-key", SPLIT_KEY], {}, ""),
        "key-with-newline-from-env": (
            ["review", "pull", "--url", url],
            {"LABEL_STUDIO_API_KEY": SPLIT_KEY},
            "",
        ),
        "key-with-newline-debug": (
            ["--debug", "review", "pull", "--url", url, "--api-key", SPLIT_KEY],
            {},
            "",
        ),
        "http-library-quotes-key": (
            ["review", "pull", "--url", url, "--api-key", SPLIT_KEY],
            {},
            NO_HEADER_CHECK,
        ),
        "http-library-quotes-key-debug": (
            ["--debug", "review", "pull", "--url", url],
            {"LABEL_STUDIO_API_KEY": SPLIT_KEY},
            NO_HEADER_CHECK,
        ),
        "key-in-url": (
            [
                "review",
                "push",
                "--url",
                url.replace("://", f"://admin:{KEY}@"),
                "--api-key",
                "x" * 8,
            ],
            {},
            "",
        ),
        "server-gone": (
            ["--debug", "review", "pull", "--url", "http://127.0.0.1:9", "--api-key", KEY],
            {},
            "",
        ),
    }


CASES = [
    "key-with-newline",
    "key-with-newline-from-env",
    "key-with-newline-debug",
    "http-library-quotes-key",
    "http-library-quotes-key-debug",
    "key-in-url",
    "server-gone",
]


@pytest.mark.parametrize("case", CASES)
def test_no_key_in_any_output_or_file(sandbox, sample, listener, case):
    args, env, fault = review_cases(listener)[case]
    result = run(sandbox, *args, store=sample, fault=fault, **env)
    assert result.exit_code == 2, result
    assert result.stderr.splitlines()[-1].startswith("curator: error: ")
    if "--debug" not in args:
        assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr
    assert found(result, sample.root, sandbox.cwd, sandbox.tmp) == []


def test_a_debug_traceback_is_shown_redacted(sandbox, sample, listener):
    result = run(
        sandbox,
        "--debug",
        "review",
        "pull",
        "--url",
        listener,
        "--api-key",
        SPLIT_KEY,
        store=sample,
        fault=NO_HEADER_CHECK,
    )
    assert "Traceback" in result.stderr and "LocalProtocolError" in result.stderr
    assert "[redacted]" in result.stderr  # the library's message was there, the key was not


def _chat(inputs: Path, both: dict[str, object] | None = None, **overrides: object) -> Path:
    lines = [
        {
            "author": "sam",
            "text": "Is the invoice paid?",
            "time": "2024-02-01T10:00:00Z",
            "id": "m1",
        },
        {"author": "kim", "text": "Yes.", "time": "2024-02-01T10:05:00Z", "id": "m2"},
    ]
    for line in lines:
        line.update(both or {})
    lines[1].update(overrides)
    path = inputs / "chat.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _thread(inputs: Path) -> Path:
    path = inputs / "thread.json"
    path.write_text(
        json.dumps(
            {
                "posts": {"p1": {"id": "p1", "user_id": "u1", "message": "hi", "create_at": NAME}},
                "users": {"u1": {"id": "u1", "username": "sam"}},
            }
        )
    )
    return path


def _record(inputs: Path) -> Path:
    path = inputs / "failure.json"
    path.write_text(
        json.dumps(
            {
                "trace_id": "t-1",
                "observed_at": NAME,
                "failure_mode": "hallucination",
                "input": {"text": f"Tenant: {NAME}"},
                "output": {"text": "wrong"},
            }
        )
    )
    return path


def _evals(inputs: Path) -> Path:
    path = inputs / "evals.jsonl"
    path.write_text(json.dumps({"name": "x", "timestamp": "t", "pass": NAME}) + "\n")
    return path


def _pdf(inputs: Path) -> Path:
    path = inputs / "broken.pdf"
    path.write_bytes(
        b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages (" + NAME.encode() + b") >> endobj\n"
        b"trailer << /Root 1 0 R >>\n%%EOF\n"
    )
    return path


PERSONAL = {
    "chat-time": (lambda inputs: ["import", _chat(inputs, time=NAME)]),
    "chat-time-debug": (lambda inputs: ["--debug", "import", _chat(inputs, time=NAME)]),
    "chat-duplicate-id": (lambda inputs: ["import", _chat(inputs, both={"thread": NAME}, id="m1")]),
    "thread-bad-time": (lambda inputs: ["import", _thread(inputs)]),
    "failure-record": (lambda inputs: ["promote", _record(inputs)]),
    "eval-line": (lambda inputs: ["view", _evals(inputs), "--check"]),
    "corrupt-pdf": (lambda inputs: ["import", _pdf(inputs)]),
}


@pytest.mark.parametrize("case", PERSONAL, ids=list(PERSONAL))
def test_no_personal_value_of_a_refused_input_is_quoted(sandbox: Sandbox, sample, case):
    args = PERSONAL[case](sandbox.inputs)
    result = run(sandbox, *args, store=sample)
    assert result.exit_code == 2, result
    assert found(result, sample.root, sandbox.cwd, sandbox.tmp) == []


def test_redact_finds_a_secret_in_every_shape_it_is_quoted_in():
    from curator.cli.redact import redact, secrets_in

    secrets = secrets_in(
        ["review", "pull", "--api-key", SPLIT_KEY], {"OPENAI_API_KEY": KEY, "HOME": "/root"}
    )
    assert set(secrets) == {SPLIT_KEY, KEY}
    quoted = [
        SPLIT_KEY,
        repr(SPLIT_KEY),
        json.dumps(SPLIT_KEY),
        repr(SPLIT_KEY.encode()),
        f"Bearer {KEY}",
    ]
    for text in quoted:
        shown = redact(f"refused: {text}!", secrets)
        assert all(piece not in shown for piece in [KEY, *SPLIT_KEY.split()]), shown
    assert (
        redact("the word home stays", secrets_in([], {"HOME_KEY": "home"})) == "the word home stays"
    )
