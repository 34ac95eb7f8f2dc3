"""The leak gate: nothing is bundled that contains an original from the pseudonym vault.

The audit (curator.anonymise) owns detection; this only feeds it every text a bundle is
about to write, JSON-decoded so escapes hide nothing. The HF and parquet files hold the
same strings as fixtures.jsonl, so the lines stand for them. A store without a vault has
had nothing anonymised into it and no originals to leak, but pattern PII is still checked.
Values curator's own mutations made up (recorded in lineage) are no leak.

What refuses a bundle: anything the audit finds in a fixture this store's vault anonymised
(the rewriter would have rewritten it, so it is certain), any vault original, any hit of a
precise pattern (emails, checksummed cards and IBANs, SSNs, national ids, IPs) and any
attachment that is no text. In other fixtures fuzzier hits are warnings unless `strict` asks
otherwise: name guesses (person, organisation, address), which in hand-made synthetic
fixtures such as the shipped sample store are not vault pseudonyms, and URLs and phone
numbers, which OCR noise imitates ("RENT.Rent", "A.pt"). Terms and hosts a fixture's
provenance records as kept are no leak.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from curator.bundle.serialise import Serialised
from curator.errors import CuratorError
from curator.store import Store

if TYPE_CHECKING:
    from curator.anonymise import Vault
    from curator.model import Fixture


def texts(
    items: list[Serialised], extra: dict[str, str], vault: Vault | None
) -> Iterator[tuple[str, str]]:
    """(location, text) of every text the bundle will hold (structure is not judged)."""
    from curator.anonymise import texts_of

    ours = vault.is_pseudonym if vault is not None else (lambda _: False)
    for item in items:
        yield from texts_of(json.loads(item.line), f"fixtures.jsonl:{item.id}", ours=ours)
        if item.thread is not None:
            yield from texts_of(json.loads(item.thread), f"{THREAD_FILES}{item.id}.json", ours=ours)
    yield from extra.items()


# Thread files are audited under their fixture's id: their final names depend on the whole
# bundle, while a fixture's verdict is cached on its own.
THREAD_FILES = "mattermost:"
LINE = re.compile(r"fixtures\.jsonl:[^.]+\.input\b")  # a bundle line's content


def _in_content(location: str) -> bool:
    """Whether a location is in a fixture's content: its line's `input`, its thread file."""
    return location.startswith(THREAD_FILES) or LINE.match(location) is not None


# Kinds whose hits are likely, not certain, personal data (outside this vault's fixtures).
GUESSES = frozenset({"person", "organisation", "address", "url", "phone", "username"})
NOT_TEXT = "attachment that is no text"


GATE_VERDICTS_FILE = "cache/bundle-verdicts.json"


@dataclass(frozen=True)
class Hit:
    """What the gate keeps of a Leak: where, and of what kind."""

    location: str
    kind: str


def check(
    store: Store, items: list[Serialised], extra: dict[str, str], *, strict: bool = False
) -> list[str]:
    """Raise (so nothing is written) when anything about to be bundled leaks; return warnings.

    Each fixture's verdict is cached (as the audit caches its own, in a file of the gate's)
    by its line's hash, under the vault and the made-up values it was judged against: a
    rebuild audits only fixtures that changed.
    """
    from curator.anonymise import (
        Vault,
        Verdicts,
        anonymised_here,
        find_leaks,
        fixture_groups,
        judge_context,
        parents_of,
        store_keep,
        synthetic_values,
        undecodable_attachments,
    )

    # Without a vault (a store cloned from git) names cannot be judged, but pattern PII can.
    vault = Vault.load(store)
    fixtures = {fixture_id: store.load_fixture(fixture_id) for fixture_id in store.ids()}
    synthetic = synthetic_values(fixtures.values())
    # the audit's (the vault, keep terms, made-up values, detector and anonymiser code), and
    # the parents of the variants judged here
    context = judge_context(store, None, synthetic) + "".join(
        _parent_digests(store, [fixtures[item.id] for item in items])
    )
    verdicts = Verdicts.read(store, context, GATE_VERDICTS_FILE)
    hits: list[Hit] = []
    todo = []
    for item in items:
        known = verdicts.get(item.id, item.line_sha256)
        if known is None:
            todo.append(item)
        else:
            hits.extend(Hit(leak["location"], leak["kind"]) for leak in known)
    found: dict[str, list[dict[str, object]]] = {item.id: [] for item in todo}
    ours, _ = anonymised_here([fixtures[item.id] for item in todo], vault)
    parents = parents_of(store, [fixtures[item.id] for item in todo], vault)
    leaks = []
    for judging, ids in fixture_groups(
        store, [fixtures[item.id] for item in todo], set(ours), vault
    ).items():
        chosen = set(ids)
        leaks += find_leaks(
            texts([i for i in todo if i.id in chosen], {}, vault),
            vault,
            synthetic=synthetic,
            judge_names=judging.names,
            keep=judging.keep,
            known_until=judging.until,
            parent_of=lambda where: parents.get(_fixture_of(where) or ""),
            ids_in=_in_content if judging.ids else None,
        )
    # The card and changelog are curator's own text about fixtures judged in full above (its
    # column names are member names: `doc_type` is no "Doc"): judged as the audit judges a
    # bundle's files, by whole originals and patterns.
    leaks += find_leaks(
        extra.items(),
        vault,
        synthetic=synthetic,
        judge_names=False,
        keep=store_keep(store, fixtures.values()),
    )
    undecodable = [
        where
        for item in todo
        if item.thread is not None
        for where in undecodable_attachments(
            json.loads(item.thread), f"{THREAD_FILES}{item.id}.json"
        )
    ]
    for leak in [leak.as_dict() for leak in leaks] + [
        {"location": where, "kind": NOT_TEXT, "text": "", "start": 0, "end": 0}
        for where in undecodable
    ]:
        hits.append(Hit(str(leak["location"]), str(leak["kind"])))
        fixture_id = _fixture_of(str(leak["location"]))
        if fixture_id in found:
            found[fixture_id].append(leak)
    by_id = {item.id: item for item in todo}
    for fixture_id, fixture_leaks in found.items():
        verdicts.put(fixture_id, by_id[fixture_id].line_sha256, fixture_leaks)
    verdicts.save()

    this_vault = {
        fixture_id
        for fixture_id, fixture in fixtures.items()
        if vault is not None and fixture.provenance.vault_id == vault.fingerprint
    }
    blocking = [
        hit
        for hit in hits
        if strict or hit.kind not in GUESSES or _fixture_of(hit.location) in this_vault
    ]
    if blocking:
        raise CuratorError(
            f"refusing to bundle: {len(blocking)} leak(s) of personal data in {_where(blocking)} "
            "(run `curator audit`)"
        )
    if hits:
        return [
            f"{len(hits)} possible personal data hit(s) not from the vault in {_where(hits)} "
            "(run `curator audit`)"
        ]
    return []


def _parent_digests(store: Store, variants: list[Fixture]) -> list[str]:
    """What a variant's verdict also depends on: its parent's files, which its line does not
    hold (a variant is judged against its parent's text)."""
    parents = sorted({f.lineage.parent for f in variants if f.lineage is not None})
    return [
        _digest(
            [
                path.read_bytes().hex()
                for path in store.fixture_files(parent).values()
                if path.exists()
            ]
        )
        for parent in parents
        if store.exists(parent)
    ]


def _digest(parts: list[str]) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()


def _fixture_of(location: str) -> str | None:
    match = _FILE.match(location)
    if not match:
        return None
    name = match.group(1)
    if name.startswith("fixtures.jsonl:"):
        return name.removeprefix("fixtures.jsonl:")
    if name.startswith(THREAD_FILES):
        return name.removeprefix(THREAD_FILES).removesuffix(".json")
    return None


# "fixtures.jsonl:<id>.input.pages[0].text" -> "fixtures.jsonl:<id>"; same for thread files.
_FILE = re.compile(r"^(fixtures\.jsonl:[^.\[#]+|mattermost:[^/]+?\.json|[^:]*?\.md)")


def _file_of(location: str) -> str:
    match = _FILE.match(location)
    return match.group(1) if match else location


def _where(leaks: list) -> str:
    where = sorted({_file_of(leak.location) for leak in leaks})
    return ", ".join(where[:3]) + (f" and {len(where) - 3} more" if len(where) > 3 else "")
