"""Detection: pattern PII recall per type on a labelled synthetic corpus; nothing is downloaded."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from curator.anonymise.evaluate import score
from curator.anonymise.finders.detector import Detector
from tests.anonymise.synth import PII_TYPES, pii_corpus
from tests.conftest import subprocess_env


def test_pattern_pii_recall_is_at_least_098_per_type():
    lines = pii_corpus(seed=5, per_type=120)
    detector = Detector()
    found = [
        [(h.start, h.end, h.kind) for h in hits]
        for hits in detector.detect_many(t for t, _ in lines)
    ]
    report = score(lines, found)
    print(json.dumps(report, indent=1))  # precision is reported, recall is enforced
    for kind in PII_TYPES:
        assert report[kind]["labelled"] == 120
        assert report[kind]["recall"] >= 0.98, (kind, report[kind])
        assert report[kind]["precision"] >= 0.5, (kind, report[kind])


def test_names_from_the_gazetteer_and_context_words():
    from curator.anonymise.finders.names import find_names

    text = (
        "Thanks Jennifer Walsh. Tenant: Oluwaseun Adeyemi. Mr. Smith will call. "
        "The Bank of Springfield."
    )
    names = [text[s:e] for s, e, _ in find_names(text)]
    assert names == ["Jennifer Walsh", "Oluwaseun Adeyemi", "Smith"]


GUARD = r"""
import json, os, socket, sys
attempts = []
def refuse(*args, **kwargs):
    attempts.append(repr(args)[:80])
    raise OSError("network disabled by test")
