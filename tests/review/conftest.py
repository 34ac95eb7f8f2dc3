"""Review tests run against a real Label Studio server that this file starts and stops.

One template data directory is migrated per session (slow: a minute or more), one server
is started from a copy of it and shared by every test; each test gets its own store with
its own name, so its projects on the server are its own.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest
from labelstudio_server import Browser, migrate_template, start_server

from curator.store import Store

LABELLER_PASSWORD = "labeller-password-123"


@pytest.fixture(scope="session")
def ls_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # CURATOR_LS_TEMPLATE (optional) keeps a migrated template between local runs.
    cached = os.environ.get("CURATOR_LS_TEMPLATE")
    if cached and (Path(cached) / "label_studio.sqlite3").is_file():
        return Path(cached)
    target = Path(cached) if cached else tmp_path_factory.mktemp("ls-template") / "data"
    try:
        return migrate_template(target)
    except RuntimeError as error:
        pytest.fail(str(error), pytrace=False)


@pytest.fixture(scope="session")
def ls_server(ls_template: Path, tmp_path_factory: pytest.TempPathFactory):
    try:
        server = start_server(ls_template, tmp_path_factory.mktemp("ls-server"))
    except RuntimeError as error:
        pytest.fail(str(error), pytrace=False)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def admin(ls_server):
    """The lead's SDK client, authenticated with the legacy token."""
    from label_studio_sdk import LabelStudio

    return LabelStudio(base_url=ls_server.url, api_key=ls_server.legacy_token)


@pytest.fixture(scope="session")
def personal_token(admin) -> str:
    """A personal access token (a JWT refresh token) made through the API, as in the UI."""
    return admin.tokens.create().token


def _labeller(ls_server, admin, name: str) -> Browser:
    browser = Browser(ls_server.url)
    invite = admin.organizations.invites.get_invite_link()
    browser.signup(invite.token, f"{name}@curator.test", LABELLER_PASSWORD)
    return browser


@pytest.fixture(scope="session")
def alice(ls_server, admin):
    browser = _labeller(ls_server, admin, "alice")
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def bob(ls_server, admin):
    browser = _labeller(ls_server, admin, "bob")
    yield browser
    browser.close()


@pytest.fixture
def review_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Store:
    """A fresh store with a name of its own (so its Label Studio projects are its own)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    store = Store.init(tmp_path / "store")
    config = store.root / "curator.toml"
    name = f"t{uuid.uuid4().hex[:8]}"
    config.write_text(config.read_text().replace('name = "golden-set"', f'name = "{name}"'))
    return Store(store.root)
