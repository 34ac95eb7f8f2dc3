"""The hand-made Mattermost exports and chat logs are what they claim to be: Mattermost's
shapes, every attachment decodable as declared, every listed original really present, and
the structural facts true of the source (so a test comparing them after import can fail)."""

from __future__ import annotations

import base64
import json
import re
from collections import Counter
from pathlib import Path
from urllib.parse import unquote

import pytest

from curator.model import ThreadExport
from tests.data.chat import make_chat
from tests.data.mattermost import make_exports

MM = Path(make_exports.__file__).resolve().parent
CHAT = Path(make_chat.__file__).resolve().parent
EXPORTS = ("channel-export", "binary-attachment")

# json tags of Mattermost's server/public/model structs (and go-opengraph's), as read there
POST_KEYS = {
    "id",
    "create_at",
    "update_at",
    "edit_at",
    "delete_at",
    "is_pinned",
    "user_id",
    "channel_id",
    "root_id",
    "original_id",
    "message",
    "message_source",
    "type",
    "props",
    "hashtags",
    "file_ids",
    "pending_post_id",
    "has_reactions",
    "remote_id",
    "reply_count",
    "last_reply_at",
    "participants",
    "is_following",
    "metadata",
}
METADATA_KEYS = {
    "embeds",
    "emojis",
    "files",
    "images",
    "reactions",
    "priority",
    "acknowledgements",
    "expire_at",
}
REACTION_KEYS = {
    "user_id",
    "post_id",
    "emoji_name",
    "create_at",
    "update_at",
    "delete_at",
    "remote_id",
    "channel_id",
}
FILE_INFO_KEYS = {
    "id",
    "user_id",
    "post_id",
    "channel_id",
    "create_at",
    "update_at",
    "delete_at",
    "name",
    "extension",
    "size",
    "mime_type",
    "width",
    "height",
    "has_preview_image",
    "mini_preview",
    "remote_id",
    "archived",
    "extra_info",
}
USER_KEYS = {
    "id",
    "create_at",
    "update_at",
    "delete_at",
    "username",
    "password",
    "auth_data",
    "auth_service",
    "email",
    "email_verified",
    "nickname",
    "first_name",
    "last_name",
    "position",
    "roles",
    "allow_marketing",
    "props",
    "notify_props",
    "last_password_update",
    "last_picture_update",
    "failed_attempts",
    "locale",
    "timezone",
    "mfa_active",
    "mfa_secret",
    "remote_id",
    "last_activity_at",
    "is_bot",
    "bot_description",
    "bot_last_icon_update",
    "terms_of_service_id",
    "terms_of_service_create_at",
    "disable_welcome_email",
    "last_login",
}
ATTACHMENT_KEYS = {
    "id",
    "fallback",
    "color",
    "pretext",
    "author_name",
    "author_link",
    "author_icon",
    "title",
    "title_link",
    "text",
    "fields",
    "image_url",
    "thumb_url",
    "footer",
    "footer_icon",
    "ts",
    "actions",
}
OPENGRAPH_KEYS = {
    "charset",
    "type",
    "url",
    "title",
    "description",
    "determiner",
    "site_name",
    "locale",
    "locales_alternate",
    "images",
    "audios",
    "videos",
    "article",
    "book",
    "profile",
}
OG_IMAGE_KEYS = {"url", "secure_url", "type", "width", "height"}
PREVIEW_POST_KEYS = {
    "post_id",
    "post",
    "team_name",
    "channel_display_name",
    "channel_type",
    "channel_id",
}


def load(name: str) -> dict:
    return json.loads((MM / name).read_text(encoding="utf-8"))


def export(name: str = "channel-export") -> dict:
    return load(f"{name}.json")


def facts(name: str = "channel-export") -> dict:
    return load(f"{name}.originals.json")


def ordered(data: dict) -> list[dict]:
    return sorted(data["posts"].values(), key=lambda p: (p["create_at"], p["id"]))


def everything_readable(data: dict) -> str:
    """The export as text, with attachments decoded and percent-encoded URLs decoded too."""
    parts = [json.dumps(data, ensure_ascii=False)]
    for payload in data["files"].values():
        raw = base64.b64decode(payload.replace("\n", "").replace("-", "+").replace("_", "/") + "==")
        parts.append(
            raw.decode("utf-16") if raw[:2] == b"\xff\xfe" else raw.decode("utf-8", "replace")
        )
    parts.append(unquote(parts[0]))
    return "\n".join(parts)


