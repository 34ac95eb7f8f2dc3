"""Threads in the Mattermost export shape: one consistent mapping over every member.

Metadata is the strongest evidence: every user's names, username, nickname, email and id,
the channel's and team's names, file names and all ids are registered first, so they are
found wherever they appear (messages, quotes, @mentions, permalinks, props, JSON held in
strings, attachment text). Then every string of the export goes through the rewriter; dict
keys that are ids are remapped too, so posts, replies, reactions and files still point where
they did. Ids keep their length and alphabet.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Sequence
from typing import Any

from curator.anonymise.detect import Detector
from curator.anonymise.rewrite import Rewriter, reserve_hits, vault_terms
from curator.anonymise.strings import decoded_text, strings_of
from curator.anonymise.terms import TermIndex
from curator.anonymise.vault import Vault
from curator.model import ThreadContent

# Mattermost's default channels name nobody.
DEFAULT_CHANNELS = frozenset({"town-square", "off-topic", "town square"})
# A direct-message channel is named after its two users' ids: those are remapped in place.
DM_NAME = re.compile(r"^[a-z0-9]{26}__[a-z0-9]{26}$")
USER_FIELDS = {"username": "username", "email": "email", "nickname": "nickname",
               "first_name": "first_name", "last_name": "last_name"}
ID_KEYS = frozenset({"id", "user_id", "post_id", "root_id", "parent_id", "channel_id", "team_id",
                     "creator_id", "original_id", "file_id", "pending_post_id", "remote_id"})


def thread_terms(export: dict[str, Any], vault: Vault) -> TermIndex:
    """Register every name and id the export's records know; return them as search terms."""
    terms = TermIndex()
    wanted: list[tuple[str, str]] = []

    def known(original: Any, kind: str) -> None:
        # A record's values are real even when one happens to equal a pseudonym made earlier
        # (the audit will then report that pseudonym: a false alarm beats a leak). Only ids,
        # random 26-char strings, are recognised as ours, so ids survive a second pass.
        if kind == "id" and isinstance(original, str) and vault.is_pseudonym(original):
            return
        if isinstance(original, str) and original.strip():
            wanted.append((original, kind))
            terms.add(original, kind)

    for user_id in sorted(export.get("users", {})):
        user = export["users"][user_id]
        known(user.get("id") or user_id, "id")
        first, last = (user.get("first_name") or "").strip(), (user.get("last_name") or "").strip()
        for word in first.split():
            known(word, "first_name")
        for word in last.split()[:-1]:
            known(word, "first_name")
        if last:
            known(last.split()[-1], "last_name")
        if first and last:
            known(f"{first} {last}", "person")
        known(user.get("nickname"), "nickname")
        known(user.get("username"), "username")
        known(user.get("email"), "email")
        if user.get("position"):
            wanted.append((user["position"], "position"))
    # every name first, pseudonyms after: none of them may be another user's real name
    for original, kind in wanted:
        vault.reserve(original, kind)
    for original, kind in wanted:
        vault.pseudonym(original, kind)
    wanted.clear()
    for kind, record in (("channel", export.get("channel") or {}), ("team", export.get("team") or {})):
        for key in ("id", "team_id", "creator_id"):
            known(record.get(key), "id")
        name = record.get("name")
        if isinstance(name, str) and name and not generic_name(name) and not DM_NAME.match(name):
            pseudonym = vault.pseudonym(name, kind)
            terms.add(name, kind)
            display = record.get("display_name")
            if isinstance(display, str) and display and not generic_name(display):
                words = [w for w in pseudonym.replace("_", "-").split("-") if w]
                vault.assign(display, kind, " ".join(w.title() for w in words))
                terms.add(display, kind)
    for post_id in sorted(export.get("posts", {})):
        post = export["posts"][post_id]
        for key in ("id", "user_id", "channel_id", "root_id", "parent_id", "original_id"):
            known(post.get(key), "id")
        for file_id in post.get("file_ids") or ():
            known(file_id, "id")
    for file_id in sorted(export.get("file_infos", {})):
        info = export["file_infos"][file_id]
        known(file_id, "id")
        if isinstance(info, dict):
            known(info.get("name"), "file")
    for original, kind in wanted:
        vault.pseudonym(original, kind)
    return terms


