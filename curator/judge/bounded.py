"""One HTTP exchange under a total deadline and a size cap: what a judge call may cost.

httpx's timeouts bound each network operation, not their sum: a server that sends a valid
reply one byte a second never trips a read timeout, and one that sends 50 MB is read
whole. So the exchange (connect, send, wait, read) runs in a thread of its own that the
caller waits for no longer than the deadline; the thread reads the body in chunks, stops
once the bytes pass the cap (or the deadline passes, or the caller gave up), and keeps
nothing beyond the cap. An abandoned exchange ends at its next chunk or within httpx's own
timeouts (each no longer than the deadline), so no thread outlives its call for long.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from typing import Any

from curator.limits import size_text


class DeadlineExceeded(Exception):
    """The exchange did not finish within its deadline."""


class TooLarge(Exception):
    """The reply is larger than the cap: it is refused, and what was read is dropped."""


@dataclass(frozen=True)
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


def post_json(
    client: Any, path: str, body: dict[str, Any], *, deadline: float, max_bytes: int
) -> Reply:
    """POST `body` as JSON and read the reply: at most `deadline` seconds in all and
    `max_bytes` of body. DeadlineExceeded, TooLarge, or httpx's own errors."""
    payload = json.dumps(body).encode("utf-8")
    outcome: dict[str, Any] = {}
    finished = threading.Event()
    gave_up = threading.Event()
    ends_at = time.monotonic() + deadline

    def exchange() -> None:
        try:
            outcome["reply"] = _exchange(
                client, path, payload, deadline, ends_at, max_bytes, gave_up
            )
        except BaseException as error:  # handed to the caller, raised there
            outcome["error"] = error
        finally:
            finished.set()

    threading.Thread(target=exchange, name="judge-call", daemon=True).start()
    if not finished.wait(deadline):
        gave_up.set()
        raise DeadlineExceeded(f"no reply within {deadline:g}s")
    if "error" in outcome:
        raise outcome["error"]
    reply: Reply = outcome["reply"]
    return reply


def _exchange(
    client: Any,
    path: str,
    payload: bytes,
    deadline: float,
    ends_at: float,
    max_bytes: int,
    gave_up: threading.Event,
) -> Reply:
    import httpx

    headers = {"content-type": "application/json"}
    timeout = httpx.Timeout(deadline)
    with client.stream("POST", path, content=payload, headers=headers, timeout=timeout) as response:
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > max_bytes:
            raise TooLarge(_too_large(int(declared), max_bytes))
        chunks, size = [], 0
        for chunk in response.iter_bytes():
            size += len(chunk)
            if size > max_bytes:
                raise TooLarge(_too_large(size, max_bytes, at_least=True))
            if gave_up.is_set() or time.monotonic() > ends_at:
                raise DeadlineExceeded(f"no reply within {deadline:g}s")
            chunks.append(chunk)
        return Reply(response.status_code, dict(response.headers), b"".join(chunks))


def _too_large(size: int, max_bytes: int, *, at_least: bool = False) -> str:
    how_big = "over the cap" if at_least else f"{size_text(size)}, over the cap"
    return (
        f"the judge server's reply is {how_big} of {size_text(max_bytes)} ([judge] max_reply_bytes)"
    )
