"""Scoring a system's predictions against a bundle, and gating CI on quality floors.

source.py       the bundle's fixtures, through curator.bundle.load
predictions.py  the predictions JSONL format, read and checked against the bundle
scoring.py      one fixture: each field / rubric right or wrong, failure classes
metrics.py      accuracy tables, Brier score, reliability bins, quality composite
gate.py         floors.toml, the gate checks, run_gate (what `curator gate` calls)
report.py       report.json (also the next run's baseline) and regressions
markdown.py, junit.py, plot.py   the other report writers
"""
