"""`curator import` end to end: anonymised fixtures, provenance, idempotence, suggestions."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from curator.ingest import import_sources
from curator.labels import truth_problems
from curator.store import fixture_id
from tests.conftest import run_cli, snapshot
from tests.ingest.conftest import EXAMPLES, TRUTH

THREAD = EXAMPLES / "threads" / "lease-question.json"
CHANNEL = EXAMPLES / "threads" / "maintenance-channel.json"
LEASE = EXAMPLES / "pdfs" / "lease-maple.pdf"
ID_MAPS = {"posts", "users", "file_infos", "files"}


def stored_text(root: Path) -> str:
    return "\n".join(
        data.decode("utf-8", "replace")
        for name, data in snapshot(root).items()
        if name.startswith(("goldens/", "adversarial/"))
    )


def personal_values(export: dict) -> set[str]:
    """Names and addresses of the raw export's users: none may reach the store."""
    values = set()
    for user in export["users"].values():
        values |= {user["username"], user["email"], user["first_name"], user["last_name"]}
    return {v for v in values if len(v) > 3}


def shape(value, key: str = ""):
    """The JSON structure without its values; id-keyed maps compared as multisets of shapes."""
    if isinstance(value, dict):
        if key in ID_MAPS:
            return sorted(json.dumps(shape(v), sort_keys=True) for v in value.values())
        return {k: shape(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [shape(v) for v in value]
    return type(value).__name__


def test_thread_import_is_anonymised_keeps_shape_and_records_provenance(store, tmp_path):
    rubric_file = tmp_path / "rubrics.txt"
    rubric_file.write_text("# one per line\nThe answer is polite.\n\n", encoding="utf-8")
    result = run_cli(
        "import",
        THREAD,
        "--rubric",
        TRUTH["threads/lease-question.json"]["rubrics"][0],
        "--rubrics",
        rubric_file,
        "--json",
        store=store.root,
    )
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    [created] = report["created"]
    record = store.load(created["id"])
    fixture = record.fixture
    raw_bytes = THREAD.read_bytes()
    raw = json.loads(raw_bytes)
    assert record.directory.parent.name == "goldens"
    assert fixture.kind == "thread" and fixture.status == "draft" and fixture.category == "clean"
    assert fixture.provenance.source_name == "lease-question.json"
    assert fixture.provenance.source_sha256 == hashlib.sha256(raw_bytes).hexdigest()
    assert fixture.provenance.importer == "mattermost"
    assert fixture.id == fixture_id(fixture.title, f"{fixture.provenance.source_sha256}:".encode())
    # Rubrics from --rubric and --rubrics become one revision.
    [revision] = record.revisions
    assert [r.text for r in revision.rubrics] == [
        TRUTH["threads/lease-question.json"]["rubrics"][0],
        "The answer is polite.",
    ]
    # Nothing personal from the raw export is stored.
    text = stored_text(store.root)
    for value in personal_values(raw):
        assert value not in text, value
    assert TRUTH["pdfs/lease-maple.pdf"]["fields"]["tenant"] not in text
    # Same Mattermost structure back out, values aside.
    stored = json.loads((record.directory / "content.json").read_text())["content"]["export"]
    assert shape(stored) == shape(raw)
    card = next(p for p in stored["posts"].values() if "card" in p["props"])
    assert (
        json.loads(card["props"]["card"])["rent"]
        == TRUTH["pdfs/lease-maple.pdf"]["fields"]["monthly_rent"]
    )
    # Warnings name the (anonymised) ids that really are in the stored thread.
    missing = [w for w in fixture.warnings if "not in users" in w]
    assert len(missing) == 2
    for warning in missing:
        assert warning.split()[1].rstrip(":") in stored["posts"]


def test_same_source_twice_creates_nothing_and_says_so(store):
    first = run_cli("import", THREAD, "--json", store=store.root)
    [created] = json.loads(first.stdout)["created"]
    before = snapshot(store.root)
    again = run_cli("import", THREAD, store=store.root)
    assert again.exit_code == 0
    assert f"skipped lease-question.json: already imported as {created['id']}" in again.stdout
    assert "0 fixture(s) created" in again.stdout
    assert snapshot(store.root) == before
    # A copy under another name is the same source too; so is the same file twice in one run.
    copy = store.root.parent / "copy.json"
    copy.write_bytes(THREAD.read_bytes())
    report = import_sources(store, [copy, copy])
    assert len(report.created) == 0 and len(report.skipped) == 2
    assert snapshot(store.root) == before


def test_document_import_suggests_labels_that_point_at_their_values(store):
    report = import_sources(store, [LEASE], doc_type="lease", category="clean")
    [created] = report.created
    record = store.load(created["id"])
    assert record.fixture.doc_type == "lease" and record.fixture.provenance.importer == "pdf"
    [revision] = record.revisions
    assert revision.source == "import-suggestion" and revision.author == "curator-import"
    truth = TRUTH["pdfs/lease-maple.pdf"]["fields"]
    assert set(revision.fields) == set(truth)
    assert truth_problems(record.content, revision) == []
    assert revision.fields["monthly_rent"].value == truth["monthly_rent"]
    for person in ("tenant", "landlord"):
        assert revision.fields[person].value != truth[person]  # pseudonymised, text and label alike
    text = stored_text(store.root)
    assert truth["tenant"] not in text and truth["landlord"] not in text
    assert [p["origin"] for p in created["pages"]] == ["text-layer", "text-layer"]
    assert [p["language"] for p in created["pages"]] == ["en", "en"]


def test_doc_type_is_guessed_when_not_given(store):
    [created] = import_sources(store, [EXAMPLES / "pdfs" / "invoice-harbor.pdf"]).created
    assert created["doc_type"] == "invoice"
    assert created["suggested_fields"] == sorted(TRUTH["pdfs/invoice-harbor.pdf"]["fields"])


def test_split_threads_makes_one_fixture_per_thread_from_one_source(store):
    result = run_cli("import", CHANNEL, "--split-threads", "--json", store=store.root)
    assert result.exit_code == 0, result.stderr
    created = json.loads(result.stdout)["created"]
    assert len(created) == 4
    fixtures = [store.load_fixture(item["id"]) for item in created]
    assert len({f.provenance.source_sha256 for f in fixtures}) == 1
    assert sorted(len(item["orphan_post_ids"]) for item in created) == [0, 0, 0, 2]
    again = run_cli("import", CHANNEL, "--split-threads", "--json", store=store.root)
    assert json.loads(again.stdout)["created"] == []


def test_whole_channel_import_keeps_and_flags_orphans(store):
    [created] = import_sources(store, [CHANNEL]).created
    record = store.load(created["id"])
    assert len(record.content.orphan_post_ids) == 2
    for post_id in record.content.orphan_post_ids:
        assert post_id in record.content.export.posts
    assert any("orphan" in w for w in record.fixture.warnings)


def test_chat_log_import(store):
    [created] = import_sources(store, [EXAMPLES / "chat"]).created
    record = store.load(created["id"])
    assert record.fixture.provenance.importer == "chat-jsonl" and record.fixture.kind == "thread"
    assert len(record.content.export.posts) == 6


def test_scanned_pdf_import_records_ocr_and_shows_no_progress_bar_in_a_pipe(store, clean_scan):
    path, truth = clean_scan
    result = run_cli("import", path, "--doc-type", "lease", "--json", store=store.root)
    assert result.exit_code == 0, result.stderr
    assert "OCR" not in result.stderr
    [created] = json.loads(result.stdout)["created"]
    [page] = created["pages"]
    assert page["origin"] == "ocr" and page["ocr_confidence"] > 80 and page["language"] == "en"
    assert "monthly_rent" in created["suggested_fields"]


def test_ocr_never_through_the_cli_keeps_the_scan_unread_and_warns(store):
    scan = EXAMPLES / "pdfs" / "invoice-sideways-scan.pdf"
    result = run_cli("import", scan, "--ocr", "never", "--doc-type", "invoice", store=store.root)
    assert result.exit_code == 0, result.stderr
    assert "no usable text layer and --ocr never" in result.stderr
    [fixture_id_] = store.ids()
    record = store.load(fixture_id_)
    assert [p.origin for p in record.content.pages] == ["text-layer"] and record.revisions == []


def test_a_leak_reported_by_the_anonymiser_refuses_the_whole_import(store, monkeypatch):
    # Fault injection: an anonymiser that reports a leak. Nothing may be written.
    import curator.anonymise as anonymise_package
    from curator.anonymise import Leak

    real = anonymise_package.anonymise

    def leaky(content, vault, **kwargs):
        result = real(content, vault, **kwargs)
        return type(result)(result.content, result.revisions, [Leak("page 1", "person", "x")])

    monkeypatch.setattr(anonymise_package, "anonymise", leaky)
    before = snapshot(store.root)
    result = run_cli("import", THREAD, LEASE, store=store.root)
    assert result.exit_code == 2
    # the user's own terminal is told the term, where it is and how to keep it; the store gets
    # nothing
    assert (
        "1 piece(s) of personal data could not be rewritten, first 'x' (person) at page 1"
        in result.stderr
    )
    assert "curator import --keep x" in result.stderr
    assert snapshot(store.root) == before


def test_an_anonymiser_that_loses_posts_is_refused(store, monkeypatch):
    # Fault injection: pseudonymised post ids that collide would silently merge posts.
    import curator.anonymise as anonymise_package

    real = anonymise_package.anonymise

    def merging(content, vault, **kwargs):
        result = real(content, vault, **kwargs)
        export = result.content.export
        dropped = export.model_copy(update={"posts": dict(list(export.posts.items())[:-1])})
        return type(result)(
            result.content.model_copy(update={"export": dropped}), result.revisions, []
        )

    monkeypatch.setattr(anonymise_package, "anonymise", merging)
    before = snapshot(store.root)
    result = run_cli("import", THREAD, store=store.root)
    assert result.exit_code == 2 and "turned 6 posts into 5" in result.stderr
    assert snapshot(store.root) == before


def test_same_inputs_same_key_and_clock_give_byte_identical_fixtures(tmp_path, monkeypatch):
    from curator.store import Store

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    monkeypatch.setenv("CURATOR_VAULT_KEY", "MDAxMTIyMzM0NDU1NjY3Nzg4OTlhYWJiY2NkZGVlZmY=")
    monkeypatch.setenv("CURATOR_AUTHOR", "tester")
    stores = [Store.init(tmp_path / name) for name in ("one", "two")]
    for store in stores:
        import_sources(
            store, [THREAD, CHANNEL, LEASE], rubrics=["The answer is polite."], split_threads=True
        )
    first, second = (snapshot(s.root) for s in stores)
    assert first == second and any(name.startswith("goldens/") for name in first)


def test_two_imports_at_once_keep_every_fixture_and_every_pseudonym(store):
    import subprocess

    from curator.anonymise import Vault
    from tests.conftest import CURATOR, subprocess_env

    sources = [THREAD, CHANNEL, THREAD]  # two different sources, one of them twice
    env = subprocess_env()
    procs = [
        subprocess.Popen(
            [*CURATOR, "--store", str(store.root), "import", str(source), "--json"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for source in sources
    ]
    reports = []
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err.decode()
        reports.append(json.loads(out))
    assert len(store.ids()) == 2
    assert (
        sum(len(r["created"]) for r in reports) == 2
        and sum(len(r["skipped"]) for r in reports) == 1
    )
    originals = {o.casefold() for o in Vault.open(store).originals()}
    for source in (THREAD, CHANNEL):
        for user in json.loads(source.read_text())["users"].values():
            assert user["email"].casefold() in originals  # neither import lost the other's entries


def test_a_failing_tesseract_is_one_error_line_and_writes_nothing(store, monkeypatch):
    # Fault injection: Tesseract crashing on a page (inline worker, so the patch applies).
    import pytesseract

    import curator.ingest.ocr as ocr

    def crash(image):
        raise pytesseract.TesseractError(1, "Error during processing.")

    monkeypatch.setattr(ocr, "recognise", crash)
    before = snapshot(store.root)
    scan = EXAMPLES / "pdfs" / "invoice-sideways-scan.pdf"
    result = run_cli("import", THREAD, scan, "--workers", "1", store=store.root)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "curator: error: invoice-sideways-scan.pdf: OCR of page 1 failed: (1, 'Error during "
        "processing.')"
    ]
    assert snapshot(store.root) == before


def test_a_file_named_after_a_person_is_stored_under_an_anonymised_name(store, tmp_path):
    raw = json.loads(THREAD.read_text())
    user = next(iter(raw["users"].values()))
    named = tmp_path / f"{user['first_name']}-{user['last_name']}-thread.json".lower()
    named.write_bytes(THREAD.read_bytes())
    [created] = import_sources(store, [named]).created
    stored = store.load_fixture(created["id"]).provenance.source_name
    assert created["source"] == named.name and created["stored_source_name"] == stored
    assert stored.endswith("-thread.json") and "/" not in stored
    assert (
        user["first_name"].lower() not in stored.lower()
        and user["last_name"].lower() not in stored.lower()
    )