def test_files_are_what_the_script_writes():
    for name, text in make_exports.outputs().items():
        assert (MM / name).read_text(encoding="utf-8") == text, (
            f"{name} is stale: run make_exports.py"
        )


@pytest.mark.parametrize("name", EXPORTS)
def test_exports_have_mattermost_shapes(name):
    data = export(name)
    ThreadExport.model_validate(data)  # what curator's importer accepts
    assert set(data) == {"posts", "channel", "team", "users", "file_infos", "files"}
    for key, post in data["posts"].items():
        assert key == post["id"] and set(post) <= POST_KEYS, set(post) - POST_KEYS
        assert set(post["metadata"]) <= METADATA_KEYS
        for item in post["metadata"].get("reactions", []):
            assert set(item) == REACTION_KEYS and item["post_id"] == post["id"]
        for info in post["metadata"].get("files", []):
            assert info == data["file_infos"][info["id"]]
        for embed in post["metadata"].get("embeds", []):
            if embed["type"] == "opengraph":
                assert set(embed["data"]) <= OPENGRAPH_KEYS
                for image in embed["data"]["images"]:
                    assert set(image) == OG_IMAGE_KEYS
            else:
                assert embed["type"] == "permalink" and set(embed["data"]) == PREVIEW_POST_KEYS
        for attachment in post["props"].get("attachments", []):
            assert set(attachment) <= ATTACHMENT_KEYS
    for key, user in data["users"].items():
        assert key == user["id"] and set(user) <= USER_KEYS, set(user) - USER_KEYS
    for key, info in data["file_infos"].items():
        assert key == info["id"] and set(info) <= FILE_INFO_KEYS
    ids = [
        data["channel"]["id"],
        data["team"]["id"],
        *data["users"],
        *data["posts"],
        *data["file_infos"],
    ]
    assert all(re.fullmatch(r"[a-z0-9]{26}", i) for i in ids)


def test_channel_export_has_every_phenomenon_of_issue_12():
    data = export()
    posts = ordered(data)
    messages = "\n".join(p["message"] for p in posts)
    embeds = [e for p in posts for e in p["metadata"].get("embeds", [])]
    proxy = f"https://{make_exports.SERVER}/api/v4/image?url=https%3A%2F%2F"
    assert (
        sum(
            e["type"] == "opengraph" and e["data"]["images"][0]["secure_url"].startswith(proxy)
            for e in embeds
        )
        == 2
    )
    assert any(e["type"] == "permalink" for e in embeds)
    assert f"{make_exports.SERVER}/{make_exports.TEAM}/pl/" in messages
    assert "https://github.com/" in messages and "https://docs.python.org/" in messages
    assert re.search(r"\[[^\]]+\]\(https?://", messages) and "```" in messages
    props = [p["props"] for p in posts]
    for key in (
        "attachments",
        "from_bot",
        "from_webhook",
        "override_username",
        "override_icon_url",
        "mentionHighlightDisabled",
        "disable_group_highlight",
        "previewed_post",
        "handoff",
        "card",
    ):
        assert any(key in p for p in props), key
    users = list(data["users"].values())
    assert any(u["is_bot"] if "is_bot" in u else False for u in users)
    assert any(u["delete_at"] > 0 for u in users)
    assert any(p["user_id"] == next(u["id"] for u in users if u["delete_at"]) for p in posts)
    assert all(u["position"] for u in users if not u.get("is_bot"))
    assert any(u["nickname"] for u in users)
    assert any(
        json.loads(u["props"]["customStatus"])["text"]
        for u in users
        if "customStatus" in u["props"]
    )
    assert sum("git_user" in u["props"] for u in users) >= 3
    assert {u["first_name"] for u in users} >= {"Will", "May", "Rose", "Bill", "Hope"}
    assert re.search(r"\b[A-Z]{3,} [A-Z]{3,}\b", messages)  # a name in capitals
    encodings = {v["encoding"].split(",")[0] for v in facts()["structure"]["files"].values()}
    assert len(encodings) >= 3


