"""Curator's anonymiser on labelled sentences this project did not write (presidio-evaluator).

Our own labelled set (tests/data/pii) was written by the people who wrote the detector; this
benchmark adds sentences made by presidio-evaluator's generator (Microsoft's templates and
FakeNameGenerator.com identities, shipped in the package) and prints, for both sets and per
type: recall and precision (tests/data/pii/scoring.py's rule) and leak recall (the labelled
value is gone from the rewritten text; see `leaked_words`). Then Presidio's stock
AnalyzerEngine (its default recognizers, a blank spaCy pipeline, no NER model) on the same
texts: its recall, precision and leak recall, and its throughput against curator's.

Curator rewrites as an import does (raw input, rewrite.settle), each set through its own
vault. One vault cannot hold the generated set today: it runs out of first-name pseudonyms
(CuratorError) after some 1,500 of its texts, so it then rewrites through a fresh vault per
half, quarter... of the texts, and says so.

The generator runs in its own venv (`make bench-venv` makes .bench-venv with a pinned
presidio-evaluator, whose spaCy, transformers and pandas never touch curator's venv), as a
subprocess (scripts/presidio_sentences.py), offline, at a fixed seed; its JSONL is cached
under build/pii-generated/ and never committed. The misses on the generated set, grouped, go
to build/pii-misses.md.

    python benchmarks/pii_generated.py     # 1-2 minutes on 2 busy cores; skips without .bench-venv
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from curator.anonymise import (  # noqa: E402
    Detector,
    Rewriter,
    TermIndex,
    Vault,
    blank_nlp_engine,
    entity_kind,
    offline_tld_extract,
    reserve_hits,
    settle,
)
from curator.errors import CuratorError  # noqa: E402
from tests.data.pii import scoring  # noqa: E402

BENCH_VENV = Path(os.environ.get("CURATOR_BENCH_VENV", REPO / ".bench-venv"))
GENERATOR = REPO / "scripts" / "presidio_sentences.py"
SEED = 28  # issue 28
COUNT = 6000  # enough for ~40 IPs, the rarest scored type in the package's templates
LOWER_CASE_RATIO = 0.05  # the package README's value
CACHE_DIR = REPO / "build" / "pii-generated"
MISSES = REPO / "build" / "pii-misses.md"
SCORED = ("person", "street_address", "email", "phone", "credit_card", "iban", "ip", "ssn")
VAULT_KEY = b"benchmark key, not a secret...."

# ---------------------------------------------------------------- from the package's labels
#
# The templates' placeholders (not Presidio's entity types, which call a street name alone and
# a postcode alone STREET_ADDRESS) map to curator's types as tests/data/pii/README.md labels:
PERSON_PLACEHOLDERS = frozenset(
    {
        "person",
        "name",
        "name_male",
        "name_female",
        "first_name",
        "first_name_male",
        "first_name_female",
        "first_name_nonbinary",
        "last_name",
        "last_name_male",
        "last_name_female",
    }
)
DIRECT = {
    "email": "email",
    "phone_number": "phone",
    "credit_card_number": "credit_card",
    "iban": "iban",
    "ip_address": "ip",
    "ssn": "ssn",
    "address": "street_address",
}
# A template's address in parts ("{{building_number}} {{street_name}}\n {{city}} ...") is one
# street address from the house number on, when the parts follow each other with only
# spaces, commas, line breaks and the templates' quote marks (">", "???") between them and
# hold a street with a number: a {{building_number}}, or a {{street_name}} with digits of its
# own (FakeNameGenerator's streets come with their house number, "Fortunastrasse 20", and
# some are "P.O. Box 43"), alone or not. A country alone on the last line stays outside, as
# in tests/data/pii. Parts that make no such address stand alone as below.
ADDRESS_PARTS = frozenset(
    {
        "building_number",
        "street_name",
        "secondary_address",
        "city",
        "state",
        "state_abbr",
        "postcode",
        "zipcode",
        "country",
    }
)
ADDRESS_GAP = re.compile(r"[\s,>?]*")
# Personal, but no type curator is scored on: a detection on them is neither right nor wrong
# (scoring.py's "overlaps only labelled spans of other types").
OTHER = frozenset(
    {
        "building_number",
        "secondary_address",
        "postcode",
        "zipcode",
        "us_driver_license",
        "date_of_birth",
        "age",
        "url",
    }
)
# Everything else (organization, city, country, state, a street_name alone without a number,
# nationality, prefix, job, year, day_of_week, date_time) is not labelled, like organisations
# and lone cities or streets in tests/data/pii: a detection on them overlaps no label and
# counts as wrong.


def _merged_addresses(spans: list[dict], text: str) -> tuple[list[dict], list[dict]]:
    """(street addresses assembled from runs of parts, the spans left over)."""
    out: list[dict] = []
    rest: list[dict] = []
    run: list[dict] = []

    def close() -> None:
        parts = list(run)
        while (
            parts
            and parts[-1]["placeholder"] == "country"
            and len(parts) > 1
            and "\n" in text[parts[-2]["end"] : parts[-1]["start"]]
        ):
            rest.append(parts.pop())
        streets = [p for p in parts if p["placeholder"] == "street_name"]
        numbered = any(p["placeholder"] == "building_number" for p in parts) or any(
            re.search(r"\d", p["value"]) for p in streets
        )
        if streets and numbered:
            start, end = parts[0]["start"], parts[-1]["end"]
            out.append(
                {
                    "start": start,
                    "end": end,
                    "placeholder": "+".join(p["placeholder"] for p in parts),
                }
            )
        else:
            rest.extend(parts)
        run.clear()

    for span in spans:
        if span["placeholder"] in ADDRESS_PARTS:
            if run and not ADDRESS_GAP.fullmatch(text[run[-1]["end"] : span["start"]]):
                close()
            run.append(span)
            continue
        if run:
            close()
        rest.append(span)
    if run:
        close()
    return out, rest


def to_curator(raw: dict) -> dict:
    """A generated record in tests/data/pii's shape: `spans` of curator's types; `others`,
    personal spans of no scored type; `negatives`, labelled spans that are not personal data
    (kept only to say, in the miss report, what a wrong detection hit)."""
    text = raw["text"]
    addresses, rest = _merged_addresses(sorted(raw["spans"], key=lambda s: s["start"]), text)
    spans = [
        {
            "start": a["start"],
            "end": a["end"],
            "type": "street_address",
            "value": text[a["start"] : a["end"]],
            "placeholder": a["placeholder"],
        }
        for a in addresses
    ]
    others, negatives = [], []
    for span in rest:
        placeholder = span["placeholder"]
        kind = "person" if placeholder in PERSON_PLACEHOLDERS else DIRECT.get(placeholder)
        entry = {
            "start": span["start"],
            "end": span["end"],
            "value": span["value"],
            "placeholder": placeholder,
        }
        entry.update({key: span[key] for key in ("name_set", "country") if key in span})
        if kind:
            spans.append({**entry, "type": kind})
        elif placeholder in OTHER:
            others.append({**entry, "type": "other"})
        else:
            negatives.append({**entry, "type": "negative"})
    return {
        "id": raw["id"],
        "text": text,
        "template": raw.get("template", ""),
        "template_id": raw.get("template_id"),
        "lowered": raw.get("lowered", False),
        "spans": sorted(spans, key=lambda s: s["start"]),
        "others": others,
        "negatives": negatives,
    }


# ---------------------------------------------------------------- the generated set


def _installed(venv: Path, distribution: str) -> str | None:
    found = sorted(venv.glob(f"lib/python*/site-packages/{distribution}-*.dist-info"))
    return (
        found[-1].name.removeprefix(f"{distribution}-").removesuffix(".dist-info")
        if found
        else None
    )


def evaluator_version(venv: Path = BENCH_VENV) -> str | None:
    """The presidio-evaluator version installed in the side venv, or None when there is none."""
    if not (venv / "bin" / "python").exists():
        return None
    return _installed(venv, "presidio_evaluator")


def cache_path(venv: Path = BENCH_VENV, seed: int = SEED, count: int = COUNT) -> Path:
    """Named after everything the sentences depend on: the package and Faker versions, the
    generator script's own text, the seed and the count."""
    script = hashlib.sha256(GENERATOR.read_bytes()).hexdigest()[:10]
    return CACHE_DIR / (
        f"presidio-evaluator-{evaluator_version(venv)}-faker-{_installed(venv, 'faker')}-"
        f"{script}-seed{seed}-n{count}.jsonl"
    )


