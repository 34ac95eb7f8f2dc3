"""Structure is never personal data: keys, roles, types, enum-like values and ids' shape are
never rewritten (whatever the vault holds) and never judged by the audit; text still is."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

import pytest

from curator.anonymise import Vault, anonymise, find_leaks, skeleton, texts_of, threads
from curator.errors import CuratorError
from curator.ingest.api import import_sources
from curator.ingest.chat_jsonl import parse_chat_jsonl
from curator.ingest.source import RawSource
from curator.model import CHAT_ROLES, ThreadContent
from tests.anonymise.synth import ORDINARY_WORDS, member_names
from tests.conftest import REPO, snapshot


def filled_vault(words=ORDINARY_WORDS) -> Vault:
    vault = Vault(hashlib.sha256(b"structure test key").digest())
    for word in words:
        for kind in ("first_name", "last_name", "username", "id", "channel"):
            vault.pseudonym(word.title() if kind.endswith("name") else word, kind)
    return vault


def test_a_vault_of_ordinary_words_changes_no_key_type_or_id_shape(thread):
    vault = filled_vault()
    result = anonymise(thread, vault)
    before, after = thread.model_dump(mode="json"), result.content.model_dump(mode="json")
    assert member_names(after) == member_names(before)
    assert skeleton(after) == skeleton(before)
    posts = after["export"]["posts"].values()
    assert all("user_id" in post and post["user_id"] in after["export"]["users"] for post in posts)
    # text is still rewritten: the members' real names are gone
    first = next(iter(thread.export.users.values())).first_name
    assert first and first not in json.dumps(after)


def test_the_audit_never_judges_keys_structure_or_curators_provenance():
    vault = filled_vault(["Doc", "Display", "Maria"])
    fixture = {
        "kind": "document",
        "doc_type": "lease",
        "status": "draft",
        "provenance": {"kept_hosts": ["display.example.org"], "kept": ["Doc"]},
        "pages": [{"number": 1, "origin": "text-layer", "language": "doc", "text": "no one"}],
        "export": {"channel": {"display_name": "Support", "type": "display"}},
    }
    assert find_leaks(texts_of(fixture, "fixture.json"), vault) == []
    # the same word in text is judged: the test can fail
    fixture["pages"][0]["text"] = "Signed by Maria Display"
    leaks = find_leaks(texts_of(fixture, "fixture.json"), vault)
    assert [leak.location for leak in leaks] == ["fixture.json.pages[0].text"] * len(leaks)
    assert leaks


def test_a_key_that_is_a_value_is_judged_a_member_name_is_not():
    vault = filled_vault(["Kwame", "Mensah"])
    vault.pseudonym("kwame.mensah@globex.io", "email")
    data = {"props": {"kwame_mensah": True, "kwame.mensah@globex.io": True}}
    leaks = find_leaks(texts_of(data, "content.json"), vault)
    assert [leak.text for leak in leaks] == ["kwame.mensah@globex.io"]


def test_chat_roles_are_kept_and_never_enter_the_vault():
    lines = [
        {"author": "user", "text": "Can Greta Lindholm sign the form?", "time": 1},
        {"author": "assistant", "text": "Yes, Greta can sign it.", "time": 2, "role": "assistant"},
        {"author": "Greta Lindholm", "text": "Signed.", "time": 3},
    ]
    raw = RawSource(Path("bot.jsonl"), "\n".join(json.dumps(m) for m in lines).encode())
    [parsed] = parse_chat_jsonl(raw)
    vault = filled_vault([])
    result = anonymise(parsed.content, vault)
    export = result.content.export
    names = {user.username for user in export.users.values()}
    assert {"assistant", "user"} < names and "Greta Lindholm" not in names
    assert not CHAT_ROLES & {entry.original.casefold() for entry in vault.entries()}
    assert "Greta" in {entry.original for entry in vault.entries()}
    assert [post.model_extra.get("role") for post in export.ordered_posts()][1] == "assistant"
    assert export.channel["name"] == "chat-log"  # the importer's own channel names nobody


def test_json_held_in_a_string_keeps_its_keys(thread):
    export = copy.deepcopy(thread.model_dump(mode="json")["export"])
    post = next(iter(export["posts"].values()))
    post["props"]["card"] = json.dumps({"user_id": "x", "display_name": "Doc"})
    vault = filled_vault()
    content = ThreadContent.model_validate({"kind": "thread", "export": export})
    result = anonymise(content, vault)
    card = next(iter(result.content.export.posts.values())).props["card"]
    assert set(json.loads(card)) == {"user_id", "display_name"}


def test_an_id_the_vault_handed_out_is_no_number_in_curators_own_warnings():
    vault = filled_vault([])
    # the id pseudonym derived from this vault's key for this original passes an IBAN's checksum
    author = vault.pseudonym("dcze6x61u8bya96f6bzwpnkzkq", "id")
    assert author == "my94il192t1awol44rbh3ahwwh"
    warning = (
        f"post ts56zc4pz0lx9xf26gk7zx5b4c: author {author} is not in users "
        "(deleted user or bot); post kept"
    )
    another = Vault(hashlib.sha256(b"another key").digest())
    found = find_leaks([("fixture.json.warnings[0]", warning)], another)
    assert [leak.kind for leak in found] == ["iban"]  # random letters and digits pass its checksum
    assert find_leaks([("fixture.json.warnings[0]", warning)], vault) == []


def test_an_import_whose_anonymisation_changed_structure_is_refused(store, monkeypatch):
    key = threads.ThreadRewriter._key

    def renaming(self, container, name):  # fault injection: a rewriter that renames a key
        return "ewing_id" if name == "user_id" else key(self, container, name)

    monkeypatch.setattr(threads.ThreadRewriter, "_key", renaming)
    before = snapshot(store.root)
    with pytest.raises(CuratorError, match="changed the structure of the content"):
        import_sources(store, [REPO / "examples" / "threads" / "lease-question.json"])
    assert snapshot(store.root) == before
