"""A loopback stand-in for the few Langfuse server endpoints the SDK's dataset calls use.

The Langfuse server cannot be installed from PyPI, npm or Debian, so --push and the docs'
loader line are tested against this: it answers POST /api/public/v2/datasets and POST
/api/public/dataset-items in the shapes of the SDK's Dataset and DatasetItem, records every
request (method, path, Basic-auth user, JSON body) and answers anything else 404.
"""

from __future__ import annotations

import base64
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

NOW = "2024-01-01T00:00:00.000Z"


class LangfuseStub:
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"null")
                auth = self.headers.get("Authorization", "")
                user = (
                    base64.b64decode(auth.split(" ", 1)[1]).decode().split(":")[0] if auth else ""
                )
                stub.requests.append({"path": self.path, "user": user, "body": body})
                if self.path == "/api/public/v2/datasets":
                    self._answer(
                        {
                            "id": "ds-1",
                            "name": body["name"],
                            "description": None,
                            "metadata": body.get("metadata"),
                            "projectId": "p-1",
                            "createdAt": NOW,
                            "updatedAt": NOW,
                        }
                    )
                elif self.path == "/api/public/dataset-items":
                    self._answer(
                        {
                            "id": body.get("id"),
                            "status": "ACTIVE",
                            "input": body.get("input"),
                            "expectedOutput": body.get("expectedOutput"),
                            "metadata": body.get("metadata"),
                            "datasetId": "ds-1",
                            "datasetName": body.get("datasetName"),
                            "createdAt": NOW,
                            "updatedAt": NOW,
                            "mediaReferences": [],
                        }
                    )
                else:
                    self.send_error(404)

            def do_GET(self) -> None:
                stub.requests.append({"path": self.path, "user": "", "body": None})
                self.send_error(404)

            def _answer(self, data: dict[str, Any]) -> None:
                payload = json.dumps(data).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> LangfuseStub:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def items(self) -> list[dict[str, Any]]:
        return [r["body"] for r in self.requests if r["path"] == "/api/public/dataset-items"]
