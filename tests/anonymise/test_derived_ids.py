"""Long random ids get pseudonyms derived from the vault's key, not stored in the vault
(curator/anonymise/derived_ids.py): a bulk export's post ids cost the vault nothing, the same
id gets the same pseudonym in every import, and a checker still reports an original id."""

from __future__ import annotations

import hashlib
import json
import random
import re
import string

from curator.anonymise import Vault, audit_store
from curator.anonymise.derived_ids import derivable, derive, is_derived
from curator.ingest import import_sources
from curator.ingest.chat_ids import mattermost_id
from tests.conftest import run_cli
from tests.ingest import big_exports as big

KEY = hashlib.sha256(b"derived ids test key").digest()
THREAD = "examples/threads/lease-question.json"


def _ids(count: int, alphabet: str, length: int) -> list[str]:
    rng = random.Random(7)
    found = []
    while len(found) < count:
        value = "".join(rng.choice(alphabet) for _ in range(length))
        if derivable(value):
            found.append(value)
    return found


def test_a_derived_id_keeps_length_alphabet_and_shape_and_is_recognised():
    for original in _ids(200, string.ascii_lowercase + string.digits, 26):
        made = derive(KEY, original)
        assert len(made) == 26 and re.fullmatch(r"[a-z0-9]*[a-z][a-z0-9]*", made)
        assert any(c.isdigit() for c in made) and made != original
        assert is_derived(KEY, made) and not is_derived(KEY, original)
        assert derive(KEY, original) == made  # the same every time, nothing stored
    for trace_id in _ids(200, "0123456789abcdef", 32):
        made = derive(KEY, trace_id)
        assert re.fullmatch(r"[0-9a-f]{32}", made) and is_derived(KEY, made)


def test_another_key_derives_other_pseudonyms_and_does_not_recognise_these():
    other = hashlib.sha256(b"another store").digest()
    originals = _ids(200, string.ascii_lowercase + string.digits, 26)
    made = [derive(KEY, o) for o in originals]
    assert not set(made) & {derive(other, o) for o in originals}
    assert not any(is_derived(other, m) for m in made)


def test_short_or_unshaped_ids_stay_in_the_vault():
    vault = Vault(KEY)
    for short in ("m12", "42", "call_Ab12Cd34", "U024BE7LH", "12345678901234567890123"):
        assert not derivable(short)
        vault.pseudonym(short, "id")
    assert len(vault) == 5
    long_id = "k3p9x1m2q8r7t6y5u4i3o2p1a0"
    made = vault.pseudonym(long_id, "id")
    assert len(vault) == 5 and vault.lookup(long_id, "id") == made
    # a second pass keeps a pseudonym as it is, and knows it for the vault's own
    assert vault.pseudonym(made, "id") == made and vault.is_pseudonym(made)
    assert not vault.is_pseudonym(long_id)


def test_the_vault_does_not_grow_with_the_posts_of_an_export(tmp_path, store):
    from curator.store import Store

    # both exports hold all 48 people and 12 channels; one has three times the posts
    small = big.write_bulk_jsonl(tmp_path / "small.jsonl", 400)
    import_sources(store, [small])
    other = Store.init(tmp_path / "other")
    large = big.write_bulk_jsonl(tmp_path / "large.jsonl", 1200)
    import_sources(other, [large])
    entries = [len(Vault.load(s)) for s in (store, other)]  # type: ignore[arg-type]
    assert entries[0] == entries[1], entries


def test_one_id_gets_one_pseudonym_across_imports(store, tmp_path):
    export = json.loads(open(THREAD, encoding="utf-8").read())
    post_id = next(iter(export["posts"]))
    first = tmp_path / "first.json"
    first.write_text(json.dumps(export))
    # the same post, linked from another export imported later
    export["posts"][post_id]["message"] += f" (see /pl/{post_id})"
    second = tmp_path / "second.json"
    second.write_text(json.dumps(export))
    [one] = import_sources(store, [first]).created
    [two] = import_sources(store, [second]).created
    pseudonym = Vault.load(store).lookup(post_id, "id")  # type: ignore[union-attr]
    contents = [
        json.loads((store.directory(c["id"]) / "content.json").read_text()) for c in (one, two)
    ]
    assert all(pseudonym in c["content"]["export"]["posts"] for c in contents)
    assert f"/pl/{pseudonym}" in json.dumps(contents[1])
    assert post_id not in json.dumps(contents)


def test_the_audit_reports_an_original_id_left_in_a_thread(store):
    export = json.loads(open(THREAD, encoding="utf-8").read())
    post_id = next(iter(export["posts"]))
    [created] = import_sources(store, [THREAD]).created
    assert audit_store(store) == []
    content = store.directory(created["id"]) / "content.json"
    data = json.loads(content.read_text())
    first = next(iter(data["content"]["export"]["posts"].values()))
    first["message"] += f" see {post_id}"  # as a rewriter that missed it would leave it
    content.write_text(json.dumps(data, indent=2))
    leaks = audit_store(store)
    assert [(leak.kind, leak.text) for leak in leaks] == [("id", post_id)]
    done = run_cli("audit", store=store.root)
    assert done.exit_code == 1 and post_id in done.stdout


def test_a_bulk_exports_made_ids_are_remapped():
    # the ids curator makes for a bulk export (from names: unkeyed) are derivable ones
    made = mattermost_id("post", "channel", "1704103200000", "ardent.quillfeather", "1")
    assert derivable(made) and derive(KEY, made) != made


def test_a_post_id_in_a_file_name_is_remapped_as_in_the_thread(store, tmp_path):
    export = json.loads(open(THREAD, encoding="utf-8").read())
    post_id = next(iter(export["posts"]))
    named = tmp_path / f"thread-{post_id}.json"
    named.write_text(json.dumps(export))
    [created] = import_sources(store, [named]).created
    pseudonym = Vault.load(store).lookup(post_id, "id")  # type: ignore[union-attr]
    assert created["stored_source_name"] == f"thread-{pseudonym}.json"
