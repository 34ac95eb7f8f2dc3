"""What a report is made from, each read through the module that owns its format: the
bundle through curator.bundle, a gate report through curator.score.report, eval runs
through curator.eval (records, results)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from curator.bundle import BundledFixture, load
from curator.bundle.manifest import read_manifest
from curator.errors import CuratorError
from curator.eval.records import Run, read_run
from curator.eval.results import Item, items_of
from curator.model import BundleManifest, GateReport
from curator.score.report import load_baseline

RUN_FILE = "evals.jsonl"


@dataclass(frozen=True)
class RunItems:
    run: Run
    items: list[Item]
    label: str  # what the page calls the run: its --name, else its folder (run_names)


@dataclass(frozen=True)
class ReportInputs:
    bundle: Path
    manifest: BundleManifest
    fixtures: dict[str, BundledFixture]  # by id
    gate: GateReport | None
    runs: list[RunItems]  # oldest first, as given


def read_inputs(
    bundle: Path,
    gate: Path | None = None,
    runs: Sequence[Path] = (),
    names: Sequence[str] = (),
) -> ReportInputs:
    """`runs` are evals.jsonl files or the folders holding one; `names` name the first runs."""
    labels = run_names(runs, names)
    manifest = read_manifest(bundle)
    fixtures = {item.id: item for item in load(bundle)}
    report = load_baseline(gate) if gate is not None else None
    files = [path / RUN_FILE if path.is_dir() else path for path in runs]
    loaded = [
        RunItems(run, items_of(run.lines), label)
        for run, label in zip((read_run(path) for path in files), labels, strict=True)
    ]
    return ReportInputs(bundle, manifest, fixtures, report, loaded)


def run_names(runs: Sequence[Path], names: Sequence[str] = ()) -> list[str]:
    """Each run's name: the one given, else its folder for an evals.jsonl (every eval run
    writes that file, so the folder is what tells runs apart), else its file's stem. A
    default name that still clashes is the path as given."""
    if len(names) > len(runs):
        raise CuratorError(f"{len(names)} --name for {len(runs)} --runs: a name names one run")
    if any(not name.strip() for name in names):
        raise CuratorError("a run's --name cannot be empty")
    if len(set(names)) < len(names):
        raise CuratorError("two runs have the same --name")
    rest = runs[len(names) :]
    default = [_default_name(path) for path in rest]
    taken = [*names, *default]
    return [
        *names,
        *(
            str(path) if taken.count(name) > 1 else name
            for path, name in zip(rest, default, strict=True)
        ),
    ]


def _default_name(path: Path) -> str:
    if path.is_dir():
        return path.resolve().name
    if path.name == RUN_FILE:
        return path.resolve().parent.name
    return path.name.removesuffix(".jsonl")