def generated(
    seed: int = SEED, count: int = COUNT, venv: Path = BENCH_VENV
) -> tuple[dict, list[dict]]:
    """(header, records in curator's shape): the cached JSONL, made first when missing."""
    if evaluator_version(venv) is None:
        raise FileNotFoundError(f"{venv} has no presidio-evaluator: run `make bench-venv`")
    path = cache_path(venv, seed, count)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            [
                str(venv / "bin" / "python"),
                str(GENERATOR),
                "--seed",
                str(seed),
                "--count",
                str(count),
                "--lower-case-ratio",
                str(LOWER_CASE_RATIO),
                "--out",
                str(path),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            cwd=path.parent,
            env={**os.environ, "TQDM_DISABLE": "1", "HF_HUB_OFFLINE": "1"},
        )
        if done.returncode:
            raise RuntimeError(
                f"{GENERATOR.name} failed ({done.returncode}):\n{done.stderr[-3000:]}"
            )
    with open(path, encoding="utf-8") as handle:
        header = json.loads(handle.readline())["header"]
        records = [to_curator(json.loads(line)) for line in handle]
    return header, records


def source_line(header: dict) -> str:
    return (
        f"{header['source']} {header['version']} (Faker {header['faker']}), "
        "PresidioSentenceFaker with the "
        "package's templates and FakeNameGenerator records, "
        f"seed {header['seed']}, {header['count']} sentences, "
        f"lower_case_ratio {header['lower_case_ratio']}"
    )


# ---------------------------------------------------------------- scoring


# ---------------------------------------------------------------- leaks
#
# A labelled value has leaked when the rewritten text still shows it:
# - email, phone, card, IBAN, IP, SSN: the value as written, or (phone, card, IBAN, SSN) its
#   letters and digits without separators, still occur (case-insensitively, not inside a
#   longer word or number);
# - person: any *name word* of it is left: a word of two letters or more that is not a
#   particle ("van", "de", "El") nor an honorific or degree the generator puts around a name
#   ("Mrs.", "Dr.", "DDS", "MD": thousands share each); "Maria Lopez" rewritten "Jane Lopez"
#   leaks Lopez;
# - street address: any *distinctive word* of it is left (below).
# "Left" means more occurrences in the rewritten text than in the original outside every
# personal span: a template's own "Street" or a city named again on its own is not a leak.
# The counts are an upper bound: a pseudonym that happens to equal a real word counts too.
#
# Distinctive: a word that narrows down where someone lives beyond what thousands of
# addresses share. Not distinctive, so left alone without counting as a leak:
# - stop words and the templates' connectives ("the", "corner", "of", "and", "de", "la");
# - street types and unit words: USPS street suffixes as Faker ships them ("Street",
#   "Forges", "Junctions"), their abbreviations, the French, German, Spanish, Italian, Dutch,
#   Polish, Portuguese, Hungarian and Nordic ones in FakeNameGenerator's streets, and "Apt",
#   "Suite", "Unit", "Box", "APO"...: every town has a "Main Street";
# - directions ("N", "North", "SW");
# - numbers of at most three digits, with or without an ordinal suffix ("42", "5th"): house
#   and flat numbers, each on most streets (a longer one, a postcode or a 5-digit house
#   number, is distinctive);
# - one-letter words;
# - US states (names and two-letter codes) and countries, as whole phrases ("South Africa"),
#   unless a street word follows ("Pennsylvania Ave"): each names millions of households. A
#   city is distinctive, many are small (one named like a state, "Washington", is not).
# An address with no distinctive word at all leaks when it is left as written.

