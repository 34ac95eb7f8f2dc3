"""Rebuild the sample golden store shipped in this repo, with curator, from examples/.

The synthetic production inputs in examples/ (Faker data, `examples/generate.py`) go
through the same path a user's data takes: `import` (anonymisation, OCR, suggested
labels), a manual label revision checked against `examples/truth.json` (with a reviewed
reference answer for each thread), `status --to active`, then `mutate` for the adversarial
variants and `promote` for a production failure (a thread summary that is a known-bad
answer, so judges can be calibrated on the sample bundle). The result replaces goldens/ and
adversarial/ in the repo.

The vault key is fixed here, and only here, so the sample store is reproducible; a real
store gets a random key. The vault itself stays in the build folder, never in the repo.
Usage: python scripts/build_sample_store.py [--keep BUILD_DIR] [--check]
(`--check` replaces nothing: it names each shipped file the build would change, and exits 1
if there is one; the test suite runs it, so the shipped store is what its inputs make.)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# The store is built by this checkout's curator, not whichever one the venv installed (a
# worktree sharing main's venv otherwise builds with main's anonymiser and ships its misses).
sys.path.insert(0, str(REPO))
EXAMPLES = REPO / "examples"
SAMPLE_VAULT_KEY = "c2FtcGxlLXN0b3JlLW9ubHktbm90LWEtc2VjcmV0LTAwMDAwMDAwMDAwMDA="
SAMPLE_EPOCH = "1767225600"  # 2026-01-01T00:00:00Z

# (parent source in examples/, mutation options as `curator mutate` takes them, seed)
VARIANTS = [
    ("pdfs/lease-maple.pdf", [("truncate", 0.6)], 1),
    ("threads/lease-question.json", [("truncate", 0.5)], 1),
    ("pdfs/lease-birch.pdf", [("ocr_noise", 0.08)], 2),
    ("pdfs/invoice-harbor.pdf", [("ocr_noise", 0.12)], 3),
    ("pdfs/lease-cedar.pdf", [("bilingual", "fr")], 4),
    ("pdfs/invoice-quay.pdf", [("bilingual", "de")], 5),
    ("pdfs/lease-elm.pdf", [("contradict", "monthly_rent")], 6),
    ("pdfs/lease-willow.pdf", [("contradict", "lease_end_date")], 7),
    ("pdfs/lease-aspen.pdf", [("truncate", 0.8), ("ocr_noise", 0.05)], 8),
]


def build(work: Path) -> Path:
    from curator.anonymise import KINDS, Vault, anonymise_text
    from curator.ingest.api import import_sources
    from curator.labels import set_labels
    from curator.lifecycle import set_status
    from curator.mutate.engine import mutate
    from curator.mutate.registry import steps_from_options
    from curator.promote.promote import promote
    from curator.store import Store

    truth = json.loads((EXAMPLES / "truth.json").read_text(encoding="utf-8"))
    store = Store.init(work)
    shutil.copyfile(REPO / "curator.toml", store.root / "curator.toml")

    by_source: dict[str, str] = {}
    for name, facts in sorted(truth.items()):
        report = import_sources(
            store, [EXAMPLES / name], rubrics=facts["rubrics"], author="sample-builder"
        )
        [made] = report.created
        by_source[name] = made["id"]

    vault = Vault.open(store)
    pseudonymised = {kind.field_type for kind in KINDS.values() if kind.field_type is not None}
    for name, facts in sorted(truth.items()):
        if facts.get("reference"):
            set_labels(
                store,
                by_source[name],
                reference=facts["reference"],
                author="sample-builder",
                reason="reference answer reviewed against the thread",
            )
        if not facts["fields"]:
            continue
        spec = store.config.doc_types[facts["doc_type"]]
        checked = {
            field: anonymise_text(value, vault)
            if spec.fields[field].type in pseudonymised
            else value
            for field, value in facts["fields"].items()
        }
        set_labels(
            store,
            by_source[name],
            assignments=checked,
            author="sample-builder",
            reason="checked against examples/truth.json",
        )
    set_status(store, list(by_source.values()), "active")

    for name, options, seed in VARIANTS:
        steps = steps_from_options(options)
        [variant] = mutate(store, [by_source[name]], steps, seed=seed).variants
        if variant["status"] != "active":
            set_status(store, [variant["id"]], "active")

    promoted = promote(
        store, EXAMPLES / "failures" / "sample-summary.json", author="sample-builder"
    )
    set_status(store, [made.fixture_id for made in promoted.promoted], "active")
    return store.root


def _changed_files(built: list[Path], shipped: list[Path]) -> list[str]:
    """Each file, relative to the repo, that differs between the built and shipped folders
    or is in only one of them."""

    def files(folders: list[Path]) -> dict[str, bytes]:
        return {
            f"{folder.name}/{path.relative_to(folder)}": path.read_bytes()
            for folder in folders
            for path in sorted(folder.rglob("*"))
            if path.is_file()
        }

    made, there = files(built), files(shipped)
    return sorted(name for name in made.keys() | there.keys() if made.get(name) != there.get(name))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--keep", type=Path, help="build here and keep it (default: a temporary folder)"
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="replace nothing: name each shipped file the build changes (exit 1 if any)",
    )
    args = parser.parse_args()
    os.environ["CURATOR_VAULT_KEY"] = SAMPLE_VAULT_KEY
    os.environ["SOURCE_DATE_EPOCH"] = SAMPLE_EPOCH
    os.environ["CURATOR_AUTHOR"] = "sample-builder"
    work = args.keep or Path(tempfile.mkdtemp(prefix="curator-sample-")) / "store"
    built = build(work)
    import curator
    from curator.store import Store

    if args.check:
        changed = _changed_files(Store(built).fixture_folders, Store(REPO).fixture_folders)
        for name in changed:
            print(f"{name}: not what {EXAMPLES.name}/ builds")
        raise SystemExit(1 if changed else 0)
    # This repository is a store too: its fixture folders are replaced by the built ones.
    for source, target in zip(
        Store(built).fixture_folders, Store(REPO).fixture_folders, strict=True
    ):
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(source, target)
    counts = ", ".join(
        f"{len(list(target.glob('*/')))} {target.name}" for target in Store(REPO).fixture_folders
    )
    print(f"sample store rebuilt from {EXAMPLES} by {Path(curator.__file__).parent}: {counts}")


if __name__ == "__main__":
    main()
