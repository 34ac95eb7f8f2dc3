"""bundle build says which fixtures joined or left since the previous version, and why;
--strict refuses a build that an active fixture left without being retired."""

from __future__ import annotations

import json

from curator.model import Status
from tests.bundle.conftest import add_lease
from tests.conftest import run_cli, snapshot


def _id(store, prefix: str) -> str:
    return next(i for i in store.ids() if i.startswith(prefix))


def _set_status(store, fixture_id: str, status: Status) -> None:
    store.save_fixture(store.load_fixture(fixture_id).model_copy(update={"status": status}))


def test_build_prints_who_joined_and_left_and_why(sample):
    assert run_cli("bundle", "build", "1.0.0", store=sample.root).exit_code == 0
    retired, demoted = _id(sample, "maple-lease-truncated"), _id(sample, "oak-lease")
    _set_status(sample, retired, Status.retired)
    _set_status(sample, demoted, Status.needs_review)  # as a refresh that needs a person would
    joined = add_lease(sample, "elm lease", "Avery Quinn", "$1,100.00")

    result = run_cli("bundle", "build", "1.1.0", store=sample.root)
    assert result.exit_code == 0, result.stderr
    assert f"joined since 1.0.0: {joined} (now active: a clean document)" in result.stdout
    assert f"left since 1.0.0: {retired} (retired)" in result.stdout
    assert (
        f"left since 1.0.0: {demoted} (now needs-review, which this build does not take (active))"
        in result.stdout
    )
    changelog = (sample.bundles_dir / "1.1.0" / "CHANGELOG.md").read_text()
    assert f"- {demoted}: now needs-review" in changelog and f"- {retired}: retired" in changelog
    report = json.loads(
        run_cli(
            "bundle",
            "build",
            "1.1.1",
            "--json",
            "--status",
            "active",
            "--status",
            "needs-review",
            store=sample.root,
        ).stdout
    )
    assert report["joined"] == [{"id": demoted, "why": "now needs-review: a clean document"}]
    assert report["left"] == []


def test_strict_refuses_when_an_active_fixture_left_unretired(sample):
    assert run_cli("bundle", "build", "1.0.0", store=sample.root).exit_code == 0
    retired, demoted = _id(sample, "maple-lease-truncated"), _id(sample, "oak-lease")
    _set_status(sample, retired, Status.retired)
    assert (
        run_cli("bundle", "build", "1.0.1", "--strict", store=sample.root).exit_code == 0
    )  # retiring is deliberate

    _set_status(sample, demoted, Status.needs_review)
    before = snapshot(sample.root)
    refused = run_cli("bundle", "build", "1.1.0", "--strict", store=sample.root)
    assert refused.exit_code == 2 and len(refused.stderr.strip().splitlines()) == 1
    assert (
        f"--strict: 1 active fixture(s) of 1.0.1 left without being retired: {demoted}"
        in refused.stderr
    )
    assert snapshot(sample.root) == before
    assert (
        run_cli("bundle", "build", "1.1.0", store=sample.root).exit_code == 0
    )  # without --strict it is built
