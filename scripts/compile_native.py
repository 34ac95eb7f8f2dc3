"""Compile the anonymiser's hottest pure-Python modules to C extensions with mypyc, in place.

Why: finding names and addresses, judging what is left and rewriting are curator's own
Python, most of an import's CPU time once Presidio's engine is out of the loop; compiled,
they take about a fifth less CPU (benchmarks/anonymise.py, "curator, 1 process"). Curator needs
them only for speed: without the .so files it runs the same code as plain Python, and
tests/anonymise/test_native.py checks that both rewrite alike. The .so files are build
products (gitignored); `make test`, `make demo` and `make bench` build them first.

A compiled module shadows its .py, so an edit would silently not count. build/native.json
records the hashes of the sources the .so files were built from: this script rebuilds
when they differ, and `--check` (run by the test suite before anything imports curator)
refuses a stale or stray .so.

    python scripts/compile_native.py           # build, unless up to date
    python scripts/compile_native.py --check   # exit 1 naming what is stale
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Pure functions over strings with full type hints, called per text or per word. detect.py and
# numbers.py define Presidio recognizers as nested classes (mypyc refuses those); vault.py's
# Vault is a key of a WeakKeyDictionary (left._INDEXES), which native classes cannot be.
MODULES = (
    "curator/spans.py",
    "curator/anonymise/addresses.py",
    "curator/anonymise/left.py",
    "curator/anonymise/name_cues.py",
    "curator/anonymise/namedata.py",
    "curator/anonymise/names.py",
    "curator/anonymise/pseudonyms.py",
    "curator/anonymise/rewrite.py",
    "curator/anonymise/terms.py",
)
GROUP = "curator._native"  # mypyc's shared library lands inside the package, so any import finds it
STAMP = ROOT / "build" / "native.json"


def source_hashes() -> dict[str, str]:
    return {m: hashlib.sha256((ROOT / m).read_bytes()).hexdigest() for m in MODULES}


def built() -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / "curator").rglob("*.so"))


def problem() -> str | None:
    """Why the compiled modules cannot be trusted and what to do, or None (none built is fine)."""
    reason = _distrust()
    return f"{reason}: run `make native` (or delete curator's .so files)" if reason else None


def _distrust() -> str | None:
    extensions = built()
    if not extensions:
        return None
    if not STAMP.exists():
        return f"compiled modules with no record of the sources they were built from ({STAMP.relative_to(ROOT)})"
    recorded = json.loads(STAMP.read_text())
    changed = [m for m, digest in source_hashes().items() if recorded.get(m) != digest]
    if changed:
        return f"compiled modules are older than their source ({', '.join(changed)})"
    expected = {m.removesuffix(".py") for m in MODULES} | {GROUP.replace(".", "/") + "__mypyc"}
    stray = [e for e in extensions if e.split(".", 1)[0] not in expected]
    if stray:
        return f"compiled modules without a source in the list: {', '.join(stray)}"
    return None


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    STAMP.unlink(missing_ok=True)  # a build killed halfway leaves no stamp, so it counts as stale
    for extension in built():
        (ROOT / extension).unlink()
    os.chdir(ROOT)
    setup(
        name="curator-native",
        ext_modules=mypycify(list(MODULES), group_name=GROUP, opt_level="3"),
        script_args=["--quiet", "build_ext", "--inplace", "--build-temp", "build/mypyc"],
    )
    STAMP.parent.mkdir(exist_ok=True)
    STAMP.write_text(json.dumps(source_hashes(), indent=1, sort_keys=True) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether the build is stale")
    args = parser.parse_args()
    stale = problem()
    if args.check:
        if stale:
            print(stale, file=sys.stderr)
        return 1 if stale else 0
    if stale or not built():
        build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