def test_attachments_decode_as_declared():
    data, declared = export(), facts()["structure"]["files"]
    assert set(data["files"]) == set(declared)
    for file_id, payload in data["files"].items():
        encoding, text = declared[file_id]["encoding"], declared[file_id]["text"]
        if "URL-safe" in encoding:
            assert "-" in payload or "_" in payload
            raw = base64.urlsafe_b64decode(payload)
        elif "padding stripped" in encoding:
            assert len(payload) % 4 and not payload.endswith("=")
            raw = base64.b64decode(payload + "=" * (-len(payload) % 4))
        elif "wrapped at 76" in encoding:
            lines = payload.split("\n")
            assert len(lines) > 1 and all(len(line) == 76 for line in lines[:-1])
            raw = base64.b64decode("".join(lines))
        else:
            raw = base64.b64decode(payload, validate=True)
        decoded = raw.decode("utf-16") if "UTF-16" in encoding else raw.decode("utf-8")
        if "UTF-16" in encoding:
            assert raw[:2] == b"\xff\xfe"
        assert decoded == text
        assert data["file_infos"][file_id]["size"] == len(raw)
    binary = base64.b64decode(next(iter(export("binary-attachment")["files"].values())))
    assert binary.startswith(b"\x89PNG") and b"Ingrid Solberg" in binary
    with pytest.raises(UnicodeDecodeError):
        binary.decode("utf-8")
    # no byte-order mark, and control bytes no text file holds: no encoding makes it text
    assert (
        not binary.startswith((b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf")) and b"\x00\x00" in binary
    )


@pytest.mark.parametrize("name", EXPORTS)
def test_every_listed_original_is_really_in_the_export(name):
    """Otherwise "no original survives" would hold without anonymising anything."""
    readable = everything_readable(export(name)).casefold()
    for kind, values in facts(name)["originals"].items():
        for value in values:
            assert value.casefold() in readable, f"{kind}: {value!r} is not in {name}"


def test_structural_facts_hold_for_the_source():
    data, structure = export(), facts()["structure"]
    posts = ordered(data)
    index = {p["id"]: i for i, p in enumerate(posts)}
    assert structure["posts"] == len(posts)
    assert structure["replies"] == {
        str(i): index[p["root_id"]] for i, p in enumerate(posts) if p["root_id"]
    }
    assert structure["reactions"] == {
        str(i): len(p["metadata"]["reactions"])
        for i, p in enumerate(posts)
        if p["metadata"].get("reactions")
    }
    for link in structure["permalinks"]:
        targets = re.findall(r"/pl/([a-z0-9]{26})", posts[link["post"]]["message"])
        inside = [t for t in targets if t in index]
        if link["in_export"]:
            assert index[inside[0]] == link["target"]
        else:
            assert any(t not in index for t in targets)
    for fact in facts()["word_names"]:
        message = posts[fact["post"]]["message"]
        for text in (fact["name_gone"], fact["word_kept"]):
            assert text is None or text in message, (fact, message)


def test_chat_log_generator_is_deterministic_and_well_formed():
    records = make_chat.messages()
    assert records == make_chat.messages() and len(records) == make_chat.COUNT == 1500
    assert len({r["id"] for r in records}) == len(records)
    for record in records:
        assert (
            {"author", "text", "time", "id"}
            <= set(record)
            <= {"author", "text", "time", "id", "thread"}
        )
    text = make_chat.dump(records)
    used = [value for value in make_chat.originals() if value in text]
    assert len(used) >= 0.9 * len(make_chat.originals())
    threads = Counter(r["thread"] for r in records if "thread" in r)
    assert len(threads) > 100 and max(threads.values()) > 5


def test_numeric_id_chat_log():
    lines = (CHAT / "numeric-ids.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    described = json.loads((CHAT / "numeric-ids.originals.json").read_text(encoding="utf-8"))
    ids = Counter(r["id"] for r in records)
    assert set(ids) == {str(n) for n in range(1, 11)} and max(ids.values()) >= 3
    assert Counter(r.get("thread") for r in records if "thread" in r) == Counter(
        described["structure"]["threads"]
    )
    assert len(records) == described["structure"]["messages"]
    text = "\n".join(lines)
    for values in described["originals"].values():
        for value in values:
            assert value in text, value
