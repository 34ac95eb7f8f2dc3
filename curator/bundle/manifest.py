"""manifest.json: versions, counts, and the sha256 of every file in a bundle."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from curator.bundle.reader import MANIFEST, BundleFiles, open_bundle
from curator.bundle.serialise import Serialised
from curator.errors import CuratorError
from curator.json_input import parse_model
from curator.model import SEMVER_PATTERN, BundleCounts, BundleManifest
from curator.store import is_version

_SEMVER = re.compile(SEMVER_PATTERN)


def version_key(version: str) -> tuple:
    """Semantic-version precedence: 1.0.0-rc.1 < 1.0.0 < 1.0.1; build metadata ignored."""
    match = _SEMVER.fullmatch(version)
    if not match:
        raise ValueError(version)
    core = tuple(int(part) for part in version.split("+")[0].split("-")[0].split("."))
    pre = match.group(4)
    if pre is None:
        return (*core, 1, ())
    identifiers = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in pre.split("."))
    return (*core, 0, identifiers)


def built_versions(bundles_dir: Path) -> list[str]:
    """Versions that have a bundle directory with a manifest, oldest first (a symbolic link
    named like a version is no bundle of this store)."""
    if not bundles_dir.is_dir():
        return []
    found = [
        p.name
        for p in bundles_dir.iterdir()
        if is_version(p.name) and p.is_dir() and not p.is_symlink() and (p / MANIFEST).is_file()
    ]
    return sorted(found, key=version_key)


def previous_version(bundles_dir: Path, version: str) -> str | None:
    """The newest built version that precedes `version`: what its changelog is against."""
    earlier = [v for v in built_versions(bundles_dir) if version_key(v) < version_key(version)]
    return earlier[-1] if earlier else None


def file_sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def content_digest(line_sha256s: Sequence[str], formats: Sequence[str]) -> str:
    """Same fixture lines and formats, same digest: what makes a rebuild a no-op.

    Made from the lines' hashes (fixtures.jsonl is their concatenation), so deciding that
    nothing changed needs no line text at all.
    """
    header = json.dumps({"formats": sorted(formats), "lines": list(line_sha256s)})
    return file_sha256(header.encode("utf-8"))


def counts(items: Sequence[Serialised]) -> BundleCounts:
    by_mutation: Counter[str] = Counter()
    for item in items:
        for name in item.entry["mutation_kinds"] or ["none"]:
            by_mutation[name] += 1
    return BundleCounts(
        total=len(items),
        adversarial=sum(1 for item in items if item.entry["adversarial"]),
        by_kind=dict(sorted(Counter(item.entry["kind"] for item in items).items())),
        by_category=dict(sorted(Counter(item.entry["category"] for item in items).items())),
        by_mutation=dict(sorted(by_mutation.items())),
    )


def parse_manifest(files: BundleFiles) -> BundleManifest:
    if not files.has(MANIFEST):
        raise CuratorError(f"{files.label}: no {MANIFEST}")
    return parse_model(
        BundleManifest, files.read(MANIFEST), f"{files.label}/{MANIFEST}", files.limits
    )


def read_manifest(path: Path) -> BundleManifest:
    return parse_manifest(open_bundle(path))


def render(manifest: BundleManifest) -> bytes:
    return (manifest.model_dump_json(indent=2) + "\n").encode("utf-8")
