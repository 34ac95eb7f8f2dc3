"""--ocr-noise: a calibrated Tesseract-like channel; values stay clean, spans record the noise."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from curator.labels import evidence_text, revise, truth_problems
from curator.model import Fixture, Provenance
from curator.mutate._measure import edits_distance, levenshtein
from curator.mutate.engine import Step, apply_chain
from curator.mutate.ocr_noise import plan_noise, recoverable
from curator.normalise import same_value
from curator.spans import apply_edits
from curator.store import FixtureRecord
from tests import samples
from tests.conftest import run_cli, snapshot
from tests.mutate.conftest import variant_of


def _record(config, kind: str, seed: int) -> FixtureRecord:
    content, values = samples.lease(seed) if kind == "lease" else samples.invoice(seed)
    revision = revise(config, kind, content, None, assignments=values, author="t")
    fixture = Fixture(
        id=f"{kind}-t-{seed:08x}",
        kind="document",
        doc_type=kind,
        category="clean",
        created_at=revision.time,
        provenance=Provenance(
            source_sha256="0" * 64,
            source_name="x.pdf",
            importer="synthetic",
            imported_at=revision.time,
        ),
    )
    return FixtureRecord(fixture, content, [revision], None)


def _dp(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, start=1):
        current = [i]
        for j, char_b in enumerate(b, start=1):
            current.append(
                min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b))
            )
        previous = current
    return previous[-1]


@given(st.text("abrnmcl1 .\n", max_size=14), st.text("abrnmcl1 .\n", max_size=14))
def test_levenshtein_matches_the_textbook_one(a, b):
    assert levenshtein(a, b) == _dp(a, b)


# The sample documents: leases of 1-3 pages and invoices (short), as shipped by samples.
SAMPLE_DOCS = [("lease", s) for s in range(6)] + [("invoice", s) for s in range(100, 103)]


@pytest.mark.parametrize("requested", [0.02, 0.05, 0.10, 0.20])
def test_calibration_within_15_percent(config, requested):
    """The CER of the output, measured over whole pages against the clean text, is within ±15%."""
    for kind, seed in SAMPLE_DOCS:
        record = _record(config, kind, seed)
        variant = apply_chain(record, config, [Step("ocr-noise", {"cer": requested})], seed)
        clean = [p.text for p in record.content.pages]
        noised = [p.text for p in variant.content.pages]
        true_cer = sum(levenshtein(a, b) for a, b in zip(clean, noised, strict=True)) / sum(
            map(len, clean)
        )
        assert abs(true_cer - requested) <= 0.15 * requested, (kind, seed, true_cer)
        recorded = variant.fixture.lineage.mutations[0].measured["cer"]
        assert recorded == pytest.approx(true_cer, abs=0.0005)  # what is recorded is what happened


def _label_phrases_hit(config, kind: str, clean: str, noised: str) -> int:
    phrases = {f"{p}:" for spec in config.doc_types[kind].fields.values() for p in spec.labels}
    return sum(clean.count(p) - noised.count(p) for p in phrases)


def test_values_stay_intact_and_the_noise_lands_around_them(config):
    """By default no labelled value loses a character: every item stays answerable."""
    labels_hit = 0
    for kind, seed in SAMPLE_DOCS:
        record = _record(config, kind, seed)
        variant = apply_chain(record, config, [Step("ocr-noise", {"cer": 0.2})], seed)
        assert truth_problems(variant.content, variant.revision) == []
        for name, label in variant.revision.fields.items():
            assert label.value == record.labels.fields[name].value
            assert (label.evidence_text, label.variants, label.unanswerable) == (None, [], None)
            assert evidence_text(variant.content, label.evidence) == label.value
        clean = "\n".join(p.text for p in record.content.pages)
        noised = "\n".join(p.text for p in variant.content.pages)
        labels_hit += _label_phrases_hit(config, kind, clean, noised)
        assert all(p.origin == "ocr" for p in variant.content.pages)
    assert labels_hit > 10  # "T3nant:", "Monthly Rcnt:": the field labels take their share


def test_noise_values_records_what_a_reader_can_recover(config):
    """--noise-values: a noisy spelling a reader can undo is accepted, anything worse is
    unanswerable."""
    accepted = unanswerable = 0
    for kind, seed in SAMPLE_DOCS:
        record = _record(config, kind, seed)
        variant = apply_chain(
            record, config, [Step("ocr-noise", {"cer": 0.2, "noise_values": True})], seed
        )
        assert truth_problems(variant.content, variant.revision) == []
        for name, label in variant.revision.fields.items():
            assert label.value == record.labels.fields[name].value  # the truth is the clean value
            found = evidence_text(variant.content, label.evidence)
            if label.unanswerable:
                unanswerable += 1
                assert not recoverable(label.value, found) and found in label.unanswerable
            elif label.variants:
                accepted += 1
                assert label.variants == [found] and recoverable(label.value, found)
            else:
                assert same_value(found, label.value, label.type)  # "$3,41 0.00" still reads 3410
    assert accepted > 3 and unanswerable > 3  # at 20% values are hit both ways


def test_recoverable_means_spacing_and_known_glyph_confusions_only():
    assert recoverable("$1,250.00", "$l,25O.00")
    assert recoverable("Dana Whitfield", "Dana Whit field")
    assert recoverable("Barnes", "Bames")  # rn read as m
    assert not recoverable("$1,250.00", "$1.250.00")  # a swapped separator changes the amount
    assert recoverable("Dana Whitfield", "Dana Whitfeld")  # the fi ligature read as f
    assert not recoverable("Dana Whitfield", "Dana Whitfiel")  # a lost letter cannot be told back
    assert recoverable("$1,150.00", "$1,150.O0")  # whichever 0 the alignment would pick
    assert not recoverable("2024-01-15", "2024-01-1")


def test_channel_makes_the_kinds_of_errors_tesseract_makes():
    content, _ = samples.lease(3)
    all_texts = content.texts()
    edits = plan_noise(all_texts, 0.2, random.Random(5), {place: set() for place, _ in all_texts})
    changes = [
        (text[e.start : e.end], e.replacement) for (place, text) in all_texts for e in edits[place]
    ]
    kinds = set()
    for old, new in changes:
        if old == " " and new == "":
            kinds.add("merge")
        elif old == "" and new == " ":
            kinds.add("split")
        elif old == "":
            kinds.add("insert")
        elif new == "":
            kinds.add("delete")
        elif (old, new) in {("rn", "m"), ("m", "rn"), ("cl", "d"), ("d", "cl")}:
            kinds.add("glyph-pair")
        elif old in ",.;:" and new in ",.;:":
            kinds.add("punctuation")
        else:
            kinds.add("confusion")
    assert kinds >= {"merge", "split", "insert", "delete", "glyph-pair", "punctuation", "confusion"}
    # and the measured distance of the plan is the real one
    for place, text in all_texts:
        assert edits_distance(text, edits[place]) == levenshtein(
            text, apply_edits(text, edits[place])[0]
        )


def test_cli_default_rate_and_record(samples_store):
    result = run_cli(
        "mutate", samples_store.lease, "--ocr-noise", "--json", store=samples_store.root
    )
    assert result.exit_code == 0, result.stderr
    info = variant_of(result.stdout)
    step = info["mutations"][0]
    assert step["name"] == "ocr-noise" and step["params"] == {"cer": 0.05}
    assert abs(step["measured"]["cer"] - 0.05) <= 0.0075
    variant = samples_store.store.load(info["id"])
    assert variant.fixture.category == "ocr-noise"
    assert variant.labels.source == "mutation:ocr-noise"


def test_rate_out_of_range_is_refused(samples_store):
    before = snapshot(samples_store.root)
    result = run_cli("mutate", samples_store.lease, "--ocr-noise", "0.9", store=samples_store.root)
    assert result.exit_code == 2 and "CER" in result.stderr
    assert snapshot(samples_store.root) == before


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**16), st.sampled_from([0.02, 0.05, 0.1, 0.2]))
def test_noise_never_straddles_an_evidence_boundary(config, seed, rate):
    record = _record(config, "lease", seed % 5)
    variant = apply_chain(record, config, [Step("ocr-noise", {"cer": rate})], seed)
    assert truth_problems(variant.content, variant.revision) == []
