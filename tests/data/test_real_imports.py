"""Real-shaped inputs from other hands (tests/data/README.md) import whole and keep nothing
personal.

- the Mattermost channel export with every phenomenon of issue 12 item 5: no listed original
  in the store (attachments decoded, percent-encoded URLs decoded) or in a bundle built from it,
  permalinks resolved, replies, reactions, deleted and bot users and attachment encodings kept;
- the export with a binary attachment: refused in one line, nothing written;
- the 1,500-message chat log and the log whose ids are "1".."10" in every thread: imported whole.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote

import pytest

from curator.anonymise import read_attachment
from curator.store import Store
from tests.conftest import run_cli, snapshot
from tests.data.chat import make_chat
from tests.data.mattermost import make_exports

MM = Path(make_exports.__file__).resolve().parent
CHAT = Path(make_chat.__file__).resolve().parent


@pytest.fixture(autouse=True)
def fixed_vault_key(monkeypatch):
    """The same pseudonyms every run: a survivor check by whole words cannot meet a pseudonym
    that happens to contain an original ("Phan" in "Stephanie") by chance of the key."""
    monkeypatch.setenv("CURATOR_VAULT_KEY", "cmVhbCBpbnB1dHMgZnJvbSBvdGhlciBoYW5kcyEhIQ==")


def survivors(originals: list[str], text: str) -> list[str]:
    """Originals found in `text` as whole words, ignoring case."""
    return [
        o
        for o in originals
        if re.search(r"(?<![^\W_])" + re.escape(o) + r"(?![^\W_])", text, re.IGNORECASE)
    ]


def readable(root: Path) -> str:
    """Every file under `root` as text, attachments decoded and percent-encoded URLs decoded."""
    parts = []
    for path in sorted(p for p in root.rglob("*") if p.is_file() and ".curator" not in p.parts):
        if path.suffix not in (".json", ".jsonl", ".md", ".txt", ".csv"):
            continue
        text = path.read_text(encoding="utf-8")
        parts += [text, unquote(text)]
        if path.suffix in (".json", ".jsonl"):
            for line in text.splitlines() if path.suffix == ".jsonl" else [text]:
                if line.strip():
                    parts += [attachment.text for attachment in _attachments(json.loads(line))]
    return "\n".join(parts)


def _attachments(data: object):
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "files" and isinstance(value, dict):
                yield from (a for a in map(read_attachment, value.values()) if a is not None)
            else:
                yield from _attachments(value)
    elif isinstance(data, list):
        for value in data:
            yield from _attachments(value)


def _import(store: Store, source: Path, *args: str) -> str:
    run = run_cli("import", str(source), *args, "--json", store=store.root)
    assert run.exit_code == 0, run.stderr
    [created] = json.loads(run.stdout)["created"]
    return created["id"]


def _facts(name: str) -> dict:
    return json.loads((MM / f"{name}.originals.json").read_text(encoding="utf-8"))


def _ordered(export: dict) -> list[dict]:
    return sorted(export["posts"].values(), key=lambda p: (p["create_at"], p["id"]))


@pytest.fixture(scope="module")
def channel(tmp_path_factory) -> tuple[Store, str, dict]:
    import os

    os.environ["CURATOR_VAULT_KEY"] = "cmVhbCBpbnB1dHMgZnJvbSBvdGhlciBoYW5kcyEhIQ=="
    try:
        store = Store.init(tmp_path_factory.mktemp("mm") / "store")
        fixture_id = _import(store, MM / "channel-export.json")
        built = run_cli("bundle", "build", "1.0.0", "--status", "draft", store=store.root)
        assert built.exit_code == 0, built.stderr
    finally:
        del os.environ["CURATOR_VAULT_KEY"]
    content = json.loads((store.directory(fixture_id) / "content.json").read_text(encoding="utf-8"))
    return store, fixture_id, content["content"]["export"]


def _all_originals(name: str) -> list[str]:
    return [value for values in _facts(name)["originals"].values() for value in values]


def test_no_original_of_the_channel_export_is_left_in_the_store_or_its_bundle(channel):
    store, _, _ = channel
    assert survivors(_all_originals("channel-export"), readable(store.root)) == []
    assert run_cli("audit", store=store.root).exit_code == 0


def test_no_address_of_the_channel_export_is_left(channel):
    store, _, _ = channel
    assert survivors(_facts("channel-export")["originals"]["addresses"], readable(store.root)) == []


def test_reply_structure_reactions_and_users_are_unchanged(channel):
    _, _, export = channel
    structure = _facts("channel-export")["structure"]
    posts = _ordered(export)
    index = {p["id"]: i for i, p in enumerate(posts)}
    assert len(posts) == structure["posts"]
    assert {str(i): index[p["root_id"]] for i, p in enumerate(posts) if p["root_id"]} == structure[
        "replies"
    ]
    assert {
        str(i): len(p["metadata"]["reactions"])
        for i, p in enumerate(posts)
        if p["metadata"].get("reactions")
    } == structure["reactions"]
    for post in posts:
        for reaction in post["metadata"].get("reactions", []):
            assert reaction["post_id"] == post["id"] and reaction["user_id"] in export["users"]
    deleted = [u for u in export["users"].values() if u["delete_at"] > 0]
    bots = [u for u in export["users"].values() if u.get("is_bot")]
    assert len(deleted) == 1 and any(p["user_id"] == deleted[0]["id"] for p in posts)
    assert len(bots) == 1 and any(p["user_id"] == bots[0]["id"] for p in posts)
    assert set(structure["files"]).isdisjoint(export["files"]) and len(export["files"]) == len(
        structure["files"]
    )


def test_permalinks_point_at_the_new_id_of_their_post(channel):
    _, _, export = channel
    posts = _ordered(export)
    for link in _facts("channel-export")["structure"]["permalinks"]:
        post = posts[link["post"]]
        targets = re.findall(r"/pl/([a-z0-9]{26})", post["message"])
        if link["in_export"]:
            target = posts[link["target"]]["id"]
            assert target in targets
            assert post["props"]["previewed_post"] == target
            assert post["metadata"]["embeds"][0]["data"]["post_id"] == target
            assert post["metadata"]["embeds"][0]["data"]["post"]["id"] == target
        else:
            assert any(t not in export["posts"] for t in targets)


def test_link_previews_keep_their_shape_and_proxy_urls_stay_encoded(channel):
    _, _, export = channel
    posts = _ordered(export)
    for preview in _facts("channel-export")["structure"]["link_previews"]:
        [embed] = [
            e for e in posts[preview["post"]]["metadata"]["embeds"] if e["type"] == "opengraph"
        ]
        secure = embed["data"]["images"][0]["secure_url"]
        assert re.fullmatch(
            r"https://[a-z-]+\.example/api/v4/image\?url=https%3A%2F%2F[^/]+", secure
        ), secure
        assert unquote(secure.split("url=", 1)[1]) == embed["data"]["images"][0]["url"]


def test_public_hosts_stay_and_ordinary_words_that_are_names_stay_words(channel):
    store, _, export = channel
    facts = _facts("channel-export")
    text = readable(store.root)
    for host in facts["kept"]["public_hosts"]:
        assert host in text, host
    for url in facts["kept"]["public_urls"]:
        assert url in text
    posts = _ordered(export)
    for fact in facts["word_names"]:
        message = posts[fact["post"]]["message"]
        assert fact["name_gone"] is None or fact["name_gone"] not in message, (fact, message)
        assert fact["word_kept"] is None or fact["word_kept"] in message, (fact, message)


def test_attachments_are_stored_in_the_encoding_they_came_in(channel):
    _, _, export = channel
    declared = _facts("channel-export")["structure"]["files"]
    by_name = {export["file_infos"][fid]["name"]: fid for fid in export["files"]}
    for original in declared.values():
        stored = [
            fid
            for name, fid in by_name.items()
            if name.rsplit(".", 1)[-1] == original["name"].rsplit(".", 1)[-1]
            and name.endswith(original["name"].split("-")[-1])
        ]
        assert stored, original["name"]
        attachment = read_attachment(export["files"][stored[0]])
        assert attachment is not None
        assert attachment.text.count("\n") == original["text"].count("\n")
        encoding = original["encoding"]
        assert attachment.url_safe == ("URL-safe" in encoding)
        stripped = "padding stripped" in encoding
        # its text (as rewritten) may need no padding: nothing then tells it from a padded one
        needs_padding = len(attachment.text.encode(attachment.codec)) % 3 != 0
        assert attachment.padded == (not stripped or not needs_padding)
        assert (attachment.wrap == 76) == ("wrapped at 76" in encoding)
        assert attachment.codec.startswith("utf-16") == ("UTF-16" in encoding)


def test_a_binary_attachment_is_refused_in_one_line_and_nothing_is_written(store):
    before = snapshot(store.root)
    run = run_cli("import", str(MM / "binary-attachment.json"), store=store.root)
    assert run.exit_code == 2
    assert run.stderr.count("\n") == 1 and run.stderr.startswith(
        "curator: error: binary-attachment.json: attachment"
    )
    assert snapshot(store.root) == before


def test_the_1500_message_chat_log_imports_whole(store, tmp_path):
    log = tmp_path / "office-chat.jsonl"
    log.write_text(make_chat.dump(make_chat.messages()), encoding="utf-8")
    fixture_id = _import(store, log)
    export = store.load(fixture_id).content.export
    assert len(export.posts) == make_chat.COUNT
    replies = sum(1 for m in make_chat.messages() if m.get("thread") not in (None, m["id"]))
    assert sum(1 for p in export.posts.values() if p.root_id) == replies
    assert survivors(make_chat.originals(), readable(store.directory(fixture_id))) == []
    assert run_cli("audit", store=store.root).exit_code == 0


def test_a_chat_log_with_ids_repeated_across_threads_imports(store):
    source = CHAT / "numeric-ids.jsonl"
    facts = json.loads((CHAT / "numeric-ids.originals.json").read_text(encoding="utf-8"))
    fixture_id = _import(store, source)
    export = store.load(fixture_id).content.export
    structure = facts["structure"]
    assert len(export.posts) == structure["messages"]
    roots = [p for p in export.posts.values() if not p.root_id]
    threads = {
        root.id: 1 + sum(1 for p in export.posts.values() if p.root_id == root.id) for root in roots
    }
    assert sorted(threads.values()) == sorted(
        [*structure["threads"].values(), *[1] * structure["top_level"]]
    )
    messages = [p.message for p in export.posts.values()]
    for text in structure["kept_text"]:
        assert text in messages, text
    originals = [v for values in facts["originals"].values() for v in values]
    assert survivors(originals, readable(store.directory(fixture_id))) == []
    assert run_cli("audit", store=store.root).exit_code == 0
