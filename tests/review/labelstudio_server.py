"""A real Label Studio server for the review tests: started, used, stopped.

The first start of Label Studio migrates a fresh SQLite database, which takes a minute or
more on a small machine. `migrate_template` does that once per test session; every server
then starts from a copy of the migrated data directory. The admin user, its legacy token
and the organisation's token settings come from Label Studio's own environment variables.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[2]
DEFAULT_BIN = REPO / ".ls-venv" / "bin" / "label-studio"
ADMIN_EMAIL = "lead@curator.test"
ADMIN_PASSWORD = "lead-password-123"
# A legacy token: any string Label Studio stores as the user's DRF token (longer than 5).
LEGACY_TOKEN = "curator0test0legacy0token0123456789abcd"
MIGRATE_TIMEOUT = 900.0
START_TIMEOUT = 300.0


def label_studio_bin() -> Path:
    """The label-studio executable, or a clear failure (CI installs it with `make test`)."""
    path = Path(os.environ.get("LABEL_STUDIO_BIN") or DEFAULT_BIN)
    if not path.is_file() or not os.access(path, os.X_OK):
        raise RuntimeError(
            f"Label Studio not found at {path}: run `make test` (it installs label-studio into "
            ".ls-venv) or set LABEL_STUDIO_BIN to a label-studio executable"
        )
    return path


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _environment(data_dir: Path, port: int | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LABEL_STUDIO_", "HEARTEX_"))}
    env.update(
        LABEL_STUDIO_BASE_DATA_DIR=str(data_dir),
        LABEL_STUDIO_USERNAME=ADMIN_EMAIL,
        LABEL_STUDIO_PASSWORD=ADMIN_PASSWORD,
        LABEL_STUDIO_USER_TOKEN=LEGACY_TOKEN,
        # Personal access tokens are on by default; legacy tokens must be enabled for the org.
        LABEL_STUDIO_ENABLE_LEGACY_API_TOKEN="true",
        # Labellers join through the invite link only, as in a real deployment.
        LABEL_STUDIO_DISABLE_SIGNUP_WITHOUT_LINK="true",
        LABEL_STUDIO_LATEST_VERSION_CHECK="false",
        LABEL_STUDIO_COLLECT_ANALYTICS="false",
        SENTRY_DSN="",
        FRONTEND_SENTRY_DSN="",
        DJANGO_DB="sqlite",
        LOG_LEVEL="WARNING",
        HOME=str(data_dir / "home"),
    )
    if port is not None:
        env["LABEL_STUDIO_PORT"] = str(port)
    return env


def migrate_template(directory: Path) -> Path:
    """Migrate one data directory (slow, once per session); servers start from copies."""
    binary = label_studio_bin()
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "home").mkdir(exist_ok=True)
    log = directory.parent / "migrate.log"
    with open(log, "wb") as out:
        # `version` applies the migrations and exits without starting a web server.
        done = subprocess.run(
            [str(binary), "version", "--data-dir", str(directory)],
            env=_environment(directory),
            stdout=out,
            stderr=subprocess.STDOUT,
            timeout=MIGRATE_TIMEOUT,
            check=False,
        )
    if done.returncode != 0 or not (directory / "label_studio.sqlite3").is_file():
        raise RuntimeError(f"Label Studio migration failed ({done.returncode}): {_tail(log)}")
    return directory


@dataclass
class Server:
    url: str
    legacy_token: str
    data_dir: Path
    process: subprocess.Popen
    log: Path
    admin_email: str = ADMIN_EMAIL
    admin_password: str = ADMIN_PASSWORD
    extra: dict = field(default_factory=dict)

    def stop(self) -> None:
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(timeout=20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(self.process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.process.wait(timeout=20)


def start_server(template: Path, workdir: Path) -> Server:
    """Copy the template data dir and start Label Studio on a free loopback port."""
    binary = label_studio_bin()
    data_dir = workdir / "data"
    shutil.copytree(template, data_dir)
    port = free_port()
    log = workdir / "server.log"
    out = open(log, "wb")  # noqa: SIM115 - closed with the process
    process = subprocess.Popen(
        [
            str(binary),
            "start",
            "--no-browser",
            "--internal-host",
            "127.0.0.1",
            "--port",
            str(port),
            "--data-dir",
            str(data_dir),
        ],
        env=_environment(data_dir, port),
        stdout=out,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group, so stop() ends every child
    )
    out.close()
    url = f"http://127.0.0.1:{port}"
    server = Server(url=url, legacy_token=LEGACY_TOKEN, data_dir=data_dir, process=process, log=log)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"Label Studio exited with {process.returncode}: {_tail(log)}")
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(1)
    server.stop()
    raise RuntimeError(f"Label Studio did not become healthy in {START_TIMEOUT:.0f}s: {_tail(log)}")


def _tail(path: Path, lines: int = 15) -> str:
    try:
        return " | ".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


# ---------------------------------------------------------------- acting like a browser


class Browser:
    """A labeller in a web browser: a session cookie and Django's CSRF token, no API key."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.http = httpx.Client(base_url=url, timeout=30, follow_redirects=True)

    def _csrf(self, path: str) -> str:
        page = self.http.get(path)
        page.raise_for_status()
        token = self.http.cookies.get("csrftoken")
        if not token:
            found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
            token = found.group(1) if found else ""
        return token

    def signup(self, invite_token: str, email: str, password: str) -> None:
        path = f"/user/signup/?token={invite_token}"
        csrf = self._csrf(path)
        done = self.http.post(
            path,
            data={
                "csrfmiddlewaretoken": csrf,
                "email": email,
                "password": password,
                "how_find_us": "Other",
                "elaborate": "tests",
                "allow_newsletters": "false",
            },
            headers={"Referer": f"{self.url}{path}", "X-CSRFToken": csrf},
        )
        done.raise_for_status()
        if self.http.get("/api/current-user/whoami").status_code != 200:
            raise RuntimeError(f"sign-up of {email} did not log in: {done.text[:300]}")

    def login(self, email: str, password: str) -> None:
        csrf = self._csrf("/user/login/")
        self.http.post(
            "/user/login/",
            data={"csrfmiddlewaretoken": csrf, "email": email, "password": password},
            headers={"Referer": f"{self.url}/user/login/", "X-CSRFToken": csrf},
        ).raise_for_status()
        if self.http.get("/api/current-user/whoami").status_code != 200:
            raise RuntimeError(f"login of {email} failed")

    def api(self, method: str, path: str, **kwargs: object) -> httpx.Response:
        headers = {
            "X-CSRFToken": self.http.cookies.get("csrftoken") or "",
            "Referer": self.url + "/",
        }
        response = self.http.request(method, path, headers=headers, **kwargs)
        if response.status_code >= 400:
            raise RuntimeError(f"{method} {path}: {response.status_code} {response.text[:300]}")
        return response

    def annotate(self, task_id: int, result: list[dict]) -> dict:
        """Submit an annotation on a task, as the labelling UI does when one clicks Submit."""
        return self.api(
            "POST",
            f"/api/tasks/{task_id}/annotations/",
            json={"result": result, "task": task_id, "lead_time": 12.5},
        ).json()

    def close(self) -> None:
        self.http.close()
