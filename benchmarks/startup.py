"""`curator --help` start-up time against `python -c "import click"`, in one run.

Target (issue 2): ratio under 1.5, which holds only while heavy libraries stay lazy.
Usage: python benchmarks/startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def median_seconds(command: list[str], runs: int, env: dict[str, str]) -> float:
    subprocess.run(command, env=env, capture_output=True, check=True)  # warm the page cache
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, env=env, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30)
    runs = parser.parse_args().runs
    env = dict(os.environ, PYTHONPATH=str(REPO))
    baseline = median_seconds([sys.executable, "-c", "import click"], runs, env)
    curator = median_seconds([sys.executable, "-m", "curator", "--help"], runs, env)
    print(f"python -c 'import click': {baseline * 1000:.1f} ms (median of {runs})")
    print(f"curator --help:           {curator * 1000:.1f} ms (median of {runs})")
    print(f"ratio: {curator / baseline:.2f} (target < 1.5)")


if __name__ == "__main__":
    main()