PARTICLES = frozenset(
    {
        "de",
        "da",
        "di",
        "do",
        "dos",
        "das",
        "del",
        "della",
        "der",
        "den",
        "du",
        "des",
        "van",
        "von",
        "le",
        "la",
        "el",
        "al",
        "bin",
        "ibn",
        "ben",
        "st",
        "mc",
        "y",
    }
)
# Faker's prefixes and suffixes of names (en_US person provider), in a labelled span.
HONORIFICS = frozenset(
    {"mr", "mrs", "ms", "miss", "mx", "dr", "prof", "jr", "sr", "ii", "iii", "iv", "v"}
    | {"md", "dds", "phd", "dvm"}
)
# "nan": the package writes a FakeNameGenerator record's missing state as pandas' NaN.
STOP = frozenset(
    {
        "nan",
        "the",
        "of",
        "and",
        "at",
        "on",
        "in",
        "to",
        "corner",
        "a",
        "an",
        "de",
        "la",
        "le",
        "les",
        "du",
        "des",
        "del",
        "di",
        "da",
        "do",
        "dos",
        "das",
        "der",
        "den",
        "die",
        "am",
        "im",
        "y",
        "e",
        "et",
        "und",
    }
)
STREET_WORDS = frozenset(
    """
st str ave av avda avenue rd road blvd boulevard bd ln lane dr drive ct court pl place sq square
hwy highway pkwy parkway cir circle ter terrace way wy trl trail aly alley plz plaza expy fwy cres
crescent gr grove cl close mews row walk gdns gardens hl hill apt apartment suite ste unit box po p
o floor fl bldg building rm room flat
dept no nr psc cmr apo fpo dpo usns uss usnv usnv usns aa ae ap
rue allee allée chemin impasse quai route cours avenida calle carrer carretera camino paseo passeig
plaza praça praca rua travessa largo via viale piazza corso vicolo strasse straße gasse weg platz
allee ring damm ufer pfad steig chaussee straat laan plein gracht kade singel dreef ulica ul aleja
al os osiedle utca út ut u tér ter körút krt gatan gata vägen vej gade vei veien gate tie katu
kuja polku
""".split()
)
DIRECTIONS = frozenset(
    {"n", "s", "e", "w", "ne", "nw", "se", "sw", "north", "south", "east", "west"}
)
SHORT_NUMBER = re.compile(r"\d{1,3}(?:st|nd|rd|th)?")
_WORD = re.compile(r"[^\W_]+")
_NAME_WORD = re.compile(r"[^\W\d_]+")
LEAK_COMPACT = frozenset({"phone", "credit_card", "iban", "ssn"})


def _faker_words() -> tuple[frozenset[str], re.Pattern[str]]:
    from faker.providers.address.en import Provider as English
    from faker.providers.address.en_US import Provider as UnitedStates

    suffixes = frozenset(s.casefold() for s in UnitedStates.street_suffixes)
    regions = sorted(
        {
            *UnitedStates.states,
            *UnitedStates.states_abbr,
            *English.countries,
            "United States",
            "United Kingdom",
            "Great Britain",
        },
        key=len,
        reverse=True,
    )
    streets = "|".join(re.escape(w) for w in sorted(suffixes | STREET_WORDS, key=len, reverse=True))
    # a region's name before a street word is a street's ("Pennsylvania Ave"): distinctive
    pattern = re.compile(
        r"(?<![^\W_])(?:" + "|".join(re.escape(r) for r in regions) + r")(?![^\W_])"
        r"(?!\.?\s+(?:" + streets + r")(?![^\W_]))",
        re.IGNORECASE,
    )
    return suffixes, pattern


STREET_SUFFIXES, REGIONS = _faker_words()


def distinctive_words(value: str, kind: str) -> list[str]:
    """The words of a person or street address that must not be left (see above), casefolded."""
    if kind == "person":
        return [
            w.casefold()
            for w in _NAME_WORD.findall(value)
            if len(w) > 1 and w.casefold() not in PARTICLES and w.casefold() not in HONORIFICS
        ]
    words = []
    for word in _WORD.findall(REGIONS.sub(" ", value)):
        folded = word.casefold()
        if (
            len(folded) < 2
            or folded in STOP
            or folded in STREET_WORDS
            or folded in STREET_SUFFIXES
            or folded in DIRECTIONS
            or SHORT_NUMBER.fullmatch(folded)
        ):
            continue
        words.append(folded)
    return words


def _count(needle: str, haystack: str) -> int:
    return len(re.findall(r"(?<![^\W_])" + re.escape(needle) + r"(?![^\W_])", haystack))


def _compact(text: str) -> str:
    return "".join(c for c in text.casefold() if c.isalnum())


