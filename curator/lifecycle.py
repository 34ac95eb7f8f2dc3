"""Moving fixtures through their statuses: draft → needs-review → reviewed / active → retired.

A fixture starts as draft (the model's default). Every rule for the status it moves to lives
here: mutate, promote, review pull and `curator status` ask these functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from curator.errors import CuratorError
from curator.model import Fixture, Status

if TYPE_CHECKING:
    from curator.store import Store

_UNREVIEWED = (Status.draft, Status.needs_review)


def variant_status(parent: Status, needs_review: bool) -> Status:
    """A mutated variant's: its labels were transformed mechanically along with the text, so it
    is as reviewed (or active) as its parent, unless the mutation asks for a human look."""
    if needs_review:
        return Status.needs_review
    return parent if parent in (Status.reviewed, Status.active) else Status.draft


def refreshed_status(status: Status, undecided: Sequence[str]) -> Status:
    """A variant re-derived from its parent's new labels. Its truth followed mechanically, so it
    keeps the status people gave it; only something a person has not decided yet (`undecided`,
    what the mutation could not settle by rule) sends it back to review. Retired stays retired."""
    if status is Status.retired or not undecided:
        return status
    return Status.needs_review


def promoted_status(complete: bool) -> Status:
    """A promoted failure's: reviewed when its corrections alone give the whole truth."""
    return Status.reviewed if complete else Status.needs_review


def after_agreement(status: Status) -> Status:
    """Enough annotators labelled it and none disagree: an unreviewed fixture is reviewed."""
    return Status.reviewed if status in _UNREVIEWED else status


def after_conflict(status: Status) -> Status:
    """Annotators disagree: a reviewed fixture needs review again; others keep theirs."""
    return Status.needs_review if status is Status.reviewed else status


def after_settling(status: Status) -> Status:
    """A lead settled the annotators' conflict by hand: what waited for it is reviewed."""
    return Status.reviewed if status is Status.needs_review else status


def set_status(
    store: Store,
    fixture_ids: Sequence[str],
    status: Status | str,
    *,
    where: str | None = None,
    dry_run: bool = False,
) -> list[Fixture]:
    """Give fixtures a new status; all or none. Active needs labels and no open conflict.

    The fixtures are `fixture_ids`, or every fixture matching `where` ("status=reviewed,
    category=ocr-noise", see curator.where). With `dry_run` every rule is checked and the
    fixtures that would change are returned, but nothing is written.
    """
    from curator.where import matches, parse_where

    target = Status(status)
    if fixture_ids and where:
        raise CuratorError("give fixture IDs or --where, not both")
    if where:
        chosen = parse_where(where)
        fixture_ids = [f.id for f in store.select() if matches(f, chosen)]
        if not fixture_ids:
            raise CuratorError(f"no fixture matches --where {where}")
    if not fixture_ids:
        raise CuratorError("name at least one fixture, or choose them with --where")
    changed = []
    with store.transaction() as txn:
        for fixture_id in fixture_ids:
            fixture = txn.fixture(fixture_id)
            if target is Status.active:
                if not txn.revisions(fixture_id):
                    raise CuratorError(f"{fixture_id}: has no labels yet, so it cannot be active")
                if fixture.review.conflict_fields:
                    fields = ", ".join(fixture.review.conflict_fields)
                    raise CuratorError(
                        f"{fixture_id}: annotators disagree on {fields}; settle it with "
                        "`curator label set` first"
                    )
            if fixture.status is not target:
                updated = fixture.model_copy(update={"status": target})
                if not dry_run:
                    txn.save_fixture(updated)
                changed.append(fixture)
    return changed
