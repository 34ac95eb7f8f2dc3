"""A chat-completions server on loopback that answers judge prompts with scripted verdicts.

It speaks the OpenAI protocol (POST .../chat/completions; choices[0].message.content,
usage) and parses curator's prompts (<Source>, <Output>, <Rubric>), so tests, `make demo`
and benchmarks/eval.py run the real HTTP judge against it. Policies:

    reader      reads like a careful judge: a rubric passes when what it declares (amounts,
                dates, @mentions, quoted phrases) is in the output; statements are supported
                when their amounts and dates are in the source; evidence quoted verbatim
                (a statement's: the source line holding its value)
    lenient     passes everything (a judge that would pass known-bad answers)
    good        passes, quoting the output          failing     fails, quoting the output
    unverified  passes, quoting text found nowhere  malformed   broken JSON json-repair can fix
    garbage     prose, no JSON at all               error500    HTTP 500 every time
    flaky500    HTTP 500 on every other call        slow        answers after 3 s
    echo401     HTTP 401 whose message repeats the Authorization header (as some servers do)
    flip        fails answers stamped "(run N)" with an odd N, passes the rest: the verdicts flip
                between repetitions
    one_letter  passes, quoting "e"             elided      passes, quoting "a ... e"
    trickle     a valid passing reply, sent one byte every TRICKLE_SECONDS (no read ever waits
                long enough to time out)
    huge        a valid reply of HUGE_BYTES, chunked (no length declared)
    huge_declared  the same with its content-length declared
    verbose     passes, quoting the output, with 4 KiB of reasoning

    python tests/eval/judge_server.py --policy reader [--latency 0.05] [--port 0]
prints `http://127.0.0.1:PORT/v1` once listening, and serves until killed.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

POLICIES = (
    "reader",
    "lenient",
    "good",
    "failing",
    "unverified",
    "malformed",
    "garbage",
    "error500",
    "flaky500",
    "slow",
    "flip",
    "echo401",
    "one_letter",
    "elided",
    "trickle",
    "huge",
    "huge_declared",
    "verbose",
)
_TAG = re.compile(r"<(Source|Output|Rubric)>\n?(.*?)\n?</\1>", re.DOTALL)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_RUN = re.compile(r"\(run (\d+)\)")
TRICKLE_SECONDS = 0.25
HUGE_BYTES = 50 * 1024 * 1024
HUGE_CHUNK = 64 * 1024


class JudgeServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, policy: str = "reader", latency: float = 0.0) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.policy = policy
        self.latency = latency
        self.calls = 0
        self.authorized = (
            0  # requests that carried an Authorization header (its value is never kept)
        )
        self.lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a client that timed out and left
            super().handle_error(request, client_address)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def start(self) -> JudgeServer:
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._thread is not None:
            self.shutdown()
            self.server_close()
            self._thread = None

    def __enter__(self) -> JudgeServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class _Handler(BaseHTTPRequestHandler):
    server: JudgeServer
    protocol_version = "HTTP/1.1"  # keep-alive, as real servers: a connection serves many calls
    disable_nagle_algorithm = True  # headers and body go out at once, not 40 ms apart

    def log_message(self, format: str, *args: Any) -> None:  # quiet: tests read stdout
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
        with self.server.lock:
            self.server.calls += 1
            number = self.server.calls
            self.server.authorized += bool(self.headers.get("authorization"))
        if not self.path.endswith("/chat/completions"):
            return self._send(404, {"error": "not found"})
        if self.server.policy == "echo401":
            return self._send(
                401,
                {"error": {"message": f"Incorrect API key: {self.headers.get('authorization')}"}},
            )
        if self.server.latency:
            time.sleep(self.server.latency)
        system, user = body["messages"][0]["content"], body["messages"][1]["content"]
        parts = {name: text for name, text in _TAG.findall(user)}
        statements = "Split the output" in system
        policy = self.server.policy
        if policy in ("huge", "huge_declared"):
            return self._send_huge(number, body.get("model"), declared=policy == "huge_declared")
        status, content = reply(policy, number, statements, parts)
        if status != 200:
            return self._send(status, {"error": {"message": "scripted failure"}})
        completion = _completion(number, body.get("model"), content, len(user))
        if policy == "trickle":
            return self._send(200, completion, trickle=True)
        self._send(200, completion)

    def _send(self, status: int, data: dict[str, Any], trickle: bool = False) -> None:
        raw = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(raw)))
        self.end_headers()
        if not trickle:
            self.wfile.write(raw)
            return
        for byte in range(len(raw)):
            self.wfile.write(raw[byte : byte + 1])
            self.wfile.flush()
            time.sleep(TRICKLE_SECONDS)

    def _send_huge(self, number: int, model: str | None, *, declared: bool) -> None:
        """A chat completion whose content is HUGE_BYTES of text, written 64 KiB at a time."""
        head, tail = (
            json.dumps(_completion(number, model, "@@CONTENT@@", 0)).encode().split(b"@@CONTENT@@")
        )
        filler = b"a" * HUGE_CHUNK
        size = len(head) + HUGE_BYTES + len(tail)
        self.send_response(200)
        self.send_header("content-type", "application/json")
        if declared:
            self.send_header("content-length", str(size))
        else:
            self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        pieces = [head, *(filler for _ in range(HUGE_BYTES // HUGE_CHUNK)), tail]
        for piece in pieces:
            self.wfile.write(piece if declared else b"%x\r\n%s\r\n" % (len(piece), piece))
        if not declared:
            self.wfile.write(b"0\r\n\r\n")


def _completion(number: int, model: str | None, content: str, prompt_chars: int) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-{number}",
        "object": "chat.completion",
        "model": model,
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": content},
            }
        ],
        "usage": {"prompt_tokens": prompt_chars // 4, "completion_tokens": len(content) // 4},
    }


def reply(policy: str, number: int, statements: bool, parts: dict[str, str]) -> tuple[int, str]:
    source, output, rubric = (
        parts.get("Source", ""),
        parts.get("Output", ""),
        parts.get("Rubric", ""),
    )
    if policy == "error500" or (policy == "flaky500" and number % 2 == 1):
        return 500, ""
    if policy == "slow":
        time.sleep(3)
    if policy == "garbage":
        return 200, "I am unable to grade this output."
    if statements:
        return 200, json.dumps({"statements": _statements(policy, source, output)})
    quote = output[:40] or "nothing"
    if policy == "reader":
        passed, why = _reads(rubric, output)
        return 200, _verdict(passed, why, quote if passed else (output[:40] or source[:40]))
    if policy == "malformed":  # a trailing comma and a cut-off end, as models do
        return (
            200,
            '```json\n{"reasoning": "fine", "score": 0.9, "pass": true, "evidence": '
            + json.dumps(quote)
            + ",",
        )
    stamp = _RUN.search(output)
    passed = {
        "lenient": True,
        "good": True,
        "failing": False,
        "unverified": True,
        "slow": True,
        "flip": not stamp or int(stamp.group(1)) % 2 == 0,
        "flaky500": True,
        "one_letter": True,
        "elided": True,
        "trickle": True,
        "verbose": True,
    }[policy]
    if policy == "verbose":
        return 200, _verdict(True, "because " * 512, quote)
    evidence = {
        "unverified": "words that appear nowhere at all",
        "one_letter": "e",
        "elided": "a ... e",
    }.get(policy, quote)
    return 200, _verdict(passed, f"scripted {policy}", evidence)


def _verdict(passed: bool, reasoning: str, evidence: str) -> str:
    return json.dumps(
        {
            "reasoning": reasoning,
            "score": 0.9 if passed else 0.1,
            "pass": passed,
            "evidence": evidence,
            "failure_class": None if passed else "omission",
        }
    )


def _reads(rubric: str, output: str) -> tuple[bool, str]:
    from curator.judge.rules import checks

    declared = checks(rubric)
    missing = [check.label for check in declared if check.find(output) is None]
    return (
        not missing,
        f"missing {', '.join(missing)}" if missing else "the output says what the rubric asks",
    )


def _statements(policy: str, source: str, output: str) -> list[dict[str, Any]]:
    from curator.normalise import find_value, typed_values

    found = []
    for sentence in (s.strip() for s in _SENTENCE_END.split(output)):
        if not sentence:
            continue
        values = typed_values(sentence)
        supported = policy != "failing" and all(
            find_value(source, value, kind) for kind, value in values
        )
        evidence = ""
        if supported:
            spans = [find_value(source, value, kind)[0] for kind, value in values]
            start, end = spans[0] if spans else (0, min(len(source), 30))
            evidence = _line_of(source, start, end)
        found.append({"statement": sentence, "supported": supported, "evidence": evidence})
    return found


def _line_of(source: str, start: int, end: int) -> str:
    """The source line holding [start, end): a quote of a few words, as a judge gives."""
    line_end = source.find("\n", end)
    return source[source.rfind("\n", 0, start) + 1 : line_end if line_end >= 0 else None].strip()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--policy", choices=POLICIES, default="reader")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds before each answer")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # curator, for the reader policy
    server = JudgeServer(args.policy, args.latency)
    print(server.url, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