def _outside_spans(record: dict) -> str:
    """The original text with every personal span blanked: what may stay in any rewrite."""
    chars = list(record["text"])
    for span in [*record["spans"], *record.get("others", ())]:
        chars[span["start"] : span["end"]] = " " * (span["end"] - span["start"])
    return "".join(chars)


def leaked_words(record: dict, span: dict, rewritten: str) -> list[str]:
    """What of the labelled span the rewritten text still shows ([] when nothing leaked)."""
    kind = span["type"]
    base = _outside_spans(record).casefold()
    new = rewritten.casefold()
    value = span["value"].casefold()
    if kind in ("person", "street_address"):
        words = distinctive_words(span["value"], kind)
        if words:
            return sorted({w for w in words if _count(w, new) > _count(w, base)})
    left = [value] if _count(value, new) > _count(value, base) else []
    compact = _compact(value)
    if (
        not left
        and kind in LEAK_COMPACT
        and len(compact) >= 7
        and _compact(new).count(compact) > _compact(base).count(compact)
    ):
        left = [compact]
    return left


def leak_score(records: Sequence[dict], rewritten: Sequence[str]) -> dict[str, dict[str, float]]:
    labelled, gone = Counter[str](), Counter[str]()
    for record, new in zip(records, rewritten, strict=True):
        for span in record["spans"]:
            labelled[span["type"]] += 1
            gone[span["type"]] += not leaked_words(record, span, new)
    return {
        kind: {
            "labelled": labelled[kind],
            "gone": gone[kind],
            "leak_recall": gone[kind] / labelled[kind] if labelled[kind] else 1.0,
        }
        for kind in scoring.TYPES
    }


# ---------------------------------------------------------------- the two anonymisers


def rewrite_through_one_vault(texts: list[str], detector: Detector) -> list[str]:
    """As an import rewrites a document's texts: every name found reserved before the first
    pseudonym is drawn (rewrite.reserve_hits), raw input (a name made of pseudonym words is
    still a real person), rounds until the vault learns nothing new (rewrite.settle)."""
    vault = Vault(VAULT_KEY)
    reserve_hits(vault, detector, texts)
    return settle(
        vault, lambda: Rewriter(vault, TermIndex(), detector, raw_input=True).texts(texts)
    )


def rewrite_in_chunks(texts: list[str], detector: Detector, size: int) -> list[str]:
    out: list[str] = []
    for i in range(0, len(texts), size):
        out.extend(rewrite_through_one_vault(texts[i : i + size], detector))
    return out


def anonymise(texts: list[str], detector: Detector) -> tuple[list[str], int, str]:
    """The texts rewritten through one vault; when the vault runs out of pseudonyms
    (CuratorError), through a fresh vault per half, quarter... of them, the largest that
    fits. Returns the rewrites, the texts per vault and a note saying which it took."""
    try:
        return rewrite_through_one_vault(texts, detector), len(texts), "one vault"
    except CuratorError as error:
        failure = str(error)
    size = len(texts) // 2
    while size >= 50:
        try:
            rewritten = rewrite_in_chunks(texts, detector, size)
            return (
                rewritten,
                size,
                f"a fresh vault per {size} texts "
                f"(one vault over all {len(texts)} failed: {failure})",
            )
        except CuratorError:
            size //= 2
    raise CuratorError(f"even 50 texts per vault fail: {failure}")


def time_curator(texts: list[str], size: int, workers: int | None, rewrite: bool) -> float:
    """Seconds to detect (Detector.detect_many) or detect and rewrite the texts (through a
    vault per `size` texts), from an empty cache, after a warm-up on other text."""
    detector = Detector(workers=workers)
    detector.detect("warm up ana@globex.io 415-867-2231 Thanks Jennifer Walsh")
    detector = Detector(workers=workers)  # empty cache for the timed run (patterns stay compiled)
    started = time.perf_counter()
    if rewrite:
        rewrite_in_chunks(texts, detector, size)
    else:
        detector.detect_many(texts)
    return time.perf_counter() - started


def stock_presidio():  # noqa: ANN201 - (AnalyzerEngine, AnonymizerEngine)
    """Presidio's AnalyzerEngine as shipped: its default registry and every default recognizer,
    on a blank spaCy pipeline (so its NER recognizer finds nothing: no model is installed or
    downloaded). The one change: tldextract reads its bundled suffix list instead of trying
    to download one (EmailRecognizer validates domains through it)."""
    import tldextract.tldextract
    from presidio_analyzer import AnalyzerEngine
    from presidio_anonymizer import AnonymizerEngine

    tldextract.tldextract.TLD_EXTRACTOR = offline_tld_extract()
    return AnalyzerEngine(
        nlp_engine=blank_nlp_engine(), supported_languages=["en"]
    ), AnonymizerEngine()


def run_presidio(texts: list[str]) -> tuple[list[list[scoring.Detection]], list[str]]:
    """Stock Presidio's spans in each text and the texts it anonymised."""
    analyzer, anonymizer = stock_presidio()
    found, out = [], []
    for text in texts:
        results = analyzer.analyze(text, language="en")
        out.append(anonymizer.anonymize(text=text, analyzer_results=results).text)
        found.append([(r.start, r.end, entity_kind(r.entity_type)) for r in results])
    return found, out


def time_presidio(texts: list[str], anonymize: bool) -> float:
    """Seconds for stock Presidio to analyze (and anonymize) the texts one at a time, as its
    docs show, after construction and a warm-up on other text."""
    analyzer, anonymizer = stock_presidio()
    for warm in ("warm up ana@globex.io 415-867-2231", "Thanks Jennifer Walsh"):
        anonymizer.anonymize(warm, analyzer.analyze(warm, language="en"))
    started = time.perf_counter()
    for text in texts:
        results = analyzer.analyze(text, language="en")
        if anonymize:
            anonymizer.anonymize(text=text, analyzer_results=results)
    return time.perf_counter() - started


