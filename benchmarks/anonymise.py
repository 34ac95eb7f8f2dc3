"""Throughput and accuracy of curator's anonymiser against vanilla Presidio on the same texts.

Baseline: Presidio's AnalyzerEngine (blank spaCy pipeline, the very recognizers curator
uses, its own name, address, card and IBAN finders included) + AnonymizerEngine, one message
at a time, as its docs show. Curator: the same recognizers called directly with prefilters,
batching, phone-shaped windows and a cache, then pseudonyms from a vault and curator.spans
edits. Both are timed after construction and a warm-up on other text, over synthetic chat
threads plus the held-out split of the labelled PII set (tests/data/pii/test.jsonl), and
recall and precision per type on that split are printed for both (tests/data/pii/scoring.py).
As in an import, forked processes, one per core (curator.workers), detect the next batches
while curator's own process rewrites; its time with detection in one process is printed too.

    python benchmarks/anonymise.py            # ~4.5k texts, a minute or two on 2 busy cores
    python benchmarks/anonymise.py --full     # ~40k chat messages and the labelled split
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from curator.anonymise import (  # noqa: E402
    ENTITIES,
    Detector,
    Rewriter,
    TermIndex,
    Vault,
    blank_nlp_engine,
    entity_kind,
    presidio_recognizers,
)
from curator.workers import available_cores, forked_map  # noqa: E402
from tests.anonymise.synth import pii_corpus, thread_export  # noqa: E402
from tests.data.pii import scoring  # noqa: E402

SCORED_TYPES = tuple(
    t for t in scoring.TYPES if t != "username"
)  # issue 12 sets no bar on usernames

SHORT_REPLIES = (
    "lgtm",
    "thanks!",
    "+1",
    "on it",
    "looking now",
    "merged",
    "can you share logs?",
    "ack",
)


def corpus(size: int, seed: int = 1) -> list[str]:
    """Chat messages: synthetic thread posts, lines with pattern PII and common short replies
    (timed only; the labelled split is added to them by main)."""
    rng = random.Random(seed)
    lines: list[str] = []
    with_pii = [text for text, _ in pii_corpus(seed=seed, per_type=max(20, size // 20))]
    thread_seed = seed
    while len(lines) < size:
        thread_seed += 1
        export = thread_export(seed=thread_seed, n_users=8, n_posts=40)
        for post in export["posts"].values():
            lines.append(post["message"])
            if rng.random() < 0.25:
                lines.append(rng.choice(SHORT_REPLIES))
        lines.extend(with_pii[: size // 10])
        with_pii = with_pii[size // 10 :]
    lines = lines[:size]
    rng.shuffle(lines)
    return lines


def run_presidio(texts: list[str]) -> tuple[float, list[list[tuple[int, int, str]]]]:
    from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
    from presidio_anonymizer import AnonymizerEngine

    registry = RecognizerRegistry(recognizers=presidio_recognizers(), supported_languages=["en"])
    analyzer = AnalyzerEngine(
        registry=registry, nlp_engine=blank_nlp_engine(), supported_languages=["en"]
    )
    anonymizer = AnonymizerEngine()
    entities = list(ENTITIES)
    for warm in ("warm up ana@globex.io 415-867-2231", "Thanks Jennifer Walsh"):
        anonymizer.anonymize(warm, analyzer.analyze(warm, language="en", entities=entities))
    found = []
    started = time.perf_counter()
    for text in texts:
        results = analyzer.analyze(text, language="en", entities=entities)
        anonymizer.anonymize(text=text, analyzer_results=results)
        found.append([(r.start, r.end, entity_kind(r.entity_type)) for r in results])
    return time.perf_counter() - started, found


def run_curator(
    texts: list[str], workers: int | None = None
) -> tuple[float, list[list[tuple[int, int, str]]], str]:
    """Seconds to rewrite the texts, the spans found in each, and the sha256 of the rewrites
    (a fingerprint of the anonymiser's behaviour: a change that should alter no output byte
    keeps it)."""
    vault = Vault(b"benchmark key, not a secret....")
    detector = Detector(workers=workers)
    detector.detect("warm up ana@globex.io 415-867-2231 Thanks Jennifer Walsh")
    detector = Detector(
        workers=workers
    )  # a fresh, empty cache for the timed run (patterns stay compiled)
    rewriter = Rewriter(vault, TermIndex(), detector)
    started = time.perf_counter()
    rewritten = rewriter.texts(texts)
    elapsed = time.perf_counter() - started
    found = [[(h.start, h.end, h.kind) for h in hits] for hits in detector.detect_many(texts)]
    return elapsed, found, hashlib.sha256("\x00".join(rewritten).encode()).hexdigest()


def busy_loop(_part: int) -> float:
    started = time.perf_counter()
    total = 0
    for i in range(3_000_000):
        total += i * i
    return time.perf_counter() - started


def parallel_capacity() -> float:
    """How many times one core's work this machine does with every core busy (a pure-Python
    loop alone, then one per core side by side): what forked workers can gain here at most."""
    alone = min(busy_loop(0) for _ in range(2))
    cores = available_cores()
    side_by_side = max(forked_map(busy_loop, list(range(cores))))
    return cores * alone / side_by_side


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="ten times the default chat corpus")
    parser.add_argument(
        "--size", type=int, default=4000, help="chat messages besides the labelled split"
    )
    args = parser.parse_args()
    size = args.size * (10 if args.full else 1)
    records = scoring.load("test")
    texts = [r["text"] for r in records] + corpus(size)
    random.Random(2).shuffle(texts)
    chars = sum(len(t) for t in texts)
    print(
        f"corpus: {len(texts)} texts ({len(records)} labelled, tests/data/pii/test.jsonl), "
        f"{chars} chars, {len(set(texts))} distinct"
    )

    presidio_seconds, presidio_found = run_presidio(texts)
    curator_seconds, curator_found, rewrites_sha256 = run_curator(texts)
    one_process_seconds, _, _ = run_curator(texts, workers=1)
    index = {text: i for i, text in enumerate(texts)}
    labelled = [index[r["text"]] for r in records]
    presidio_score = scoring.score(records, [presidio_found[i] for i in labelled])
    curator_score = scoring.score(records, [curator_found[i] for i in labelled])

    print(
        f"{'':18} {'chars/s':>9} {'seconds':>8}   recall per type on the labelled split (precision)"
    )
    for name, seconds, result in (
        ("presidio", presidio_seconds, presidio_score),
        ("curator", curator_seconds, curator_score),
    ):
        per_type = "  ".join(
            f"{k} {result[k]['recall']:.2f} ({result[k]['precision']:.2f})" for k in SCORED_TYPES
        )
        print(f"{name:18} {chars / seconds:9.0f} {seconds:8.2f}   {per_type}")
    print(
        f"{'curator, 1 process':18} {chars / one_process_seconds:9.0f} "
        f"{one_process_seconds:8.2f}   (detection in this process only: "
        f"{presidio_seconds / one_process_seconds:.1f}x Presidio)"
    )
    print(
        f"this machine's {available_cores()} cores, all busy, do {parallel_capacity():.2f} times "
        "the work of one"
    )
    print(f"rewrites sha256: {rewrites_sha256}")
    ratio = presidio_seconds / curator_seconds
    recall_ok = all(curator_score[k]["recall"] >= presidio_score[k]["recall"] for k in SCORED_TYPES)
    print(
        f"ratio: curator (detection on {available_cores()} cores) is {ratio:.1f}x faster than "
        f"vanilla Presidio (target >= 5x); recall {'equal or better' if recall_ok else 'LOWER'} "
        "on every type"
    )
    return 0 if ratio >= 5 and recall_ok else 1


if __name__ == "__main__":
    sys.exit(main())
