"""Talking to Label Studio through label-studio-sdk 2.x, with faults as one clear line.

The SDK's `LabelStudio(base_url, api_key)` takes either kind of key: a personal access
token is a JWT refresh token, which the SDK exchanges for short-lived access tokens
(`Authorization: Bearer`); anything else is sent as a legacy token (`Authorization:
Token`). The key is held by the SDK client only: never printed, logged or stored, and no
error message built here contains it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from curator.errors import CuratorError
from curator.json_input import parse

URL_ENV = "LABEL_STUDIO_URL"
# Visible ASCII only: what an HTTP header value (and a URL) may hold.
_HEADER_SAFE = re.compile(r"[\x21-\x7e]+")
KEY_ENV = "LABEL_STUDIO_API_KEY"
TIMEOUT_SECONDS = 30.0
PAGE_SIZE = 100


@contextmanager
def translated(url: str, doing: str) -> Iterator[None]:
    """Turn whatever the SDK or httpx raises into one CuratorError line naming what failed."""
    import httpx
    from label_studio_sdk.core.api_error import ApiError
    from pydantic import ValidationError

    try:
        yield
    except CuratorError:
        raise
    except ApiError as error:
        raise CuratorError(_api_error_line(url, doing, error)) from None
    except httpx.TimeoutException:
        raise CuratorError(f"Label Studio at {url} did not answer in time while {doing}") from None
    except (httpx.ConnectError, httpx.RemoteProtocolError, httpx.ReadError) as error:
        reason = str(error).split("] ")[-1] or type(error).__name__
        raise CuratorError(
            f"cannot reach Label Studio at {url} while {doing} ({reason}); "
            "is the server running and the URL right?"
        ) from None
    except (httpx.UnsupportedProtocol, httpx.InvalidURL):
        raise CuratorError(
            f"not a usable Label Studio URL: {url!r} (expected http://host:port)"
        ) from None
    except (json.JSONDecodeError, ValidationError, KeyError, TypeError):
        raise CuratorError(
            f"{url} does not answer like a Label Studio API while {doing}; is the URL right?"
        ) from None


def _api_error_line(url: str, doing: str, error: Any) -> str:
    status = error.status_code
    if status in (401, 403):
        return (
            f"Label Studio at {url} refused the API key ({status}) while {doing}; check "
            f"--api-key / {KEY_ENV} (a personal access token or a legacy token)"
        )
    if status is not None and status < 400:
        # The SDK raises with the success status when the body is not the JSON it expects.
        return f"{url} does not answer like a Label Studio API while {doing}; is the URL right?"
    if status == 404:
        return f"Label Studio at {url} answered 404 while {doing}; is the URL right?"
    return f"Label Studio at {url} failed with HTTP {status} while {doing}"


@dataclass
class Connection:
    """A checked connection: the SDK client and the URL it talks to."""

    url: str
    client: Any  # label_studio_sdk.LabelStudio, imported lazily

    def doing(self, what: str) -> Any:
        return translated(self.url, what)

    # ------------------------------------------------------------ projects

    def find_project(self, title: str) -> Any | None:
        with self.doing(f"looking for project {title!r}"):
            for project in self.client.projects.list(title=title, page_size=PAGE_SIZE):
                if project.title == title:
                    return self.client.projects.get(id=project.id)
        return None

    def project(self, project_id: int) -> Any | None:
        from label_studio_sdk.core.api_error import ApiError

        with self.doing(f"reading project {project_id}"):
            try:
                return self.client.projects.get(id=project_id)
            except ApiError as error:
                if error.status_code == 404:
                    return None
                raise

    def create_project(
        self, title: str, label_config: str, description: str, model_version: str, instructions: str
    ) -> Any:
        with self.doing(f"creating project {title!r}"):
            return self.client.projects.create(
                title=title,
                label_config=label_config,
                description=description,
                model_version=model_version,
                show_collab_predictions=True,
                expert_instruction=instructions,
                show_instruction=True,
            )

    def set_instructions(self, project_id: int, instructions: str) -> None:
        with self.doing(f"updating the instructions of project {project_id}"):
            self.client.projects.update(
                id=project_id, expert_instruction=instructions, show_instruction=True
            )

    def set_config(self, project_id: int, label_config: str) -> None:
        with self.doing(f"updating the labeling config of project {project_id}"):
            self.client.projects.update(id=project_id, label_config=label_config)

    # ------------------------------------------------------------ tasks

    def tasks(self, project_id: int) -> list[tuple[int, dict[str, Any]]]:
        """(task id, data) of every task in a project, a page at a time."""
        found = []
        with self.doing(f"listing the tasks of project {project_id}"):
            for task in self.client.tasks.list(
                project=project_id, fields="task_only", page_size=PAGE_SIZE
            ):
                found.append((int(task.id), dict(task.data or {})))
        return found

    def import_tasks(self, project_id: int, tasks: list[dict[str, Any]]) -> None:
        with self.doing(f"importing {len(tasks)} tasks into project {project_id}"):
            self.client.projects.import_tasks(id=project_id, request=tasks, return_task_ids=True)

    def update_data(self, task_id: int, data: dict[str, Any]) -> None:
        with self.doing(f"updating task {task_id}"):
            self.client.tasks.update(id=str(task_id), data=data)

    def update_task(self, task_id: int, data: dict[str, Any], prediction: dict[str, Any]) -> None:
        """New data and a fresh pre-annotation; the labellers' annotations stay."""
        with self.doing(f"updating task {task_id}"):
            self.client.tasks.update(id=str(task_id), data=data)
            for old in self.client.predictions.list(task=task_id):
                if old.model_version == prediction["model_version"]:
                    self.client.predictions.delete(id=old.id)  # ours only, not an ML backend's
            self.client.predictions.create(
                task=task_id, result=prediction["result"], model_version=prediction["model_version"]
            )

    def export(self, project_id: int, task_ids: list[int]) -> list[dict[str, Any]]:
        """Annotated tasks among `task_ids`, through the export API (one request)."""
        with self.doing(f"exporting annotations of project {project_id}"):
            # The server reads `ids[]`; the SDK's own `ids` argument is sent as `ids` and
            # ignored (every annotated task comes back), so the ids go as extra parameters.
            raw = b"".join(
                self.client.projects.exports.download_sync(
                    id=project_id,
                    export_type="JSON",
                    download_all_tasks=False,
                    request_options={
                        "additional_query_parameters": {"ids[]": [str(i) for i in task_ids]}
                    },
                )
            )
            exported = parse(raw or b"[]", f"{self.url} export")
        if not isinstance(exported, list):
            raise CuratorError(f"{self.url} sent an export that is not a list of tasks")
        return exported

    def users(self) -> dict[int, str]:
        """User id -> how curator names an annotator: email, else username."""
        with self.doing("listing users"):
            return {
                int(u.id): (u.email or u.username or f"user-{u.id}")
                for u in self.client.users.list()
            }


