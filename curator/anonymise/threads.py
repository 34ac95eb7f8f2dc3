"""Threads in the Mattermost export shape, and conversations: one consistent mapping over
every member.

Metadata is the strongest evidence: every user's names, username, nickname, email and id,
handles built from their names anywhere in their record (`props.git_user`), the channel's
and team's names and all ids are registered first, so they are found wherever they appear
(messages, quotes, @mentions, permalinks, props, link previews, JSON held in strings,
attachment text, file names). Then every text of the export goes through the rewriter;
structure (keys, types, roles: structure.py) stays as it came, and ids, keys and values
alike, are remapped by the id mapping, so posts, replies, reactions and files still point
where they did. Ids keep their length and alphabet. Attachments are decoded from whatever
base64 and text encoding they came in, rewritten and written back the same way; one that
is no text is refused.

A conversation (content kind `conversation`) is walked the same way: its messages'
contents are text read as written, a user message's `name` is registered as that person's
handle, tool calls' JSON arguments, results and metadata are texts by the same rules, and
roles are structure (structure.py). `tool_call_id` is an id, remapped as the call's own.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from curator.anonymise.attachments import read_attachment
from curator.anonymise.finders.detector import Detector
from curator.anonymise.finders.name_data import name_data
from curator.anonymise.json_strings import texts_of
from curator.anonymise.keep import NOTHING_KEPT, Keep
from curator.anonymise.rewrite import Rewriter, reserve_hits
from curator.anonymise.structure import (
    DISTINCT_ID,
    LIST,
    Part,
    is_role,
    json_held,
    key_part,
    plain_text,
    value_part,
)
from curator.anonymise.terms import TermIndex, fold_case_and_accents
from curator.anonymise.vault import NAME_PARTICLES, Vault
from curator.errors import CuratorError
from curator.model import ConversationContent, ThreadContent

# Mattermost's default channels name nobody, nor the one curator's chat log importer makes.
DEFAULT_CHANNELS = frozenset({"town-square", "off-topic", "town square", "chat-log", "chat log"})
# A direct-message channel is named after its two users' ids: those are remapped in place.
DM_NAME = re.compile(r"^[a-z0-9]{26}__[a-z0-9]{26}$")
USER_FIELDS = {
    "username": "username",
    "email": "email",
    "nickname": "nickname",
    "first_name": "first_name",
    "last_name": "last_name",
}
# Members of a user record that hold no handle of theirs (settings, machine values)
NOT_HANDLES = frozenset(
    {
        "id",
        "username",
        "email",
        "nickname",
        "first_name",
        "last_name",
        "position",
        "roles",
        "locale",
        "timezone",
        "auth_service",
        "password",
        "auth_data",
        "mfa_secret",
    }
)
HANDLE = re.compile(r"@?([A-Za-z0-9][A-Za-z0-9._-]{2,63})")


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
        for original, kind in user_values(user):
            known(original, kind)
        if user.get("position") and not user.get("is_bot"):
            wanted.append((user["position"], "position"))
        for handle in derived_handles(user):
            terms.add(handle, "username")  # given a pseudonym where one is found
            vault.reserve(handle, "username")  # never another's: "grossi" of Giuliano Rossi
    for handle in participant_names(export):
        known(handle, "username")
    # every name first, pseudonyms after: none of them may be another user's real name
    for original, kind in wanted:
        vault.reserve(original, kind)
    for original, kind in wanted:
        vault.pseudonym(original, kind)
    wanted.clear()
    for user in export.get("users", {}).values():
        reversed_name(user, vault, terms)
    for kind, record in (
        ("channel", export.get("channel") or {}),
        ("team", export.get("team") or {}),
    ):
        for key in ("id", "team_id", "creator_id"):
            known(record.get(key), "id")
        name = record.get("name")
        if isinstance(name, str) and DISTINCT_ID.fullmatch(name):
            # a group message's channel is named by a hash of its members' ids, its display
            # name is their usernames (rewritten where they stand): an id, not a word
            known(name, "id")
        elif isinstance(name, str):
            _named(record, name, kind, vault, terms)
    for post_id in sorted(export.get("posts", {})):
        post = export["posts"][post_id]
        for key in ("id", "user_id", "channel_id", "root_id", "parent_id", "original_id"):
            known(post.get(key), "id")
        for file_id in post.get("file_ids") or ():
            known(file_id, "id")
    for file_id in sorted(export.get("file_infos", {})):
        known(file_id, "id")  # its name is rewritten like any text: only where it names someone
    # ids too: none may be drawn as another's pseudonym ("m1" -> "m7" while "m7" is a post)
    for original, kind in wanted:
        vault.reserve(original, kind)
    for original, kind in wanted:
        vault.pseudonym(original, kind)
    return terms


def _named(record: dict[str, Any], name: str, kind: str, vault: Vault, terms: TermIndex) -> None:
    """A channel's or team's name and display name, with pseudonyms that read alike ("dock-
    crew" and "Dock Crew"); everyday words stay, and a direct channel's name, its users' ids, is
    remapped as they are."""
    if not name or generic_name(name) or DM_NAME.match(name):
        return
    pseudonym = vault.pseudonym(name, kind)
    terms.add(name, kind)
    display = record.get("display_name")
    if isinstance(display, str) and display and not generic_name(display):
        words = [w for w in pseudonym.replace("_", "-").split("-") if w]
        vault.assign(display, kind, " ".join(w.title() for w in words))
        terms.add(display, kind)


def participant_names(export: dict[str, Any]) -> list[str]:
    """The `name`s a conversation's user messages give their writer (a handle): a tool's or
    an assistant's name names no person."""
    return [
        message["name"]
        for message in export.get("messages") or ()
        if isinstance(message, dict)
        and message.get("role") == "user"
        and isinstance(message.get("name"), str)
    ]


def reserve_people(contents: Sequence[Any], vault: Vault) -> None:
    """Reserve the names of every thread's user records (and every conversation's named
    participants) before the first thread draws a pseudonym: a log split into many threads
    must never hand one thread's person another's real name (found at 100,000 people: an
    early draw took a later thread's "Roseanne")."""
    for content in contents:
        if isinstance(content, ThreadContent):
            reserve_users(
                content.model_dump(mode="json")["export"].get("users", {}).values(), vault
            )
        elif isinstance(content, ConversationContent):
            for handle in participant_names(content.model_dump(mode="json")):
                if handle.strip():
                    vault.reserve(handle, "username")


def reserve_users(users: Iterable[dict[str, Any]], vault: Vault) -> None:
    """Reserve the names of user records (as a thread export holds them, dumped as JSON):
    what `reserve_people` does for threads, for an export read a thread at a time, whose
    people are gathered by a first pass over it."""
    for user in users:
        for original, kind in user_values(user):
            if original.strip():
                vault.reserve(original, kind)
        for handle in derived_handles(user):
            vault.reserve(handle, "username")
        # the surname-first order `reversed_name` learns later is spelt otherwise: "Rose
        # Änne" of "Änne Rose" is "roseanne", which an earlier draw gave to "Dany"
        first, last = (user.get("first_name") or "").strip(), (user.get("last_name") or "").strip()
        if first and last and user_values(user):
            vault.reserve(f"{last} {first}", "person")


def user_values(user: dict[str, Any]) -> list[tuple[str, str]]:
    """(original, kind) of every value naming a user: names alone and together, nickname,
    username, e-mail and handles built from the names. A bot's names name no one (people its
    posts mention are found in their text), nor a chat role's (`assistant`)."""
    if user.get("is_bot") or is_role(user):
        return []
    first, last = (user.get("first_name") or "").strip(), (user.get("last_name") or "").strip()
    last_words = [w for w in last.split() if w.casefold() not in NAME_PARTICLES]
    values = [(word, "first_name") for word in first.split()]
    values += [(word, "first_name") for word in last_words[:-1]]
    if last_words:
        values.append((last_words[-1], "last_name"))
    if first and last:
        values.append((f"{first} {last}", "person"))
    values += [(user.get(key) or "", key) for key in ("nickname", "username", "email")]
    values += [(handle, "username") for handle in handles(user)]
    return values


def derived_handles(user: dict[str, Any]) -> list[str]:
    """The usernames people build from a name ("kmensah", "kwame.mensah", "kwamem"): a
    member's other accounts (a CI login, a repository fork) are found where the export
    never lists them."""
    first, last = _name_words(user, "first_name"), _name_words(user, "last_name")
    if user.get("is_bot") or not first or not last:
        return []
    given, family = fold_case_and_accents(first[0]), fold_case_and_accents("".join(last))
    forms = {
        given[0] + family,
        given + family,
        given + "." + family,
        given + "_" + family,
        given + "-" + family,
        given + family[0],
        given[0] + "." + family,
    }
    return sorted(form for form in forms if len(form) >= 5)


def reversed_name(user: dict[str, Any], vault: Vault, terms: TermIndex) -> None:
    """ "Solberg, Ingrid" and "Phan Thu Ha" (surname first) get the same words' pseudonyms,
    surname first too."""
    first, last = (user.get("first_name") or "").strip(), (user.get("last_name") or "").strip()
    if user.get("is_bot") or not first or not last:
        return
    pseudonym = vault.lookup(f"{first} {last}", "person")
    if pseudonym is None:
        return
    first_count = len(first.split())
    words = pseudonym.split()
    original = f"{last} {first}"
    vault.assign(original, "person", " ".join(words[first_count:] + words[:first_count]))
    terms.add(original, "person")


def _name_words(user: dict[str, Any], key: str) -> list[str]:
    return [
        w
        for w in re.findall(r"[^\W\d_]+", user.get(key) or "")
        if w.casefold() not in NAME_PARTICLES
    ]


def handles(user: dict[str, Any]) -> list[str]:
    """Handles in a user record built from the user's own names: `props.git_user`
    "isolberg-fr" for Ingrid Solberg, whatever member holds it (no fixed list of keys)."""
    names = {
        fold_case_and_accents(w)
        for key in ("first_name", "last_name")
        for w in re.findall(r"[^\W\d_]+", user.get(key) or "")
    }
    names = {n for n in names if len(n) >= 3}
    if not names:
        return []
    known = {
        fold_case_and_accents(str(user.get(key) or "")) for key in ("username", "email", "nickname")
    }
    found = []
    for key, value in user.items():
        if key in NOT_HANDLES:
            continue
        for _, text in texts_of(value, ""):
            for piece in re.split(r"[\s,;]+", text):
                match = HANDLE.fullmatch(piece)
                if (
                    match
                    and fold_case_and_accents(match.group(1)) not in known
                    and any(n in fold_case_and_accents(match.group(1)) for n in names)
                ):
                    found.append(match.group(1))
    return found


GENERIC_WORDS = frozenset(
    {
        "dev",
        "devs",
        "ops",
        "eng",
        "engineering",
        "sales",
        "marketing",
        "random",
        "general",
        "support",
        "help",
        "alerts",
        "announcements",
        "oncall",
        "incidents",
    }
)


def generic_name(name: str) -> bool:
    """A channel or team named with everyday words ("general", "dev-ops", "core", "webapp")
    names nobody: kept, and not hunted in text, where "in general" would otherwise count as a
    leak."""
    words = [w.casefold() for w in re.findall(r"[^\W_]+", name)]
    return name.lower() in DEFAULT_CHANNELS or all(_everyday(w) for w in words)


EVERYDAY = 3.5  # Zipf frequency of an everyday word (finders.names.ORDINARY)
NAME_SOURCES = 6  # a word this many name lists hold is a name first ("john", "mark")


def _everyday(word: str) -> bool:
    """An everyday word that is no common name, or two of them glued ("webapp", "frontend")."""
    from curator.anonymise.pseudonyms import common_words

    if word in GENERIC_WORDS or word in common_words():
        return True
    data = name_data()
    if max(data.first.get(word, 0), data.last.get(word, 0)) >= NAME_SOURCES:
        return False
    if data.most_ordinary(word) >= EVERYDAY:
        return True
    return any(
        data.most_ordinary(word[:k]) >= EVERYDAY
        and data.most_ordinary(word[k:]) >= EVERYDAY
        and max(data.first.get(part, 0) for part in (word[:k], word[k:])) < NAME_SOURCES
        for k in range(3, len(word) - 2)
    )


def _remapped(_: str) -> bool:
    """Every id: the id mapping gives it its pseudonym, the text rewriter never reads it."""
    return True


class ThreadRewriter:
    """One export's rewriting: its terms registered once, its strings rewritten each round."""

    def __init__(
        self,
        export: dict[str, Any],
        vault: Vault,
        detector: Detector,
        extra_texts: Sequence[str] = (),
        keep: Keep = NOTHING_KEPT,
    ) -> None:
        self.vault = vault
        self.detector = detector
        self.keep = keep
        # the texts: ids are remapped (`id`), never read as text
        self.strings = [text for _, text in texts_of(export, "", ours=_remapped)] + list(
            extra_texts
        )
        reserve_hits(vault, detector, self.strings)
        self.terms = thread_terms(export, vault)
        self.export = export
        self._built_from: tuple[int, int] | None = None
        self.rewriter = self.new_rewriter()

    def new_rewriter(self) -> Rewriter:
        """A rewriter that knows every original the vault holds now (a new round). The last
        one serves again while the vault has not changed since it was built: it would
        rewrite every text the same."""
        state = (self.vault.added, self.vault.generation)
        if state == self._built_from:
            return self.rewriter
        self.rewriter = Rewriter(
            self.vault, self.terms, self.detector, ids=True, keep=self.keep, raw_input=True
        )
        self._built_from = state
        self.rewriter.prefetch(self.strings)
        return self.rewriter

    def id(self, value: str) -> str:
        """An id's pseudonym; one that is already a pseudonym stays (a second pass)."""
        known = self.vault.lookup(value, "id")
        if known is not None or self.vault.is_pseudonym(value):
            return known or value
        return self.vault.pseudonym(value, "id")

    def conversation(self) -> ConversationContent:
        """The conversation (given as `export`) rewritten: the same walk, roles untouched."""
        return ConversationContent.model_validate(self.walk(self.export, ()))

    def content(self, content: ThreadContent) -> ThreadContent:
        new_export = self.walk(self.export, ())
        if isinstance(self.export.get("files"), dict):
            new_export["files"] = {
                self.id(k): self._file(k, v) for k, v in self.export["files"].items()
            }
        channel = new_export.get("channel")
        if isinstance(channel, dict) and DM_NAME.match(str(channel.get("name"))):
            # Mattermost names a direct channel after its users' ids in order: remapped, they
            # are put in order again
            channel["name"] = "__".join(sorted(channel["name"].split("__")))
        return ThreadContent.model_validate(
            {
                "kind": "thread",
                "export": new_export,
                "orphan_post_ids": [self.id(p) for p in content.orphan_post_ids],
            }
        )

    def walk(self, value: Any, path: tuple[str, ...]) -> Any:
        """A JSON value rewritten where structure.py says it is text; ids remapped."""
        container = path[-1] if path else None
        if isinstance(value, dict):
            return {
                self._key(container, key): self._member(key, item, value, (*path, str(key)))
                for key, item in value.items()
            }
        if isinstance(value, list):
            return [self.walk(item, (*path, LIST)) for item in value]
        if isinstance(value, str):
            return self.string(value, path)
        return value

    def _key(self, container: str | None, key: str) -> str:
        part = key_part(container, key)
        if part is Part.ID:
            return self.id(key)
        # a member name stays; a key that is a value (a URL of metadata.images) is rewritten
        return self.rewriter.text(key) if part is Part.TEXT else key

    def _member(self, key: str, item: Any, record: dict[str, Any], path: tuple[str, ...]) -> Any:
        part = value_part(path[-2] if len(path) > 1 else None, key, record)
        if part is Part.STRUCTURE or (path[:1] == ("files",) and len(path) == 2):
            return item  # structure stays; attachments are replaced whole in content()
        if part is Part.ID and isinstance(item, str):
            return self.id(item) if item else item
        if part is Part.ID and isinstance(item, list):
            return [
                self.id(v) if isinstance(v, str) and v else self.walk(v, (*path, LIST))
                for v in item
            ]
        if key == "position" and isinstance(item, str) and "users" in path and item:
            return self.vault.pseudonym(item, "position")
        if path[:1] == ("users",) and key in USER_FIELDS and isinstance(item, str) and item:
            # record fields directly: short ones ("Al", "cc") are too short to hunt in text
            found = self.vault.lookup(item, USER_FIELDS[key])
            if found is not None:
                return found
        if plain_text(path[-2] if len(path) > 1 else None, key) and isinstance(item, str):
            # plain text even when it looks like JSON: label spans point into it as written
            return self.rewriter.text(item)
        return self.walk(item, path)

    def string(self, text: str, path: tuple[str, ...] = ()) -> str:
        inner = json_held(text)
        if inner is None:
            return self.rewriter.text(text)
        compact = ": " not in text and ", " not in text
        dumped = json.dumps(
            self.walk(inner, path),
            ensure_ascii=False,
            separators=(",", ":") if compact else (", ", ": "),
        )
        return text[: len(text) - len(text.lstrip())] + dumped + text[len(text.rstrip()) :]

    def _file(self, file_id: str, payload: Any) -> Any:
        """Attachment bytes: text is rewritten like a message and written back as it came."""
        if payload is None or payload == "":
            return payload
        attachment = read_attachment(payload)
        if attachment is None:
            info = (self.export.get("file_infos") or {}).get(file_id) or {}
            name = info.get("name") if isinstance(info, dict) else None
            raise CuratorError(
                f"attachment {name or file_id!r} (files.{file_id}) is not text in any encoding "
                "curator reads (an image or other binary file): it cannot be anonymised, so the "
                "export is refused; "
                'remove it from the export\'s "files" and import again'
            )
        return attachment.encode(self.string(attachment.text))
