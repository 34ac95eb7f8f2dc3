"""Suspects a reviewer ticked in Label Studio, and what each decision does to the store."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from curator.review import configs

if TYPE_CHECKING:
    from curator.store import Store


def decide_suspects(store: Store, ticked: list[tuple[str, str, str]]) -> list[dict[str, Any]]:
    """What reviewers ticked among a task's suspects, applied as `vault add --kind` (personal)
    or `vault forget` (not personal) would: each suspect found again by its key in the store
    as it is now, all values read before the first decision rewrites anything."""
    from curator.anonymise import add_name, find_suspects, forget_word

    decisions: list[dict[str, Any]] = []
    if not ticked:
        return decisions
    fixtures = sorted({fixture for fixture, _, _ in ticked})
    by_key = {(s.fixture, s.key): s for s in find_suspects(store, ids=fixtures)}
    actions: dict[tuple[str, str], set[str]] = {}
    for fixture, key, action in ticked:
        actions.setdefault((fixture, key), set()).add(action)
    for (fixture, key), chosen in sorted(actions.items()):
        suspect = by_key.get((fixture, key))
        kinds = {
            suspect.kind if action == "add" else action.removeprefix("add:")
            for action in chosen
            if suspect is not None and action.startswith("add")
        }
        if suspect is None:
            decisions.append({"fixture": fixture, "key": key, "outcome": "no longer found"})
        elif len(chosen) > 1:
            decisions.append(
                {"fixture": fixture, "key": key, "outcome": "ticked two ways: left undecided"}
            )
        elif kinds and not kinds <= set(suspect.kinds):
            decisions.append(
                {
                    "fixture": fixture,
                    "key": key,
                    "outcome": "of a kind it cannot be: left undecided",
                }
            )
        elif kinds:
            [kind] = kinds
            done = add_name(store, suspect.value, kind)
            decisions.append(
                {
                    "fixture": fixture,
                    "key": key,
                    "outcome": f"added as {kind}",
                    "kind": kind,
                    **done.as_dict(),
                }
            )
        else:
            done = forget_word(store, suspect.value)
            decisions.append(
                {
                    "fixture": fixture,
                    "key": key,
                    "outcome": "kept as not personal",
                    **done.as_dict(),
                }
            )
    return decisions


def ticked_suspects(fixture_id: str, annotation: dict[str, Any]) -> list[tuple[str, str, str]]:
    ticked = []
    for region in annotation.get("result") or []:
        control = region.get("from_name")
        for choice in (region.get("value") or {}).get("choices") or []:
            if control == configs.SUSPECT_NAMES:
                ticked.append((fixture_id, str(choice), "add"))
            elif control == configs.SUSPECT_NOT_PERSONAL:
                ticked.append((fixture_id, str(choice), "forget"))
            elif control == configs.SUSPECT_OTHER_KIND:  # "<key>:<kind>"
                key, _, kind = str(choice).partition(":")
                ticked.append((fixture_id, key, f"add:{kind}"))
    return ticked