def connect(
    url: str | None, api_key: str | None, *, timeout: float = TIMEOUT_SECONDS
) -> Connection:
    """A connection checked by asking the server who we are: bad URL or key fail here."""
    if not url:
        raise CuratorError(f"no Label Studio URL: give --url or set {URL_ENV}")
    if not api_key:
        raise CuratorError(f"no Label Studio API key: give --api-key or set {KEY_ENV}")
    key = api_key.strip()
    if not _HEADER_SAFE.fullmatch(key):
        # Checked before anything is sent: an HTTP library refusing the header would quote it.
        raise CuratorError(
            f"the Label Studio API key holds a character no HTTP header can carry (a space, "
            f"a line break or a non-ASCII character); check --api-key / {KEY_ENV}"
        )
    url = url.strip().rstrip("/")
    if not url.startswith(("http://", "https://")) or not _HEADER_SAFE.fullmatch(url):
        raise CuratorError(
            f"not a usable Label Studio URL: {shown_url(url)!r} (expected http://host:port)"
        )
    with translated(shown_url(url), "connecting"):
        from label_studio_sdk import LabelStudio

        client = LabelStudio(base_url=url, api_key=key, timeout=timeout)
        client.users.whoami()
    return Connection(url=shown_url(url), client=client)


def shown_url(url: str) -> str:
    """The URL as messages show it: without a user name and password (http://user:pw@host)."""
    scheme, sep, rest = url.partition("://")
    host, slash, path = rest.partition("/")
    return f"{scheme}{sep}{host.rpartition('@')[2]}{slash}{path}" if sep else url
