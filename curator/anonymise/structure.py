"""What in a fixture is structure and what is text: the one definition the rewriter, the audit
and the bundle leak gate share.

Only text is anonymised and judged. Structure is what a consumer parses rather than reads,
and a word the vault learned elsewhere ("user", "doc", "display") must never reach it:

- member names (JSON keys). A key is a value only in a map keyed by values: ids (the keys of
  a thread's `posts`, `users`, `file_infos` and `files`, and any key shaped like a Mattermost
  id or a UUID), and keys no member name is made of (`metadata.images` is keyed by URLs, a
  webhook may key by e-mail);
- types, roles, statuses and other enum-like values, machine values (times, hashes), and
  curator's own provenance records (what it kept, which vault, how many entries);
- a chat log's role authors (`user`, `assistant`, `system`, `tool`) and a conversation
  message's `role`: roles, not people;
- ids. The rewriter remaps them with the vault's id mapping, never with a text rule, so
  their shape and the links between them stay; a checker judges an id only when it is no id
  pseudonym of the vault (a fixture's own id is a slug made from its text).

A thread holds JSON in strings too (a prop, an attachment): it is read as JSON, by the same
rules. A post's `message` and a conversation message's `content` are text even when they
look like JSON (a tool's result often is): label spans point into them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from enum import Enum
from typing import Any

from curator.model import CHAT_ROLES


class Part(Enum):
    TEXT = "text"  # anonymised and judged
    ID = "id"  # remapped by the id mapping; judged unless it is the vault's own id pseudonym
    STRUCTURE = "structure"  # never rewritten, never judged


# The container of a list's items: a list under "posts" is no map of posts.
LIST = "[]"
# A member name: what JSON keys of a schema are made of ("user_id", "displayName", "2").
MEMBER_NAME = re.compile(r"[A-Za-z0-9_]+")
# Maps keyed by ids: a thread export's posts, users and files.
ID_MAPS = frozenset({"posts", "users", "file_infos", "files"})
# An id by its shape alone, wherever it stands: Mattermost's 26 characters, a UUID.
DISTINCT_ID = re.compile(r"(?=.*[a-z])(?=.*\d)[a-z0-9]{20,}|[0-9a-fA-F]{8}-[0-9a-fA-F-]{27}")
ID_MEMBERS = frozenset(
    {
        "id",
        "user_id",
        "post_id",
        "root_id",
        "parent_id",
        "channel_id",
        "team_id",
        "creator_id",
        "original_id",
        "file_id",
        "pending_post_id",
        "remote_id",
        "file_ids",
        "order",
        "orphan_post_ids",
        "evidence_posts",
        "post",
        "tool_call_id",
    }
)
STRUCTURAL_MEMBERS = frozenset(
    {
        # types, roles and enum-like values
        "type",
        "kind",
        "role",
        "roles",
        "status",
        "origin",
        "language",
        "locale",
        "timezone",
        "category",
        "doc_type",
        "mime_type",
        "extension",
        "format",
        "auth_service",
        "from_webhook",
        "from_bot",
        "from_plugin",
        "importer",
        "failure_mode",
        "mutation_kinds",
        "conflict_fields",
        # machine values
        "schema_version",
        "sha256",
        "source_sha256",
        "line_sha256",
        "created_at",
        "imported_at",
        "time",
        "observed_at",
        "create_at",
        "update_at",
        "edit_at",
        "delete_at",
        # a tracing tool's ids: the link back to the production call, kept as they came
        # (a promoted failure's provenance, a known-bad answer)
        "trace_id",
        "span_id",
    }
)
# A fixture's provenance records of what curator itself did: its decisions, not input data.
CURATOR_RECORDS = frozenset({"kept", "kept_hosts", "vault_id", "vault_entries"})
# A user record's members that would name a person: a role author has none of them.
NAMING_MEMBERS = ("first_name", "last_name", "nickname", "email", "position")


def key_part(container: str | None, key: str) -> Part:
    """What the key `key` of a map held under member `container` is (`LIST` for a list's
    items, None at the top)."""
    if container in ID_MAPS or DISTINCT_ID.fullmatch(key):
        return Part.ID
    return Part.STRUCTURE if MEMBER_NAME.fullmatch(key) else Part.TEXT


def value_part(container: str | None, key: str, record: Mapping[str, Any]) -> Part:
    """What the value of member `key` of `record` (a map held under `container`) is. A
    container value that is TEXT is walked, member by member."""
    if key in STRUCTURAL_MEMBERS:
        return Part.STRUCTURE
    if container == "provenance" and key in CURATOR_RECORDS:
        return Part.STRUCTURE
    if key in ID_MEMBERS:
        return Part.ID
    if key == "username" and is_role(record):
        return Part.STRUCTURE
    return Part.TEXT


def is_role(user: Mapping[str, Any]) -> bool:
    """A user record standing for a chat role (the `assistant` of a chatbot transcript)."""
    username = user.get("username")
    return (
        isinstance(username, str)
        and username.strip().casefold() in CHAT_ROLES
        and not any(user.get(member) for member in NAMING_MEMBERS)
    )


def plain_text(container: str | None, key: str) -> bool:
    """Whether member `key` of a map held under `container` is a message's text, read as
    written (never as the JSON it may hold): a post's `message`, a chat message's `content`."""
    return key == "message" or (key == "content" and container == LIST)


def json_held(text: str) -> dict[str, Any] | list[Any] | None:
    """The JSON object or array a string holds, else None."""
    stripped = text.strip()
    if not (stripped[:1] in "{[" and stripped[-1:] in "}]"):
        return None
    try:
        inner = json.loads(text)
    except ValueError:
        return None
    return inner if isinstance(inner, dict | list) else None


def id_shape(value: str) -> str:
    """What the id mapping keeps of an id: its separators (letters and digits are redrawn)."""
    return re.sub(r"[A-Za-z0-9]+", "x", value)


def skeleton(data: Any, container: str | None = None) -> Any:
    """The structure of a JSON value: member names, structural values, ids' shapes, and a
    marker for each text. Anonymising never changes it (ingest checks it on every import)."""
    if isinstance(data, dict):
        members = []
        for key, value in data.items():
            part = key_part(container, key)
            name = "<text>" if part is Part.TEXT else id_shape(key) if part is Part.ID else key
            members.append([name, _member_skeleton(container, key, value, data)])
        return members
    if isinstance(data, list):
        return [skeleton(item, LIST) for item in data]
    if isinstance(data, str):
        inner = json_held(data)
        return "<text>" if inner is None else skeleton(inner, container)
    return data


def _member_skeleton(container: str | None, key: str, value: Any, record: Mapping[str, Any]) -> Any:
    part = value_part(container, key, record)
    if part is Part.STRUCTURE:
        return value
    if part is Part.ID and isinstance(value, str):
        return id_shape(value)
    if part is Part.ID and isinstance(value, list):
        return [id_shape(v) if isinstance(v, str) else skeleton(v, LIST) for v in value]
    if plain_text(container, key) and isinstance(value, str):
        return "<text>"
    if key == "files" and isinstance(value, dict):
        return [[id_shape(k), "<attachment>"] for k in value]
    return skeleton(value, key)