socket.socket.connect = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse
from curator.anonymise.finders.detector import Detector
hits = Detector().detect(
    "mail ana.ruiz@globex.io, call (415) 555-2671, see https://globex.io/x, ip 10.0.0.1"
)
ours = list(attempts)
import tldextract
tldextract.extract("ana.ruiz@globex.io")   # the library default: fetches the suffix list
print(json.dumps({"ours": ours, "vanilla": len(attempts) - len(ours), "hits": len(hits)}))
"""


@pytest.mark.slow
def test_nothing_is_downloaded_at_run_time(tmp_path):
    env = subprocess_env(
        TLDEXTRACT_CACHE=str(tmp_path / "tld-cache"), HF_HUB_OFFLINE="1", HOME=str(tmp_path)
    )
    done = subprocess.run(
        [sys.executable, "-c", GUARD], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["hits"] >= 4
    assert report["ours"] == []
    # the guard is live: tldextract's default configuration does try the network
    assert report["vanilla"] > 0


def test_anonymising_opens_no_socket(no_network, thread, vault):
    from curator.anonymise import anonymise

    result = anonymise(thread, vault)
    assert result.leaks == [] and no_network == []


def test_one_detector_per_ner_model_and_the_model_is_passed_not_set(store, tmp_path, monkeypatch):
    import os

    import spacy

    from curator.anonymise.finders.detector import detector_for
    from tests.conftest import run_cli

    monkeypatch.delenv("CURATOR_NER_MODEL", raising=False)
    model = tmp_path / "model"
    spacy.blank("en").to_disk(model)
    assert detector_for() is detector_for(None)
    assert detector_for()._nlp is None
    assert detector_for(str(model)) is detector_for(str(model)) is not detector_for()
    done = run_cli("audit", "--ner-model", str(model), store=store.root)
    assert done.exit_code == 0, done.stderr
    assert "CURATOR_NER_MODEL" not in os.environ  # the command passed its model down
    monkeypatch.setenv("CURATOR_NER_MODEL", str(model))
    assert detector_for() is detector_for(str(model))  # the variable names the default model


def test_a_large_batch_split_across_forked_workers_finds_what_one_process_finds(monkeypatch):
    """The hand-written labelled set (twice, the copies told apart) is long enough to be split:
    the hits of every text are the same as one process finds, in the same order."""
    from curator.anonymise.finders import detector as detect
    from tests.data.pii import scoring

    texts = [r["text"] for split in ("dev", "test") for r in scoring.load(split)]
    texts = [f"{text} (copy {n})" for n in (1, 2) for text in texts]
    splits = []
    real_forked_map = detect.forked_map
    monkeypatch.setattr(
        detect,
        "forked_map",
        lambda task, parts: splits.append(len(parts)) or real_forked_map(task, parts),
    )
    forked = Detector(workers=2).detect_many(texts)
    assert splits == [2]
    assert forked == Detector(workers=1).detect_many(texts)
    assert sum(map(len, forked)) > 1000


def test_a_window_is_read_once_and_reads_the_same_in_any_text(monkeypatch):
    """Phone numbers, e-mails and URLs are read in windows; a window met again (in another
    text, or in a text's rewrite) is not read again, and each recognizer keeps its own reading:
    the US-only pattern finding nothing in "+44 20 7946 0958" does not hide the UK number."""
    from curator.anonymise.finders import detector as detect

    detector = Detector(workers=1)
    first = detector.detect(
        "Reach Dana on +44 20 7946 0958 or dana@globex.io see https://globex.io/a"
    )
    read: list[str] = []
    real_batch = detect.Detector._batch
    monkeypatch.setattr(
        detect.Detector,
        "_batch",
        staticmethod(
            lambda recognizer, entity, pieces: (
                read.extend(p[2] for p in pieces) or real_batch(recognizer, entity, pieces)
            )
        ),
    )
    text = "Or: +44 20 7946 0958 dana@globex.io https://globex.io/a"
    again = detector.detect(text)
    assert {h.entity for h in first} >= {"PHONE_NUMBER", "EMAIL_ADDRESS", "URL"}
    assert sorted((h.entity, text[h.start : h.end]) for h in again if h.entity != "PERSON") == [
        ("EMAIL_ADDRESS", "dana@globex.io"),
        ("PHONE_NUMBER", "+44 20 7946 0958"),
        ("URL", "https://globex.io/a"),
    ]
    assert not {"+44 20 7946 0958", "dana@globex.io", "https://globex.io/a"} & set(read)
    assert again == Detector(workers=1).detect(text)


def test_windows_read_in_forked_workers_are_remembered(monkeypatch):
    from tests.data.pii import scoring

    texts = [r["text"] for split in ("dev", "test") for r in scoring.load(split)] * 2
    texts = [f"{text} (copy {n})" for n, text in enumerate(texts)]
    forked = Detector(workers=2)
    forked.detect_many(texts)
    one = Detector(workers=1)
    one.detect_many(texts)
    assert forked._windows == one._windows


_URL_UNIT = st.tuples(
    st.sampled_from(["", "@", "https://", "'", "(", "x_", "www.", "-"]),
    st.sampled_from(["globex", "docs.globex", "x", "smith", "é", "3"]),
    st.sampled_from([".", ". ", "@", "-"]),
    st.sampled_from(["com", "co", "io", "org", "de", "COM", "Kom", "ſe", "taylor", "sm", "ı"]),
    st.sampled_from(["", "/", "/a/b?c=d", "'", '"', "-b", "_", "@x", ".", "s", ")", ",", "K", "é"]),
).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(_URL_UNIT, min_size=1, max_size=4).map(" ".join))
def test_windows_skipped_for_urls_hold_no_url(text):
    """A window without a top-level domain where a URL may end is not read; reading every
    window finds the same URLs, on text made of URL parts, case oddities and separators."""
    from dataclasses import replace

    from curator.anonymise.finders import detector as detect
    from curator.anonymise.finders.patterns import URLS

    skipping = Detector(workers=1, entities=["URL"]).detect(text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(detect, "FINDERS", (replace(URLS, window_test=None),))
        reading_all = Detector(workers=1, entities=["URL"]).detect(text)
    assert skipping == reading_all


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789 -./()+:abcDEFgbQZ\n٣", max_size=40))
def test_prefilters_agree_with_their_plain_definitions(text):
    """The prefilters are measured once per text and scan for digits first; each passes
    exactly where its plain regular expression finds a match."""
    import re

    from curator.anonymise.finders.numbers import LOCAL_PHONES
    from curator.anonymise.finders.registry import FINDERS

    prefilter = {finder.entity: finder.prefilter for finder in FINDERS if finder != LOCAL_PHONES}

    def digits(n: int) -> bool:
        return re.search(r"\d" + r"\D{0,3}\d" * (n - 1), text) is not None

    assert prefilter["PHONE_NUMBER"](text) == digits(7)
    assert LOCAL_PHONES.prefilter(text) == digits(6)
    assert prefilter["CREDIT_CARD"](text) == digits(12)
    assert prefilter["US_SSN"](text) == digits(9)
    assert prefilter["IBAN_CODE"](text) == (
        re.search(r"[A-Za-z]{2}\s?\d{2}", text) is not None and digits(10)
    )
    assert prefilter["UK_NINO"](text) == (
        re.search(r"[A-Za-z]{2}\s?\d{2}\s?\d{2}", text) is not None
    )
    assert prefilter["IP_ADDRESS"](text) == (
        re.search(r"\d\.\d|[0-9a-fA-F]:[0-9a-fA-F]|::", text) is not None
    )


@pytest.mark.parametrize("entity", ["EMAIL_ADDRESS", "URL"])
def test_windows_start_only_where_a_word_does(entity):
    """Email and URL windows look back for a word's start; without it they are the same."""
    import re

    from curator.anonymise.finders.registry import FINDERS
    from tests.data.pii import scoring

    [window] = [finder.window for finder in FINDERS if finder.entity == entity]
    assert window is not None
    plain = re.compile(window.pattern.removeprefix(r"(?<!\S)"))
    assert plain.pattern != window.pattern
    texts = [r["text"] for r in scoring.load("test")] + ["a@b.c d@e x.y.z", "@@a.b@c", "\ta.b\nc@d"]
    found = [[m.span() for m in window.finditer(t)] for t in texts]
    assert found == [[m.span() for m in plain.finditer(t)] for t in texts]
    assert sum(map(bool, found)) > 50