GENERIC_WORDS = frozenset({"dev", "devs", "ops", "eng", "engineering", "sales", "marketing", "random",
                           "general", "support", "help", "alerts", "announcements", "oncall", "incidents"})


def generic_name(name: str) -> bool:
    """A channel or team named with everyday words ("general", "dev-ops") names nobody: kept,
    and not hunted in text, where "in general" would otherwise count as a leak."""
    from curator.anonymise.pseudonyms import common_words

    words = [w.casefold() for w in re.findall(r"[^\W_]+", name)]
    return name.lower() in DEFAULT_CHANNELS or all(w in GENERIC_WORDS or w in common_words() for w in words)


class ThreadRewriter:
    def __init__(self, export: dict[str, Any], vault: Vault, detector: Detector,
                 extra_texts: Sequence[str] = ()) -> None:
        self.vault = vault
        self.strings = [text for _, text in strings_of(export, "")] + list(extra_texts)
        reserve_hits(vault, detector, self.strings)
        self.terms = thread_terms(export, vault)
        self.rewriter = Rewriter(vault, vault_terms(vault, self.terms), detector, ids=True)
        self.export = export

    def id(self, value: str) -> str:
        if self.vault.is_pseudonym(value):
            return value
        return self.vault.lookup(value, "id") or self.vault.pseudonym(value, "id")

    def content(self, content: ThreadContent) -> ThreadContent:
        new_export = self.walk(self.export, ())
        if isinstance(self.export.get("files"), dict):
            new_export["files"] = {self.id(k): self._file(v) for k, v in self.export["files"].items()}
        return ThreadContent.model_validate({
            "kind": "thread",
            "export": new_export,
            "orphan_post_ids": [self.id(p) for p in content.orphan_post_ids],
        })

    def walk(self, value: Any, path: tuple[str, ...]) -> Any:
        if isinstance(value, dict):
            out = {}
            for key, item in value.items():
                # keys can be ids (posts, users), URLs (metadata.images) or names: rewrite them too
                new_key = (self.vault.lookup(key, "id") or self.rewriter.text(key)) if isinstance(key, str) else key
                out[new_key] = self._member(key, item, (*path, str(key)))
            return out
        if isinstance(value, list):
            return [self.walk(item, path) for item in value]
        if isinstance(value, str):
            return self.string(value, path)
        return value

    def _member(self, key: str, item: Any, path: tuple[str, ...]) -> Any:
        if path[:1] == ("files",) and len(path) == 2:
            return item  # replaced whole in content()
        if key == "position" and isinstance(item, str) and "users" in path and item:
            return self.vault.pseudonym(item, "position")
        if path[:1] == ("users",) and key in USER_FIELDS and isinstance(item, str) and item:
            # record fields directly: short ones ("Al", "cc") are too short to hunt in text
            found = self.vault.lookup(item, USER_FIELDS[key])
            if found is not None:
                return found
        if key == "message" and isinstance(item, str):
            # plain text even when it looks like JSON: label spans point into it as written
            return self.rewriter.text(item)
        if key in ID_KEYS and isinstance(item, str) and item:
            known = self.vault.lookup(item, "id")
            if known:
                return known
        return self.walk(item, path)

    def string(self, text: str, path: tuple[str, ...] = ()) -> str:
        stripped = text.strip()
        if stripped[:1] in "{[" and stripped[-1:] in "}]":
            try:
                inner = json.loads(text)
            except ValueError:
                inner = None
            if isinstance(inner, dict | list):
                compact = ": " not in text and ", " not in text
                return json.dumps(self.walk(inner, path), ensure_ascii=False,
                                  separators=(",", ":") if compact else (", ", ": "))
        return self.rewriter.text(text)

    def _file(self, payload: str) -> str:
        """Attachment bytes: text files are rewritten like messages; binary ones are kept."""
        text = decoded_text(payload)
        if text is None:
            return payload
        return base64.b64encode(self.string(text).encode("utf-8")).decode("ascii")
