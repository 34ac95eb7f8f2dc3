import json

import pytest

from tests.conftest import run_cli, snapshot
from tests.factories import add_lease, add_thread


def one_error_line(result):
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("curator: error: ")
    return lines[0]


def test_init_list_show(tmp_path):
    path = tmp_path / "new"
    assert run_cli("init", str(path)).exit_code == 0
    assert run_cli("list", store=path).stdout.strip() == "no fixtures"
    assert json.loads(run_cli("list", "--json", store=path).stdout) == []


def test_label_set_and_history(store):
    lease = add_lease(store)
    result = run_cli(
        "label",
        "set",
        lease,
        "monthly_rent=1250",
        "--reason",
        "rent checked",
        "--json",
        store=store.root,
    )
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["rev"] == 2
    history = json.loads(run_cli("label", "history", lease, "--json", store=store.root).stdout)
    assert [r["rev"] for r in history] == [1, 2]
    assert history[-1]["reason"] == "rent checked"
    text = run_cli("label", "history", lease, store=store.root).stdout
    assert "rev 2" in text and "monthly_rent = 1250" in text


def test_expected_absent_field(store):
    lease = add_lease(store)
    assert run_cli("label", "set", lease, "security_deposit=", store=store.root).exit_code == 0
    assert store.load(lease).labels.fields["security_deposit"].expected_absent


def test_rubrics_on_threads(store):
    thread = add_thread(store)
    result = run_cli(
        "label", "set", thread, "--rubric", "attributes the fix to @bo.chen", store=store.root
    )
    assert result.exit_code == 0, result.stderr
    assert [r.text for r in store.load(thread).labels.rubrics][
        -1
    ] == "attributes the fix to @bo.chen"
    assert run_cli("label", "set", thread, "tenant=x", store=store.root).exit_code == 2


@pytest.mark.parametrize(
    "args,message",
    [
        (("label", "set", "{id}", "colour=red"), "unknown field 'colour'"),
        (("label", "set", "{id}", "lease_start_date=someday"), "not a date"),
        (("label", "set", "{id}", "monthly_rent=lots"), "not an amount"),
        (("label", "set", "{id}", "novalue"), "expected FIELD=VALUE"),
        (("label", "set", "{id}"), "nothing to set"),
        (("label", "set", "nope-00000000", "tenant=x"), "no fixture 'nope-00000000'"),
        (("show", "nope-00000000"), "no fixture"),
        (("list", "--status", "bogus"), "Invalid value for '--status'"),
        (("list", "--no-such-flag"), "No such option"),
    ],
)
def test_bad_input_is_one_line_exit_2_store_unchanged(store, args, message):
    lease = add_lease(store)
    before = snapshot(store.root)
    result = run_cli(*[a.format(id=lease) for a in args], store=store.root)
    assert result.exit_code == 2
    assert message in one_error_line(result)
    assert snapshot(store.root) == before


def test_missing_store(tmp_path):
    result = run_cli("list", store=tmp_path / "nowhere")
    assert result.exit_code == 2
    assert "no curator store" in one_error_line(result)


@pytest.mark.parametrize(
    "file,garbage",
    [
        ("fixture.json", "{not json"),
        ("content.json", '{"content": {"kind": "spreadsheet"}}'),
        ("labels.jsonl", '{"rev": "one"}\n'),
    ],
)
def test_malformed_store_files(store, file, garbage):
    lease = add_lease(store)
    (store.directory(lease) / file).write_text(garbage)
    before = snapshot(store.root)
    shown = run_cli("show", lease, store=store.root)
    assert shown.exit_code == 2
    assert file in one_error_line(shown)
    assert run_cli("label", "set", lease, "tenant=X", store=store.root).exit_code == 2
    validated = run_cli("validate", "--json", store=store.root)
    assert validated.exit_code == 1
    report = json.loads(validated.stdout)
    assert report["ok"] is False and report["problems"][0]["fixture"] == lease
    assert snapshot(store.root) == before


def test_broken_curator_toml(store):
    (store.root / "curator.toml").write_text("[store\n")
    result = run_cli("validate", store=store.root)
    assert result.exit_code == 2
    assert "not valid TOML" in one_error_line(result)


def test_validate_finds_drifted_evidence_and_lineage(store):
    lease = add_lease(store)
    content = store.directory(lease) / "content.json"
    content.write_text(content.read_text().replace("Dana Whitfield", "Dana Whitfielt"))
    result = run_cli("validate", store=store.root)
    assert result.exit_code == 1
    assert (
        "field tenant: the text at its evidence reads 'Dana Whitfielt', which is neither 'Dana "
        "Whitfield' nor an accepted variant"
    ) in result.stdout


def test_validate_reports_stale_variants(store):
    from curator.model import Lineage, MutationStep

    lease = add_lease(store)
    record = store.load(lease)
    variant = record.fixture.model_copy(
        update={
            "id": "lease-variant-0000abcd",
            "category": "truncated",
            "lineage": Lineage(
                parent=lease, parent_label_rev=1, mutations=[MutationStep(name="truncate", seed=1)]
            ),
        }
    )
    store.create_fixture(variant, record.content, record.revisions)
    assert run_cli("validate", store=store.root).exit_code == 0
    assert run_cli("label", "set", lease, "monthly_rent=1250", store=store.root).exit_code == 0
    result = run_cli("validate", "--json", store=store.root)
    assert result.exit_code == 1
    problem = json.loads(result.stdout)["problems"][0]
    assert problem["kind"] == "stale" and problem["fixture"] == "lease-variant-0000abcd"


def test_help_lists_commands_without_importing_heavy_libraries():
    import subprocess

    from tests.conftest import CURATOR, subprocess_env

    code = (
        "import sys, runpy; sys.argv=['curator','--help'];\n"
        "try: runpy.run_module('curator', run_name='__main__')\n"
        "except SystemExit: pass\n"
        "heavy=[m for m in ('pydantic','datasets','presidio_analyzer','pdfplumber','pytesseract',"
        "'label_studio_sdk','pandas') if m in sys.modules]\n"
        "print('HEAVY', heavy)"
    )
    out = subprocess.run(
        [CURATOR[0], "-c", code], env=subprocess_env(), capture_output=True, text=True, check=True
    ).stdout
    assert "validate" in out and "label" in out
    assert "HEAVY []" in out


def test_label_set_finds_evidence_written_differently(store):
    lease = add_lease(store)
    assert (
        run_cli("label", "set", lease, "lease_start_date=2024-01-15", store=store.root).exit_code
        == 0
    )
    label = store.load(lease).labels.fields["lease_start_date"]
    text = store.load(lease).content.pages[0].text
    assert text[label.evidence.start : label.evidence.end] == "January 15, 2024"
    assert run_cli("validate", store=store.root).exit_code == 0


def test_status_moves_fixtures_all_or_none(store):
    from curator.model import ReviewState, Status

    lease = add_lease(store, status="draft")
    before = snapshot(store.root)
    result = run_cli("status", lease, "nope-00000000", "--to", "active", store=store.root)
    assert result.exit_code == 2 and snapshot(store.root) == before
    assert run_cli("status", lease, "--to", "active", store=store.root).exit_code == 0
    assert store.load_fixture(lease).status == "active"
    fixture = store.load_fixture(lease)
    store.save_fixture(
        fixture.model_copy(
            update={"status": Status.reviewed, "review": ReviewState(conflict_fields=["tenant"])}
        )
    )
    result = run_cli("status", lease, "--to", "active", store=store.root)
    assert result.exit_code == 2 and "disagree on tenant" in result.stderr
