"""Throughput of curator's anonymiser against vanilla Presidio on the same chat corpus.

Baseline: Presidio's AnalyzerEngine (blank spaCy pipeline, the very recognizers curator
uses) + AnonymizerEngine, one message at a time, as its docs show. Curator: the same
recognizers called directly with prefilters, batching and a cache, then pseudonyms from a
vault and curator.spans edits. Both are timed after construction and a warm-up on other
text; recall on the labelled pattern PII in the corpus is printed for both.

    python benchmarks/anonymise.py            # ~4k messages, a minute or two on 2 busy cores
    python benchmarks/anonymise.py --full     # ~40k messages
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from curator.anonymise.detect import (  # noqa: E402
    KINDS,
    PATTERN_ENTITIES,
    Detector,
    blank_nlp_engine,
    recognizers,
)
from curator.anonymise.evaluate import score  # noqa: E402
from curator.anonymise.rewrite import Rewriter  # noqa: E402
from curator.anonymise.terms import TermIndex  # noqa: E402
from curator.anonymise.vault import Vault  # noqa: E402
from tests.anonymise.synth import PII_TYPES, pii_corpus, thread_export  # noqa: E402

SHORT_REPLIES = ("lgtm", "thanks!", "+1", "on it", "looking now", "merged", "can you share logs?", "ack")


def corpus(size: int, seed: int = 1) -> list[tuple[str, list[tuple[int, int, str]], bool]]:
    """Chat messages: synthetic thread posts, labelled PII lines and common short replies.

    The third member says whether the line is fully labelled (scored for recall/precision);
    thread posts hold unlabelled emails and phones, so they count for speed only."""
    rng = random.Random(seed)
    lines: list[tuple[str, list, bool]] = []
    labelled = pii_corpus(seed=seed, per_type=max(20, size // 20))
    thread_seed = seed
    while len(lines) < size:
        thread_seed += 1
        export = thread_export(seed=thread_seed, n_users=8, n_posts=40)
        for post in export["posts"].values():
            lines.append((post["message"], [], False))
            if rng.random() < 0.25:
                lines.append((rng.choice(SHORT_REPLIES), [], False))
        lines.extend((text, labels, True) for text, labels in labelled[: size // 10])
        labelled = labelled[size // 10 :]
    lines = lines[:size]
    rng.shuffle(lines)
    return lines


def run_presidio(texts: list[str]) -> tuple[float, list[list[tuple[int, int, str]]]]:
    from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
    from presidio_anonymizer import AnonymizerEngine

    registry = RecognizerRegistry(recognizers=recognizers(), supported_languages=["en"])
    analyzer = AnalyzerEngine(registry=registry, nlp_engine=blank_nlp_engine(), supported_languages=["en"])
    anonymizer = AnonymizerEngine()
    entities = [*PATTERN_ENTITIES, "PERSON"]
    for warm in ("warm up ana@globex.io 415-867-2231", "Thanks Jennifer Walsh"):
        anonymizer.anonymize(warm, analyzer.analyze(warm, language="en", entities=entities))
    found = []
    started = time.perf_counter()
    for text in texts:
        results = analyzer.analyze(text, language="en", entities=entities)
        anonymizer.anonymize(text=text, analyzer_results=results)
        found.append([(r.start, r.end, KINDS.get(r.entity_type, "")) for r in results])
    return time.perf_counter() - started, found


def run_curator(texts: list[str]) -> tuple[float, list[list[tuple[int, int, str]]]]:
    vault = Vault(b"benchmark key, not a secret....")
    detector = Detector()
    detector.detect("warm up ana@globex.io 415-867-2231 Thanks Jennifer Walsh")
    detector = Detector()  # a fresh, empty cache for the timed run (patterns stay compiled)
    rewriter = Rewriter(vault, TermIndex(), detector)
    started = time.perf_counter()
    rewriter.texts(texts)
    elapsed = time.perf_counter() - started
    found = [[(h.start, h.end, h.kind) for h in hits] for hits in detector.detect_many(texts)]
    return elapsed, found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="ten times the default corpus")
    parser.add_argument("--size", type=int, default=4000, help="messages in the corpus")
    args = parser.parse_args()
    size = args.size * (10 if args.full else 1)
    lines = corpus(size)
    texts = [text for text, _, _ in lines]
    chars = sum(len(t) for t in texts)
    print(f"corpus: {len(texts)} messages, {chars} chars, {len(set(texts))} distinct")

    presidio_seconds, presidio_found = run_presidio(texts)
    curator_seconds, curator_found = run_curator(texts)
    scored = [i for i, (_, _, labelled) in enumerate(lines) if labelled]
    truth = [lines[i][:2] for i in scored]
    print(f"labelled lines scored for recall and precision: {len(truth)}")
    presidio_score = score(truth, [presidio_found[i] for i in scored])
    curator_score = score(truth, [curator_found[i] for i in scored])

    print(f"{'':10} {'chars/s':>12} {'seconds':>9}   recall per type (precision)")
    for name, seconds, result in (("presidio", presidio_seconds, presidio_score), ("curator", curator_seconds, curator_score)):
        per_type = "  ".join(f"{k} {result[k]['recall']:.3f} ({result[k]['precision']:.2f})" for k in PII_TYPES)
        print(f"{name:10} {chars / seconds:12.0f} {seconds:9.2f}   {per_type}")
    ratio = presidio_seconds / curator_seconds
    recall_ok = all(curator_score[k]["recall"] >= presidio_score[k]["recall"] for k in PII_TYPES)
    print(f"ratio: curator is {ratio:.1f}x faster than vanilla Presidio (target >= 5x); "
          f"recall {'equal or better' if recall_ok else 'LOWER'} on every type")
    return 0 if ratio >= 5 and recall_ok else 1


if __name__ == "__main__":
    sys.exit(main())
