"""Moving fixtures through their statuses: draft → needs-review → reviewed / active → retired."""

from __future__ import annotations

from collections.abc import Sequence

from curator.errors import CuratorError
from curator.model import Fixture, Status
from curator.store import Store


def set_status(store: Store, fixture_ids: Sequence[str], status: Status | str) -> list[Fixture]:
    """Give fixtures a new status; all or none. Active needs labels and no open conflict."""
    target = Status(status)
    if not fixture_ids:
        raise CuratorError("name at least one fixture")
    changed = []
    with store.transaction() as txn:
        for fixture_id in fixture_ids:
            fixture = txn.fixture(fixture_id)
            if target is Status.active:
                if not txn.revisions(fixture_id):
                    raise CuratorError(f"{fixture_id}: has no labels yet, so it cannot be active")
                if fixture.review.conflict_fields:
                    fields = ", ".join(fixture.review.conflict_fields)
                    raise CuratorError(f"{fixture_id}: annotators disagree on {fields}; settle it with `curator label set` first")
            if fixture.status is not target:
                updated = fixture.model_copy(update={"status": target})
                txn.save_fixture(updated)
                changed.append(updated)
    return changed
