"""Everyday commands: many statuses at once (--where, --dry-run), content on the terminal
(show --text), and range errors that name the valid range."""

from __future__ import annotations

import json

from tests import samples
from tests.conftest import run_cli, snapshot


def _store_with_variants(store):
    lease = samples.add(store, "lease", 1)
    invoice = samples.add(store, "invoice", 2)
    made = {}
    for args in (["--ocr-noise", "0.05"], ["--truncate", "0.7"]):
        for parent in (lease, invoice):
            result = run_cli("mutate", parent, *args, "--json", store=store.root)
            assert result.exit_code == 0, result.stderr
            made[(parent, args[0])] = json.loads(result.stdout)["variants"][0]["id"]
    return lease, invoice, made


def test_status_where_moves_many_at_once_and_dry_run_writes_nothing(store):
    lease, invoice, made = _store_with_variants(store)
    noise = {made[(lease, "--ocr-noise")], made[(invoice, "--ocr-noise")]}
    before = snapshot(store.root)
    dry = run_cli(
        "status",
        "--to",
        "reviewed",
        "--where",
        "category=ocr-noise,adversarial=true",
        "--dry-run",
        "--json",
        store=store.root,
    )
    assert dry.exit_code == 0, dry.stderr
    report = json.loads(dry.stdout)
    assert set(report["changed"]) == noise and report["dry_run"] is True
    assert report["from"] == {i: "active" for i in noise}
    assert snapshot(store.root) == before
    text = run_cli(
        "status", "--to", "reviewed", "--where", "category=ocr-noise", "--dry-run", store=store.root
    ).stdout
    assert "would move 2 fixture(s) to reviewed (dry run: nothing written)" in text

    done = run_cli("status", "--to", "reviewed", "--where", "category=ocr-noise", store=store.root)
    assert done.exit_code == 0 and "moved 2 fixture(s) to reviewed" in done.stdout
    assert {f.id for f in store.select(status="reviewed")} == noise
    # a key twice is either value; the rest of the keys must all hold
    both = run_cli(
        "status",
        "--to",
        "retired",
        "--where",
        "status=reviewed,status=active,mutation=truncate,doc_type=invoice",
        "--json",
        store=store.root,
    )
    assert json.loads(both.stdout)["changed"] == [made[(invoice, "--truncate")]]


def test_status_where_refusals_are_one_line_and_write_nothing(store):
    lease, _, _ = _store_with_variants(store)
    before = snapshot(store.root)
    for args, message in [
        (["--where", "colour=red"], "unknown key 'colour' (known: status, kind, doc_type"),
        (
            ["--where", "status=done"],
            "status 'done' is none of draft, needs-review, reviewed, active, retired",
        ),
        (["--where", "category"], "KEY=VALUE"),
        (["--where", "category=nothing-like-it"], "no fixture matches"),
        ([lease, "--where", "category=clean"], "IDs or --where, not both"),
        ([], "choose them with --where"),
    ]:
        result = run_cli("status", "--to", "active", *args, store=store.root)
        assert result.exit_code == 2 and message in result.stderr, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1
    assert snapshot(store.root) == before


def test_show_text_prints_pages_and_posts(store):
    lease = samples.add(store, "lease", 1)
    thread = samples.add(store, "thread", 3)
    shown = run_cli("show", lease, "--text", store=store.root)
    assert shown.exit_code == 0
    record = store.load(lease)
    for page in record.content.pages:
        assert f"--- page {page.number} (text-layer, en)\n{page.text}" in shown.stdout
    assert "--- page" not in run_cli("show", lease, store=store.root).stdout
    posts = run_cli("show", thread, "--text", store=store.root).stdout
    export = store.load(thread).content.export
    first = export.ordered_posts()[0]
    author = export.users[first.user_id].username
    assert f"--- post {first.id} by {author} at {first.written_at()}\n{first.message}" in posts
    assert first.written_at().endswith(" UTC") and not first.written_at().startswith("1970")
    as_json = json.loads(run_cli("show", thread, "--text", "--json", store=store.root).stdout)
    assert [t["text"] for t in as_json["text"]] == [p.message for p in export.ordered_posts()]


def test_range_errors_name_a_valid_range(store):
    lease = samples.add(store, "lease", 1)  # 2 pages
    invoice = samples.add(store, "invoice", 2)  # 1 page
    single = samples.add(store, "thread", 4, posts=1)
    for fixture, args, message in [
        (
            invoice,
            ["--pages", "1"],
            "has 1 page, so no page can be cut (--pages needs a document of 2 pages or more",
        ),
        (lease, ["--pages", "2"], "has 2 pages; keep between 1 and 1"),
        (lease, ["--truncate", "1.5"], "between 0 and 1"),
        (lease, ["--ocr-noise", "0.5"], "must be in (0, 0.3]"),
        (single, ["--truncate"], "needs a thread of 2 posts or more"),
    ]:
        result = run_cli("mutate", fixture, *args, store=store.root)
        assert result.exit_code == 2 and message in result.stderr, (args, result.stderr)
    assert (
        "keep between 1 and 0"
        not in run_cli("mutate", invoice, "--pages", "1", store=store.root).stderr
    )
