"""Which files a bundle's manifest defines: its own files and those of each format it lists.

A bundle holds exactly these. Checking only the files the manifest lists would let a format
go missing with its entries (the manifest still lists the format) and let a file of a format
the bundle was not built with pass as part of it; verify and the loader check both ways.
"""

from __future__ import annotations

from curator.bundle.card import CARD
from curator.bundle.formats import hf, mattermost, parquet
from curator.bundle.reader import CHANGELOG, FIXTURES, MANIFEST
from curator.model import BundleManifest, Kind

OWN = (MANIFEST, CHANGELOG, CARD)  # every bundle's, whatever its formats


def format_of(name: str) -> str | None:
    """The format a bundle file belongs to ("" for the bundle's own files, None: no format's)."""
    if name in OWN:
        return ""
    if name == FIXTURES:
        return "jsonl"
    if name == parquet.FILE:
        return "parquet"
    for folder, fmt in ((hf.FOLDER, "hf"), (mattermost.FOLDER, "mattermost")):
        if name.startswith(f"{folder}/"):
            return fmt
    return None


def required(manifest: BundleManifest) -> dict[str, str]:
    """File -> why it must be there: the bundle's own files and each listed format's."""
    needed = {name: "every bundle has it" for name in OWN}
    why = "the manifest lists format {}"
    needed[FIXTURES] = why.format("jsonl")
    if "parquet" in manifest.formats:
        needed[parquet.FILE] = why.format("parquet")
    if "hf" in manifest.formats:
        needed[f"{hf.FOLDER}/dataset_dict.json"] = why.format("hf")
        needed.update({hf.data_path(split): why.format("hf") for split in hf.SPLITS})
    if "mattermost" in manifest.formats:
        needed[mattermost.RUBRICS] = why.format("mattermost")
    return needed


def layout_problems(manifest: BundleManifest, names: set[str]) -> list[tuple[str, str, str]]:
    """(path, missing|extra, why) for each file `names` lacks or holds beyond the manifest's
    formats; `names` is every file of the bundle, listed or present."""
    problems = [
        (name, "missing", why) for name, why in required(manifest).items() if name not in names
    ]
    for name in sorted(names):
        fmt = format_of(name)
        if fmt is None:
            problems.append((name, "extra", "no format of a bundle holds it"))
        elif fmt and fmt not in manifest.formats:
            problems.append((name, "extra", f"a file of format {fmt}, which the manifest lacks"))
    if "mattermost" in manifest.formats:
        threads = sum(1 for entry in manifest.fixtures if entry.kind is Kind.thread)
        files = sum(1 for n in names if format_of(n) == "mattermost") - (
            mattermost.RUBRICS in names
        )
        if files != threads:
            problems.append(
                (
                    mattermost.FOLDER,
                    "missing" if files < threads else "extra",
                    f"{files} thread file(s) for the manifest's {threads} thread fixture(s)",
                )
            )
    return problems
