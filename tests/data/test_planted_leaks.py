"""A store in which each kind of leak issue 12 lists was planted by hand after import: `curator
audit` finds every one (exit 1, naming file and location) and `curator bundle build` refuses.

The leaks are planted into the stored files as a careless tool or hand edit would: a name in
capitals in a transcript's list of appearances, a colleague named in a message, a GitHub
handle in a user's props, text in attachments whose base64 is unpadded, wrapped at 76,
URL-safe or UTF-16, a real name in a rubric and a reason, a card, an IBAN and a phone number.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from curator.store import Store
from tests.conftest import run_cli, snapshot
from tests.data.mattermost import make_exports
from tests.ingest.conftest import EXAMPLES

MM = Path(make_exports.__file__).resolve().parent
NOTE = "Renewal approved by Kwame Mensah.\n"
LONG = base64.b64encode((NOTE * 3).encode()).decode()
ATTACHMENTS = {
    "unpadded": base64.b64encode(NOTE.encode()).decode().rstrip("="),
    "wrapped": "\n".join(LONG[i : i + 76] for i in range(0, len(LONG), 76)),
    "url-safe": base64.urlsafe_b64encode(("~~?" + NOTE).encode()).decode(),
    "utf-16": base64.b64encode(b"\xff\xfe" + NOTE.encode("utf-16-le")).decode(),
}


def _write_json(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


@pytest.fixture
def planted(store, monkeypatch) -> tuple[Store, dict[str, tuple[str, str]]]:
    """An imported thread and lease with leaks planted; {what: (location fragment, leaked text)}."""
    monkeypatch.setenv("CURATOR_VAULT_KEY", "cGxhbnRlZCBsZWFrcyBhZnRlciBpbXBvcnQhISEhIQ==")
    thread = run_cli("import", str(MM / "channel-export.json"), "--json", store=store.root)
    lease = run_cli(
        "import",
        str(EXAMPLES / "pdfs" / "lease-maple.pdf"),
        "--doc-type",
        "lease",
        "--json",
        store=store.root,
    )
    assert thread.exit_code == 0 and lease.exit_code == 0, thread.stderr + lease.stderr
    thread_id = json.loads(thread.stdout)["created"][0]["id"]
    lease_id = json.loads(lease.stdout)["created"][0]["id"]
    assert run_cli("audit", store=store.root).exit_code == 0
    where: dict[str, tuple[str, str]] = {}

    path = store.directory(lease_id) / "content.json"
    content = json.loads(path.read_text(encoding="utf-8"))
    content["content"]["pages"][0]["text"] += (
        "\n\nAPPEARANCES:\n  INGRID SOLBERG, WARDEN\n  MAY FERREIRA, ESQ.\n"
    )
    _write_json(path, content)
    where["name in capitals in a transcript"] = (
        f"{lease_id}/content.json.content.pages[0].text",
        "INGRID SOLBERG",
    )

    labels = store.directory(lease_id) / "labels.jsonl"
    revision = json.loads(labels.read_text(encoding="utf-8").splitlines()[-1])
    revision.update(
        rev=revision["rev"] + 1,
        rubrics=[{"text": "Ingrid Solberg signed as warden", "evidence_posts": []}],
        reason="asked Will Hartley",
    )
    with labels.open("a", encoding="utf-8") as out:
        out.write(json.dumps(revision) + "\n")
    where["real name in a rubric"] = (
        f"{lease_id}/labels.jsonl:2.rubrics[0].text",
        "Ingrid Solberg",
    )
    where["real name in a reason"] = (f"{lease_id}/labels.jsonl:2.reason", "Will Hartley")

    path = store.directory(thread_id) / "content.json"
    content = json.loads(path.read_text(encoding="utf-8"))
    export = content["content"]["export"]
    posts = sorted(export["posts"], key=lambda p: export["posts"][p]["create_at"])
    export["posts"][posts[1]]["message"] += " Oskar Lindqvist will cover."
    where["colleague named in a message"] = (f".posts.{posts[1]}.message", "Oskar Lindqvist")
    export["posts"][posts[2]]["message"] += (
        " card 4111 1111 1111 1111, IBAN DE89 3704 0044 0532 0130 00, +44 7911 204877"
    )
    where["card"] = (f".posts.{posts[2]}.message", "4111 1111 1111 1111")
    where["iban"] = (f".posts.{posts[2]}.message", "DE89 3704 0044 0532 0130 00")
    where["phone"] = (f".posts.{posts[2]}.message", "+44 7911 204877")
    user = sorted(export["users"])[0]
    export["users"][user]["props"]["git_user"] = "isolberg-fr"
    where["git_user in props"] = (f".users.{user}.props.git_user", "isolberg-fr")
    for (name, payload), file_id in zip(ATTACHMENTS.items(), sorted(export["files"]), strict=False):
        export["files"][file_id] = payload
        where[f"{name} attachment"] = (f".files.{file_id}(decoded)", "Kwame Mensah")
    _write_json(path, content)
    return store, where


def test_the_audit_finds_every_planted_leak_naming_file_and_location(planted):
    store, where = planted
    run = run_cli("audit", "--json", store=store.root)
    assert run.exit_code == 1
    leaks = json.loads(run.stdout)["leaks"]
    missed = [
        what
        for what, (location, text) in where.items()
        if not any(location in leak["location"] and leak["text"] == text for leak in leaks)
    ]
    assert missed == []
    assert all(leak["location"].startswith(("goldens/", "adversarial/")) for leak in leaks)


def test_a_bundle_of_a_store_with_planted_leaks_is_refused(planted):
    store, _ = planted
    before = snapshot(store.root)
    run = run_cli("bundle", "build", "1.0.0", "--status", "draft", store=store.root)
    assert run.exit_code == 2 and "refusing to bundle" in run.stderr
    assert snapshot(store.root) == before
