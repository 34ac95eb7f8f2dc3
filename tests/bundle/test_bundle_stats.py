"""curator stats: composition against adversarial_target_share."""

from __future__ import annotations

import json

from curator.bundle.stats import store_stats
from tests.conftest import run_cli


def test_stats_table_and_target(sample):
    stats = store_stats(sample, ["active"])
    assert stats.table == {"clean": {"none": 3}, "truncated": {"truncate": 1}}
    assert (stats.total, stats.adversarial, stats.share) == (4, 1, 0.25)
    assert stats.target == 0.33 and not stats.meets_target and stats.needed == 1
    assert stats.by_status == {"draft": 1, "active": 4}


def test_target_comes_from_curator_toml(sample):
    config = sample.root / "curator.toml"
    config.write_text(
        config.read_text().replace(
            "adversarial_target_share = 0.33", "adversarial_target_share = 0.2"
        )
    )
    run = run_cli("stats", "--status", "active", "--json", "--check", store=sample.root)
    assert run.exit_code == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["target"] == 0.2 and report["meets_target"]


def test_check_exits_1_below_target_and_text_shows_the_table(sample):
    run = run_cli("stats", "--check", store=sample.root)
    assert run.exit_code == 1
    assert "truncate" in run.stdout and "below target: add 1 adversarial" in run.stdout
    assert "draft 1, active 4" in run.stdout


def test_needed_reaches_the_target():
    from curator.bundle.stats import _needed

    for adversarial, total, target in [
        (0, 10, 0.33),
        (1, 4, 0.33),
        (5, 5, 0.5),
        (0, 0, 0.33),
        (2, 9, 0.5),
    ]:
        needed = _needed(adversarial, total, target)
        if total and adversarial / total >= target:
            assert needed == 0
        else:
            assert (adversarial + needed) / (total + needed) >= target
            assert needed == 1 or (adversarial + needed - 1) / (total + needed - 1) < target