# ---------------------------------------------------------------- one run, both sets


def evaluate(
    sets: dict[str, list[dict]], workers: int | None = None, presidio: bool = True
) -> dict:
    """Per set, on its distinct texts: curator (its own vaults: one set's pseudonyms are not
    another's names) and stock Presidio; per type, recall, precision and leak recall."""
    result: dict = {"sets": {}}
    for name, records in sets.items():
        texts = list(dict.fromkeys(r["text"] for r in records))
        index = {text: i for i, text in enumerate(texts)}
        at = [index[r["text"]] for r in records]
        detector = Detector(workers=workers)
        rewritten, size, note = anonymise(texts, detector)
        found = [[(h.start, h.end, h.kind) for h in hits] for hits in detector.detect_many(texts)]
        entry: dict[str, Any] = {
            "records": records,
            "texts": texts,
            "vault": note,
            "vault_size": size,
            "found": [found[i] for i in at],
            "rewritten": [rewritten[i] for i in at],
        }
        entry["score"] = scoring.score(records, entry["found"])
        entry["leaks"] = leak_score(records, entry["rewritten"])
        if presidio:
            p_found, p_out = run_presidio(texts)
            entry["presidio_score"] = scoring.score(records, [p_found[i] for i in at])
            entry["presidio_leaks"] = leak_score(records, [p_out[i] for i in at])
        result["sets"][name] = entry
    return result


THROUGHPUT = (
    ("curator detect (Detector.detect_many, forked per core)", "detect"),
    ("curator detect, one process", "detect 1"),
    ("curator detect + rewrite as an import (raw input, settle)", "rewrite"),
    ("curator detect + rewrite, one process", "rewrite 1"),
    ("stock Presidio analyze", "analyze"),
    ("stock Presidio analyze + anonymize", "anonymize"),
)


def throughput(entries: Sequence[dict], repeats: int = 3) -> dict[str, float]:
    """Seconds for each row of THROUGHPUT over the sets' distinct texts (each set through its
    own vaults), the best of `repeats` runs taken in turn, so that load from other work on
    the machine weighs on all of them alike."""
    runs: dict[str, Callable[[list[str], int], float]] = {
        "detect": lambda texts, size: time_curator(texts, size, None, rewrite=False),
        "detect 1": lambda texts, size: time_curator(texts, size, 1, rewrite=False),
        "rewrite": lambda texts, size: time_curator(texts, size, None, rewrite=True),
        "rewrite 1": lambda texts, size: time_curator(texts, size, 1, rewrite=True),
        "analyze": lambda texts, size: time_presidio(texts, anonymize=False),
        "anonymize": lambda texts, size: time_presidio(texts, anonymize=True),
    }
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeats):
        for key, run in runs.items():
            best[key] = min(best[key], sum(run(e["texts"], e["vault_size"]) for e in entries))
    return best


