"""What a report is made from, each read through the module that owns its format: the
bundle through curator.bundle, a gate report through curator.score.report, eval runs
through curator.eval (records, results)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from curator.bundle import BundledFixture, load
from curator.bundle.manifest import read_manifest
from curator.eval.records import Run, read_run
from curator.eval.results import Item, items_of
from curator.model import BundleManifest, GateReport
from curator.score.report import load_baseline


@dataclass(frozen=True)
class RunItems:
    run: Run
    items: list[Item]

    @property
    def label(self) -> str:
        return self.run.label


@dataclass(frozen=True)
class ReportInputs:
    bundle: Path
    manifest: BundleManifest
    fixtures: dict[str, BundledFixture]  # by id
    gate: GateReport | None
    runs: list[RunItems]  # oldest first, as given


def read_inputs(bundle: Path, gate: Path | None = None, runs: Sequence[Path] = ()) -> ReportInputs:
    manifest = read_manifest(bundle)
    fixtures = {item.id: item for item in load(bundle)}
    report = load_baseline(gate) if gate is not None else None
    loaded = [RunItems(run, items_of(run.lines)) for run in (read_run(path) for path in runs)]
    return ReportInputs(bundle, manifest, fixtures, report, loaded)
