"""`curator export`: a verified bundle's fixtures as the files each harness's own loader takes.

The bundle is verified first (every file's sha256 and schema, as `curator bundle verify`):
one that fails is never exported (exit 1). Each harness's files go to OUT/<harness>/,
written whole (each file atomically); the same bundle gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from curator import atomic
from curator.errors import CuratorError
from curator.harness import for_deepeval, for_inspect, for_langfuse, for_promptfoo, for_ragas
from curator.harness.samples import HarnessSample, make_sample
from curator.model import task_truths

Writer = Callable[[list[HarnessSample], str], dict[str, str]]

# harness -> (its folder under OUT, what writes its files, the loader line its docs show)
HARNESSES: dict[str, tuple[str, Writer, str]] = {
    "inspect": (for_inspect.FOLDER, lambda s, v: for_inspect.files(s), for_inspect.LOADER),
    "deepeval": (for_deepeval.FOLDER, lambda s, v: for_deepeval.files(s), for_deepeval.LOADER),
    "ragas": (for_ragas.FOLDER, lambda s, v: for_ragas.files(s), for_ragas.LOADER),
    "promptfoo": (for_promptfoo.FOLDER, for_promptfoo.files, for_promptfoo.LOADER),
    "langfuse": (for_langfuse.FOLDER, for_langfuse.files, for_langfuse.LOADER),
}


class UnverifiedBundle(CuratorError):
    """The bundle fails verification: a check found a problem, so exit 1, not 2."""

    exit_code = 1


@dataclass
class ExportResult:
    bundle_version: str
    samples: int
    written: dict[str, list[Path]] = field(default_factory=dict)  # harness -> files
    pushed: int | None = None  # Langfuse items sent, with --push
    pushed_to: str = ""

    @property
    def exit_code(self) -> int:
        return 0

    def render(self) -> str:
        lines = []
        for harness, paths in self.written.items():
            folder = paths[0].parent if paths else Path()
            loader = HARNESSES[harness][2].format(folder=folder.as_posix())
            lines.append(f"{harness}: {self.samples} samples in {folder}; load: {loader}")
        if self.pushed is not None:
            lines.append(f"langfuse: pushed {self.pushed} items to {self.pushed_to}")
        return "\n".join(lines)

    def as_json(self) -> dict:
        return {
            "bundle_version": self.bundle_version,
            "samples": self.samples,
            "written": {h: [str(p) for p in paths] for h, paths in self.written.items()},
            "pushed": self.pushed,
        }


def verified_samples(bundle: Path) -> tuple[str, list[HarnessSample]]:
    """(bundle version, its fixtures as harness samples), from a bundle that verifies."""
    from curator.bundle import load
    from curator.bundle.manifest import read_manifest
    from curator.bundle.verify import verify_bundle

    verification = verify_bundle(bundle)
    if not verification.ok:
        first = verification.problems[0].describe()
        more = len(verification.problems) - 1
        raise UnverifiedBundle(
            f"{bundle}: bundle verification failed ({first}"
            + (f"; and {more} more" if more else "")
            + "); not exported"
        )
    manifest = read_manifest(bundle)
    entries = {entry.id: entry for entry in manifest.fixtures}
    version = manifest.bundle_version
    samples = [
        make_sample(item.fixture, item.content, truth, entries[item.id], version, task)
        for item in load(bundle)
        for task, truth in task_truths(item.labels)
    ]
    return version, samples


def export_bundle(
    bundle: Path,
    to: str,
    out: Path,
    *,
    push: str | None = None,
    dataset: str = "curator",
) -> ExportResult:
    """Write the export for harness `to` ("all": every harness) under `out`; with `push` (a
    Langfuse server's URL), also send the Langfuse items to its dataset `dataset`."""
    if push and to not in ("langfuse", "all"):
        raise CuratorError("--push sends Langfuse items: use it with --to langfuse (or all)")
    harnesses = list(HARNESSES) if to == "all" else [to]
    unknown = [name for name in harnesses if name not in HARNESSES]
    if unknown:
        raise CuratorError(f"unknown harness {unknown[0]!r}; one of {', '.join(HARNESSES)}, all")
    version, samples = verified_samples(bundle)
    result = ExportResult(bundle_version=version, samples=len(samples))
    for name in harnesses:
        folder, writer, _ = HARNESSES[name]
        written = []
        for relative, text in writer(samples, version).items():
            atomic.write_text(out / folder / relative, text)
            written.append(out / folder / relative)
        result.written[name] = written
    if push:
        from curator.harness.push import push_items

        items = for_langfuse.files(samples, version)[for_langfuse.ITEMS]
        result.pushed = push_items(items, dataset, push, version)
        result.pushed_to = f"{push} dataset {dataset}"
    return result