def print_tables(result: dict, header: dict) -> None:
    for name, entry in result["sets"].items():
        print(
            f"\n{name}\n  curator rewrote its {len(entry['texts'])} distinct texts "
            f"through {entry['vault']}"
        )
        presidio = "presidio_score" in entry
        print(
            f"  {'type':15} {'labelled':>8}   "
            f"{'recall':>6} {'precision':>9} {'leak-recall':>11}"
            + (
                f"   | stock Presidio: {'recall':>6} {'precision':>9} {'leak-recall':>11}"
                if presidio
                else ""
            )
        )
        for kind in SCORED:
            row, leak = entry["score"][kind], entry["leaks"][kind]
            line = (
                f"  {kind:15} {row['labelled']:8d}   "
                f"{row['recall']:6.3f} {row['precision']:9.3f} {leak['leak_recall']:11.3f}"
            )
            if presidio:
                p, pl = entry["presidio_score"][kind], entry["presidio_leaks"][kind]
                line += (
                    f"   | {'':16}"
                    f"{p['recall']:6.3f} {p['precision']:9.3f} {pl['leak_recall']:11.3f}"
                )
            print(line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--count", type=int, default=COUNT)
    parser.add_argument(
        "--misses", type=Path, default=MISSES, help="where the miss analysis goes (markdown)"
    )
    parser.add_argument(
        "--repeats", type=int, default=3, help="timed runs of each engine (the best counts)"
    )
    args = parser.parse_args()
    if evaluator_version() is None:
        print(f"pii_generated: skipped, {BENCH_VENV} has no presidio-evaluator (make bench-venv)")
        return 0
    header, generated_records = generated(args.seed, args.count)
    test_split = scoring.load("test")
    name_generated = f"generated: {source_line(header)}"
    name_test = f"tests/data/pii/test.jsonl: {len(test_split)} records, hand-written for curator"
    cached = cache_path(seed=args.seed, count=args.count).relative_to(REPO)
    print(f"{name_generated}\n  cached in {cached}")
    result = evaluate({name_generated: generated_records, name_test: test_split})
    print_tables(result, header)
    entries = list(result["sets"].values())
    seconds = throughput(entries, args.repeats)
    texts, chars = (
        sum(len(e["texts"]) for e in entries),
        sum(len(t) for e in entries for t in e["texts"]),
    )
    print(
        f"\nthroughput on the {texts} distinct texts of both sets "
        f"({chars} chars; each set through its own vaults; "
        f"best of {args.repeats}; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores):"
    )
    for label, key in THROUGHPUT:
        print(f"  {label:58} {chars / seconds[key]:9.0f} chars/s  {seconds[key]:6.2f} s")
    print(
        f"ratio: detection, curator is {seconds['analyze'] / seconds['detect']:.1f}x "
        "stock Presidio's analyze "
        f"({seconds['analyze'] / seconds['detect 1']:.1f}x in one process); detect + rewrite, "
        f"{seconds['anonymize'] / seconds['rewrite']:.1f}x its analyze + anonymize "
        f"({seconds['anonymize'] / seconds['rewrite 1']:.1f}x in one process)"
    )
    for name, entry in result["sets"].items():
        better = [
            k for k in SCORED if entry["score"][k]["recall"] >= entry["presidio_score"][k]["recall"]
        ]
        print(
            f"recall >= stock Presidio's on {len(better)} of {len(SCORED)} types "
            f"of {name.split(':')[0]}"
            + (
                ""
                if len(better) == len(SCORED)
                else f" (lower on {', '.join(k for k in SCORED if k not in better)})"
            )
        )
    args.misses.parent.mkdir(parents=True, exist_ok=True)
    entry = result["sets"][name_generated]
    args.misses.write_text(
        miss_report(source_line(header), entry["records"], entry["found"], entry["rewritten"]),
        encoding="utf-8",
    )
    misses_path = args.misses.relative_to(REPO) if args.misses.is_relative_to(REPO) else args.misses
    print(f"miss analysis of the generated set: {misses_path}")
    return 0


# ---------------------------------------------------------------- the miss report


def _context(record: dict, span: dict, width: int = 40, text: str | None = None) -> str:
    text = record["text"] if text is None else text
    start, end = span["start"], span["end"]
    before = text[max(0, start - width) : start].replace("\n", "⏎")
    after = text[end : end + width].replace("\n", "⏎")
    return f"…{before}[[{text[start:end].replace(chr(10), '⏎')}]]{after}…"


def _shape(value: str) -> str:
    return re.sub(r"[a-z]", "a", re.sub(r"[A-Z]", "A", re.sub(r"\d", "9", value)))


def _sentence_initial(text: str, start: int) -> bool:
    before = text[:start].rstrip(" \t\"'“(>?")
    return not before or before[-1] in ".!?:\n"


TITLES = re.compile(r"(?:mr|mrs|ms|miss|dr|sir|madam|mx)\.?\s*$", re.IGNORECASE)


def coverage(record: dict, span: dict, found: Sequence[scoring.Detection]) -> str:
    if scoring.covered(record["text"], span, found):
        return "found whole"
    kinds = scoring.COMPATIBLE[span["type"]]
    overlapping = {k for s, e, k in found if s < span["end"] and span["start"] < e}
    if overlapping & kinds:
        return "found in part"
    return "found only as " + "/".join(sorted(overlapping)) if overlapping else "not found at all"


def person_features(record: dict, span: dict) -> list[str]:
    from curator.anonymise import fold_case as fold
    from curator.anonymise import name_data

    text, value = record["text"], span["value"]
    names = name_data()
    words = [w for w in value.replace(".", " ").split() if len(w) > 1]
    placeholder = span.get("placeholder", "")
    role = (
        "first name alone"
        if placeholder.startswith("first_name")
        else "surname alone"
        if placeholder.startswith("last_name")
        else "full name"
    )
    out = [f"role: {role}"]
    letters = [c for c in value if c.isalpha()]
    out.append(
        "case: lower-case"
        if all(c.islower() for c in letters)
        else "case: ALL CAPS"
        if len(letters) > 1 and all(c.isupper() for c in letters)
        else "case: as usual"
    )
    out.append(
        "position: sentence-initial"
        if _sentence_initial(text, span["start"])
        else "position: inside a sentence"
    )
    if TITLES.search(text[: span["start"]]):
        out.append("after a title (Mr., Ms., ...)")
    if re.search(r"\b[A-Z]\.?\s", value):
        out.append("with a middle initial")
    if any(not c.isascii() for c in value):
        out.append("has non-ASCII letters")
    if role == "surname alone":
        unknown_first, unknown_last = False, bool(words) and fold(words[-1]) not in names.last
    elif role == "first name alone":
        unknown_first, unknown_last = bool(words) and fold(words[0]) not in names.first, False
    else:
        unknown_first = bool(words) and fold(words[0]) not in names.first
        unknown_last = len(words) > 1 and fold(words[-1]) not in names.last
    if unknown_first or unknown_last:
        out.append(
            "outside curator's name lists: "
            + " and ".join(
                part
                for part, unknown in (("given name", unknown_first), ("surname", unknown_last))
                if unknown
            )
        )
    else:
        out.append("in curator's name lists")
    out.append(f"origin: {span.get('name_set', '?')}")
    return out


def address_features(record: dict, span: dict) -> list[str]:
    value = span["value"]
    if re.search(r"\b(?:APO|FPO|DPO)\b", value, re.IGNORECASE):
        out = ["shape: military (APO/FPO/DPO)"]
    elif re.search(r"corner of|\band\b", value, re.IGNORECASE):
        out = ["shape: intersection / two streets"]
    elif re.match(r"\d+\s+\d+", value):
        out = ["shape: two numbers first (Faker house number + a street with its own number)"]
    elif re.match(r"\d", value):
        out = ["shape: number first (US/UK order)"]
    else:
        out = ["shape: street word first, number after (continental order)"]
    out.append("lines: several" if "\n" in value else "lines: one")
    if re.search(r"\b(?:apt|suite|unit|box)\b", value, re.IGNORECASE):
        out.append("with Apt./Suite/Unit/Box")
    countries = [m.group() for m in REGIONS.finditer(value) if len(m.group()) > 2]
    out.append(
        f"country/state named: {countries[-1]}" if countries else "no country or US state named"
    )
    out.append(
        f"from the template's {'{{address}}' if span.get('placeholder') == 'address' else 'parts'}"
    )
    return out


def pattern_features(record: dict, span: dict) -> list[str]:
    value, kind = span["value"], span["type"]
    digits = re.sub(r"\D", "", value)
    out = [f"shape: {_shape(value)}"]
    if kind == "phone":
        out.append(f"from: {span.get('country', '?')}")
        near = (
            record["text"][max(0, span["start"] - 25) : span["start"]]
            + " "
            + record["text"][span["end"] : span["end"] + 12]
        )
        out.append(
            "a phone word near (phone, call, mobile, desk, fax, office...)"
            if PHONE_WORDS.search(near)
            else "no phone word near"
        )
        out.append(
            "with a country code (+, 00)"
            if value.lstrip("(").startswith(("+", "00"))
            else "no country code"
        )
        out.append(f"{len(digits)} digits")
        if re.search(r"x\d+$", value):
            out.append("with an extension (x123)")
    if kind == "credit_card":
        out.append(f"{len(digits)} digits, starting {digits[:1]}")
    if kind == "iban":
        out.append(
            f"country {value[:2].upper()}, {'lower-case' if value.islower() else 'upper-case'}"
        )
    if kind == "ip":
        out.append("IPv6" if ":" in value else "IPv4")
    return out


PHONE_WORDS = re.compile(
    r"phone|call|mobile|cell|desk|fax|office|reach|messages|number|tel\b", re.IGNORECASE
)


def left_out(record: dict, span: dict, found: Sequence[scoring.Detection]) -> str | None:
    """For a span found in part: which of its letters and digits no compatible detection covers."""
    text, kinds = record["text"], scoring.COMPATIBLE[span["type"]]
    hits = [(s, e) for s, e, k in found if k in kinds and s < span["end"] and span["start"] < e]
    if not hits:
        return None
    uncovered = [
        i
        for i in range(span["start"], span["end"])
        if text[i].isalnum() and not any(s <= i < e for s, e in hits)
    ]
    if not uncovered:
        return None
    first, last = min(s for s, _ in hits), max(e for _, e in hits)
    where = sorted(
        {"the start" if i < first else "the end" if i >= last else "the middle" for i in uncovered}
    )
    return "left out: " + " and ".join(where)


FEATURES: dict[str, Callable[[dict, dict], list[str]]] = {
    "person": person_features,
    "street_address": address_features,
}


def person_primary(features: list[str]) -> str:
    """One cause per missed person, the first that applies, so the counts add up."""
    has = set(features)
    outside = any(f.startswith("outside curator's name lists") for f in features)
    for label, applies in (
        ("lower-case", "case: lower-case" in has),
        ("ALL CAPS", "case: ALL CAPS" in has),
        ("surname alone", "role: surname alone" in has),
        ("first name alone, outside curator's lists", "role: first name alone" in has and outside),
        ("first name alone, in curator's lists", "role: first name alone" in has),
        ("full name outside curator's lists", outside),
        ("full name in curator's lists, found in part", "found in part" in has),
    ):
        if applies:
            return label
    return "full name in curator's lists, not found"


PRIMARY: dict[str, Callable[[list[str]], str]] = {
    "person": person_primary,
    "street_address": lambda features: next(
        f for f in features if f.startswith("shape: ")
    ).removeprefix("shape: "),
    "phone": lambda features: next(f for f in features if f.endswith(" digits")),
}


def _pseudonym_pool() -> frozenset[str]:
    from faker.providers.person.en_US import Provider

    return frozenset(
        n.casefold()
        for n in (*Provider.first_names_female, *Provider.first_names_male, *Provider.last_names)
    )


def _leak_kind(kind: str, words: list[str], pool: frozenset[str]) -> str:
    if kind == "street_address":
        return (
            "only numbers of 4+ digits (postcodes, long house numbers)"
            if all(w.isdigit() for w in words)
            else "street or city words"
        )
    if kind == "person":
        return (
            "a word also in Faker en_US's name lists (curator's pseudonym pool)"
            if any(w in pool for w in words)
            else "a word outside Faker en_US's name lists"
        )
    return "the value"


def miss_report(
    source: str,
    records: Sequence[dict],
    found: Sequence[Sequence[scoring.Detection]],
    rewritten: Sequence[str],
) -> str:
    """Markdown: per type, the misses by cause (one each), then by feature (each with its rate
    among all spans of the type that have it, and examples), the leaks of spans that were
    found, the templates that miss most; then the wrong detections."""
    lines = [
        "# Misses on the generated PII set",
        "",
        f"Source: {source}.",
        "",
        "A *miss* is a labelled span not covered by detections of its kind "
        "(scoring.py's rule); a *leak* is a",
        "span of which the rewritten text still shows something "
        "(benchmarks/pii_generated.py, `leaked_words`:",
        "a name word, a distinctive address word, the value). "
        "Feature rows: spans of the type with the feature,",
        "how many of those were missed (and the rate), how many leaked, "
        "examples of misses with their context",
        "([[span]], ⏎ a line break) and what leaked. Rows with no miss are left out.",
        "",
    ]
    pool = _pseudonym_pool()
    for kind in SCORED:
        items = []
        for record, hits, new in zip(records, found, rewritten, strict=True):
            for span in record["spans"]:
                if span["type"] == kind:
                    features = [
                        coverage(record, span, hits),
                        *FEATURES.get(kind, pattern_features)(record, span),
                    ]
                    part = left_out(record, span, hits)
                    if part:
                        features.insert(1, part)
                    items.append(
                        (
                            record,
                            span,
                            features[0] != "found whole",
                            features,
                            leaked_words(record, span, new),
                            new,
                        )
                    )
        misses = [i for i in items if i[2]]
        lines += [
            f"## {kind}: {len(misses)} missed, "
            f"{sum(1 for i in items if i[4])} leaked, of {len(items)}",
            "",
        ]
        if not misses:
            continue
        if kind in PRIMARY:
            causes = Counter(PRIMARY[kind](i[3]) for i in misses)
            lines += [
                "| one cause per miss (the first that applies) | missed | share |",
                "|---|---:|---:|",
            ]
            lines += [
                f"| {cause} | {n} | {n / len(misses):.0%} |" for cause, n in causes.most_common()
            ] + [""]
        lines += _feature_table(kind, items)
        lines += _leaks_though_found(kind, items, pool)
        lines += _templates(kind, items)
    lines += wrong_hits(records, found)
    return "\n".join(lines) + "\n"


def _feature_table(kind: str, items: list[tuple]) -> list[str]:
    by: dict[str, list[tuple]] = defaultdict(list)
    for item in items:
        for feature in item[3]:
            by[feature].append(item)
    lines = [
        "| feature | spans | missed | miss rate | leaked | examples of misses |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for feature, group in sorted(
        by.items(), key=lambda kv: (-sum(1 for x in kv[1] if x[2]), kv[0])
    ):
        misses = [x for x in group if x[2]]
        if not misses or (feature.startswith("country/state named") and len(group) < 10):
            continue
        examples = "<br>".join(
            f"`{_context(r, s)}`" + (f" leaked: {', '.join(left)}" if left else "")
            for r, s, _, _, left, _ in misses[:3]
        )
        lines.append(
            f"| {feature} | {len(group)} | {len(misses)} | {len(misses) / len(group):.0%} | "
            f"{sum(1 for x in group if x[4])} | {examples} |"
        )
    return lines + [""]


def _leaks_though_found(kind: str, items: list[tuple], pool: frozenset[str]) -> list[str]:
    leaks = [i for i in items if i[4]]
    if not leaks:
        return []
    found = [i for i in leaks if not i[2]]
    lines = [
        f"{len(leaks)} {kind} spans leaked, {len(found)} of them found whole. What leaked:",
        "",
        "| what leaked | found whole | missed | examples (original ⇒ rewritten) |",
        "|---|---:|---:|---|",
    ]
    by: dict[str, list[tuple]] = defaultdict(list)
    for item in leaks:
        by[_leak_kind(kind, item[4], pool)].append(item)
    for what, group in sorted(by.items(), key=lambda kv: -len(kv[1])):
        shown = [i for i in group if not i[2]][:2] + [i for i in group if i[2]][:1]
        examples = "<br>".join(
            f"`{_context(r, s, 30)}` ⇒ "
            f"`{new[max(0, s['start'] - 30) : s['end'] + 30].replace(chr(10), '⏎')}`"
            for r, s, _, _, _, new in shown
        )
        lines.append(
            f"| {what} | {sum(1 for i in group if not i[2])} "
            f"| {sum(1 for i in group if i[2])} | {examples} |"
        )
    return lines + [""]


def _templates(kind: str, items: list[tuple]) -> list[str]:
    per_template: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for record, _span, missed, *_ in items:
        row = per_template[record.get("template") or record["id"]]
        row[0] += 1
        row[1] += missed
    lines = [
        f"Templates with the most {kind} misses:",
        "",
        "| template | spans | missed |",
        "|---|---:|---:|",
    ]
    for template, (total, missed) in sorted(per_template.items(), key=lambda kv: -kv[1][1])[:10]:
        if missed:
            lines.append(f"| `{template.replace(chr(10), '⏎')[:160]}` | {total} | {missed} |")
    return lines + [""]


def wrong_hits(records: Sequence[dict], found: Sequence[Sequence[scoring.Detection]]) -> list[str]:
    """Detections of scored kinds overlapping no personal span, by kind and what they hit."""
    by: dict[tuple[str, str], list[str]] = defaultdict(list)
    for record, hits in zip(records, found, strict=True):
        personal = [*record["spans"], *record.get("others", ())]
        for start, end, kind in hits:
            if not any(kind in scoring.COMPATIBLE[t] for t in SCORED):
                continue
            if any(g["start"] < end and start < g["end"] for g in personal):
                continue
            hit = [
                g["placeholder"]
                for g in record.get("negatives", ())
                if g["start"] < end and start < g["end"]
            ]
            by[kind, "+".join(sorted(set(hit))) or "template text"].append(
                record["text"][start:end].replace("\n", "⏎")
            )
    lines = [
        "## Wrong detections (precision)",
        "",
        "Detections of a scored kind that overlap no personal span, "
        "by what the package labels there",
        "(organization, city, ... are not personal data here, as in tests/data/pii).",
        "",
        "| detected as | on | count | examples |",
        "|---|---|---:|---|",
    ]
    for (kind, on), values in sorted(by.items(), key=lambda kv: -len(kv[1])):
        examples = ", ".join(f"`{v}`" for v in list(dict.fromkeys(values))[:5])
        lines.append(f"| {kind} | {on} | {len(values)} | {examples} |")
    return lines + [""]


if __name__ == "__main__":
    sys.exit(main())
