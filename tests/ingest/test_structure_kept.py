"""Property: whatever the vault holds, an import's structure is that of a fresh import.

For every importer (a Mattermost thread file, a chat log, a chatbot transcript whose authors
are roles, a PDF's text layer), and any vault contents (ordinary words that structure is made
of, such as "user", "doc", "display", "type", "id", plus random words, as names, usernames,
ids, channels, ...), the imported fixture's member names, structural values and ids' shapes
(`curator.anonymise.skeleton`) and its fixture and label structure equal those of an import
into a store with an empty vault."""

from __future__ import annotations

import json
import string
import tempfile
from functools import cache
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from curator.anonymise import Vault, skeleton
from curator.ingest.api import import_sources
from curator.store import Store
from tests.anonymise.synth import ORDINARY_WORDS, member_names
from tests.ingest.conftest import EXAMPLES

BOT = [
    {"author": "system", "text": "You are a helpful travel assistant.", "time": 1},
    {"author": "user", "text": "My name is Dana Whitfield, where should I go?", "time": 2},
    {"author": "assistant", "text": "Hello Dana! Somewhere warm?", "time": 3, "role": "assistant"},
    {"author": "tool", "text": '{"type": "search", "display": "Lisbon"}', "time": 4},
]
KINDS = ["first_name", "last_name", "username", "person", "id", "channel", "team", "organisation"]
WORDS = st.one_of(
    st.sampled_from(ORDINARY_WORDS), st.text(string.ascii_lowercase, min_size=2, max_size=9)
)
VAULTS = st.lists(st.tuples(WORDS, st.sampled_from(KINDS), st.booleans()), max_size=12)
EVERY_ORDINARY_WORD = [(word, kind, True) for word in ORDINARY_WORDS for kind in KINDS]


def sources(folder: Path) -> dict[str, Path]:
    bot = folder / "chatbot.jsonl"
    bot.write_text("\n".join(json.dumps(line) for line in BOT) + "\n", encoding="utf-8")
    return {
        "mattermost": EXAMPLES / "threads" / "lease-question.json",
        "chat-jsonl": EXAMPLES / "chat" / "office-chat.jsonl",
        "chatbot": bot,
        "pdf": EXAMPLES / "pdfs" / "lease-aspen.pdf",
    }


def imported(vault_words: list[tuple[str, str, bool]]) -> dict[str, object]:
    """Each source imported into its own new store whose vault holds `vault_words` first."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        found = {}
        for name, source in sources(root).items():
            store = Store.init(root / name)
            vault = Vault.open(store)
            for word, kind, title in vault_words:
                vault.pseudonym(word.title() if title else word, kind)
            vault.save()
            report = import_sources(store, [source], rubrics=["It names the request."])
            [created] = report.created
            found[name] = structure(store, created["id"])
        return found


def structure(store: Store, fixture_id: str) -> object:
    files = {path.name: path for path in store.fixture_files(fixture_id).values()}
    fixture = json.loads(files["fixture.json"].read_text(encoding="utf-8"))
    content = json.loads(files["content.json"].read_text(encoding="utf-8"))
    labels = [json.loads(line) for line in files["labels.jsonl"].read_text().splitlines()]
    return {
        "fixture": [fixture[k] for k in ("kind", "doc_type", "category", "status")]
        + [fixture["provenance"]["importer"], sorted(fixture)],
        "content": skeleton(content),
        "members": member_names(content),
        "labels": [
            (
                label["source"],
                label.get("doc_type"),
                sorted((name, field["type"]) for name, field in label["fields"].items()),
                len(label["rubrics"]),
            )
            for label in labels
        ],
    }


@cache
def fresh() -> dict[str, object]:
    return imported([])


@settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@example(EVERY_ORDINARY_WORD)
@given(VAULTS)
def test_any_vault_leaves_every_importers_structure_as_a_fresh_import(vault_words):
    assert imported(vault_words) == fresh()


def test_the_structure_compared_is_the_structure():
    """The comparison sees what it must: keys, types and roles of every importer."""
    found = fresh()
    members = found["mattermost"]["members"]
    assert {"user_id", "display_name", "type", "channel_id", "message"} <= members
    bot = json.dumps(found["chatbot"]["content"])
    assert '"username", "assistant"' in bot and '"role", "assistant"' in bot
    assert found["pdf"]["fixture"][:2] == ["document", "lease"]
