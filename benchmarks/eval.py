"""Judge throughput: the HTTP judge against its ideal, and verdicts served from the cache.

Starts the tests' loopback chat-completions server (tests/eval/judge_server.py) in its own
process with a fixed 50 ms latency, and for K in 1, 2, 4, 8, 16 makes calls through
curator's OpenAI-compatible judge with K in flight. The baseline is the ideal a 50 ms
server allows, K / 0.05 calls per second; target: at least 0.8 of it. Each call runs as
in a real run, under its total deadline and the reply size cap (each exchange in its own
thread, the body read in chunks: curator.judge.bounded). Then times 50,000
verdicts served by the verdict cache (target: at least 50,000 per second).
Usage: python benchmarks/eval.py [--calls-per-slot N] [--cached N]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from curator.judge.cache import CachedJudge, VerdictCache  # noqa: E402
from curator.judge.openai import OpenAIJudge  # noqa: E402
from curator.judge.rules import RulesJudge  # noqa: E402
from curator.judge.verdict import RubricCase  # noqa: E402
from curator.model import JudgeSettings  # noqa: E402

LATENCY = 0.05
SLOTS = (1, 2, 4, 8, 16)
CONTEXT = (
    "@ana: The new monthly rent is $2,050.00, starting on March 1, 2025.\n"
    "@ben: I will send the letter."
)


def case(n: int) -> RubricCase:
    return RubricCase(
        f"bench-{n:08d}",
        f"{n:064x}",
        "States the new monthly rent of $2,050.00.",
        f"The rent rises to $2,050.00 (answer {n}).",
        CONTEXT,
    )


def start_server() -> tuple[subprocess.Popen[str], str]:
    server = subprocess.Popen(
        [
            sys.executable,
            str(REPO / "tests" / "eval" / "judge_server.py"),
            "--policy",
            "good",
            "--latency",
            str(LATENCY),
        ],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert server.stdout is not None
    return server, server.stdout.readline().strip()


def http_throughput(url: str, slots: int, calls: int) -> float:
    os.environ["OPENAI_BASE_URL"] = url
    judge = OpenAIJudge("bench", JudgeSettings(concurrency=slots, max_retries=0, timeout=10))
    cases = [case(n) for n in range(calls)]
    with ThreadPoolExecutor(max_workers=slots) as pool:
        list(
            pool.map(judge.judge, [case(-1 - n) for n in range(slots)])
        )  # open K connections, untimed
        start = time.perf_counter()
        verdicts = list(pool.map(judge.judge, cases))
        elapsed = time.perf_counter() - start
    judge.close()
    failed = [v.error for v in verdicts if v.error]
    if failed:
        raise SystemExit(f"judge errors during the benchmark: {failed[0]}")
    return calls / elapsed


def cached_throughput(count: int) -> float:
    with tempfile.TemporaryDirectory() as folder:
        judge = CachedJudge(RulesJudge(), VerdictCache(Path(folder)))
        cases = [case(n) for n in range(count)]
        for item in cases:  # fill the cache: one real (rules) verdict each
            judge.judge(item)
        replay = CachedJudge(RulesJudge(), VerdictCache(Path(folder)), offline=True)
        start = time.perf_counter()
        for item in cases:
            replay.judge(item)
        elapsed = time.perf_counter() - start
        assert replay.counts.cached == count and replay.counts.calls == 0
    return count / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--calls-per-slot", type=int, default=30, help="calls per concurrent slot (default 30)"
    )
    parser.add_argument(
        "--cached", type=int, default=50_000, help="cached verdicts to serve (default 50,000)"
    )
    args = parser.parse_args()
    server, url = start_server()
    try:
        print(
            f"judge over HTTP, {LATENCY * 1000:.0f} ms server latency (baseline: the ideal K / "
            f"{LATENCY} calls/s)"
        )
        print(f"{'K':>3} {'calls':>6} {'calls/s':>9} {'ideal':>7} {'ratio':>6}")
        worst = float("inf")
        for slots in SLOTS:
            calls = slots * args.calls_per_slot
            rate = http_throughput(url, slots, calls)
            ideal = slots / LATENCY
            worst = min(worst, rate / ideal)
            print(f"{slots:>3} {calls:>6} {rate:>9.1f} {ideal:>7.0f} {rate / ideal:>6.2f}")
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"worst ratio {worst:.2f} (target >= 0.80): {'ok' if worst >= 0.8 else 'BELOW TARGET'}")
    rate = cached_throughput(args.cached)
    print(
        f"cached verdicts: {rate:,.0f}/s over {args.cached:,} (target >= 50,000/s): "
        f"{'ok' if rate >= 50_000 else 'BELOW TARGET'}"
    )


if __name__ == "__main__":
    main()
