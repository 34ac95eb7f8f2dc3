"""A bundle's thread files keep their source file's name, as Mattermost's suites name them in
code: both layouts of thread export, a name holding a name anonymised (and said), and the
slugged names of fixtures imported before the name was recorded."""

from __future__ import annotations

import json

import pytest

from curator.bundle.build import build_bundle
from curator.bundle.thread_file import base_name
from tests.bundle.conftest import add_thread
from tests.conftest import run_cli
from tests.mattermost_exports import write_thread_export

RUBRIC = "contains the usernames involved as @mentions if referenced"


def import_threads(store, tmp_path, names: dict[str, bool]) -> dict[str, str]:
    """Source name -> fixture id, each written in the older layout when its flag says so;
    imported with a rubric and made active."""
    folder = tmp_path / "exports"
    folder.mkdir()
    for name, legacy in names.items():
        write_thread_export(folder / name, legacy=legacy)
    run = run_cli("import", str(folder), "--rubric", RUBRIC, "--json", store=store.root)
    assert run.exit_code == 0, run.stderr
    created = json.loads(run.stdout)["created"]
    ids = {item["source"]: item["id"] for item in created}
    assert run_cli("status", *ids.values(), "--to", "active", store=store.root).exit_code == 0
    return ids


def test_both_kinds_of_thread_export_keep_their_source_names(store, tmp_path):
    ids = import_threads(
        store, tmp_path, {"developers_webapp.json": False, "Thread Q&A.json": True}
    )
    result = build_bundle(store, "1.0.0", formats="jsonl,mattermost")
    root = store.bundles_dir / "1.0.0"
    rubrics = json.loads((root / "mattermost" / "rubrics.json").read_text())
    # "&" is no file name character everywhere: that name is slugged, as every name was before
    assert rubrics == {"developers_webapp.json": [RUBRIC], "thread-q-a.json": [RUBRIC]}
    legacy = json.loads((root / "mattermost" / "thread-q-a.json").read_text())
    assert "thread" not in legacy and len(legacy["posts"]) == 4  # the older layout, read as posts
    files = {e.id: e.files for e in result.manifest.fixtures}
    assert files[ids["developers_webapp.json"]] == ["mattermost/developers_webapp.json"]
    assert result.warnings == []


def test_a_source_name_that_names_someone_is_bundled_anonymised_and_the_build_says_so(
    store, tmp_path
):
    ids = import_threads(store, tmp_path, {"dm_ingrid_solberg.json": False})
    fixture = store.load_fixture(ids["dm_ingrid_solberg.json"])
    again = tmp_path / "again"
    again.mkdir()
    write_thread_export(again / "dm_ingrid_solberg.json", channel=True)  # new content, same name
    said = run_cli("import", str(again / "dm_ingrid_solberg.json"), store=store.root).stdout
    assert (
        f"(thread from dm_ingrid_solberg.json, stored as {fixture.provenance.source_name})" in said
    )
    assert fixture.provenance.source_name_anonymised is True
    name = base_name(fixture)
    assert "ingrid" not in name.lower() and "solberg" not in name.lower()

    result = build_bundle(store, "1.0.0", formats="jsonl,mattermost")

    assert result.warnings == [
        f"mattermost/{name}: named through the vault (the source's file name holds a name it "
        "replaces); a Go suite's table must name this file, or `curator vault forget` the word "
        "if it names no one"
    ]
    assert sorted(p.name for p in (store.bundles_dir / "1.0.0" / "mattermost").iterdir()) == [
        name,
        "rubrics.json",
    ]


def test_names_that_differ_only_in_case_both_get_their_ids(store, tmp_path):
    ids = import_threads(store, tmp_path, {"Standup.json": False, "standup.json": True})
    build_bundle(store, "1.0.0", formats="jsonl,mattermost")
    names = sorted(p.name for p in (store.bundles_dir / "1.0.0" / "mattermost").iterdir())
    assert names == sorted(
        [
            f"Standup.{ids['Standup.json'][-8:]}.json",
            f"standup.{ids['standup.json'][-8:]}.json",
            "rubrics.json",
        ]
    )


@pytest.mark.parametrize(
    "recorded, expected", [(None, "team-notes.json"), (False, "Team Notes.json")]
)
def test_a_fixture_without_a_recorded_source_name_keeps_todays_slug(store, recorded, expected):
    fixture = store.load_fixture(add_thread(store))
    fixture.provenance.source_name = "Team Notes.json"
    fixture.provenance.source_name_anonymised = recorded
    assert base_name(fixture) == expected
    # and fixture.json of such a fixture keeps its bytes: the unset member is left out
    dumped = fixture.provenance.model_dump(mode="json")
    assert ("source_name_anonymised" in dumped) is (recorded is not None)


@pytest.mark.parametrize(
    "source, expected",
    [
        ("../../Evil Name.json", "Evil Name.json"),  # a base name only
        ("..hidden.json", "hidden.json"),
        ("a\\..\\b.json", "a-b.json"),
        ("release.v2.json", "release.v2.json"),
        ("X" * 130 + ".json", "x" * 130 + ".json"),  # too long to keep as is: the slug
    ],
)
def test_a_hand_edited_source_name_never_makes_a_path(store, source, expected):
    fixture = store.load_fixture(add_thread(store))
    fixture.provenance.source_name = source
    fixture.provenance.source_name_anonymised = False
    assert base_name(fixture) == expected


def test_a_variant_keeps_its_parents_source_name_plus_its_mutation(store, tmp_path):
    ids = import_threads(store, tmp_path, {"Developers Webapp.json": False})
    made = run_cli("mutate", ids["Developers Webapp.json"], "--truncate", "0.5", store=store.root)
    assert made.exit_code == 0, made.stderr
    run_cli("status", "--to", "active", "--where", "mutation=truncate", store=store.root)
    build_bundle(store, "1.0.0", formats="jsonl,mattermost")
    names = sorted(p.name for p in (store.bundles_dir / "1.0.0" / "mattermost").iterdir())
    assert names == ["Developers Webapp.json", "Developers Webapp.truncate.json", "rubrics.json"]


def test_a_name_added_to_the_vault_later_renames_the_thread_file_and_the_build_says_so(
    store, tmp_path
):
    from curator.anonymise import add_name, detector_for

    missed = "Quellmire"  # a surname no finder knows: the import keeps it in the file name
    written = write_thread_export(tmp_path / f"{missed}_handover.json")
    run = run_cli("import", str(written.path), "--rubric", RUBRIC, "--json", store=store.root)
    thread = json.loads(run.stdout)["created"][0]["id"]
    assert store.load_fixture(thread).provenance.source_name == f"{missed}_handover.json"
    run_cli("status", thread, "--to", "active", store=store.root)

    add_name(store, missed, "last_name", detector_for())

    provenance = store.load_fixture(thread).provenance
    assert provenance.source_name_anonymised is True and missed not in provenance.source_name
    result = build_bundle(store, "1.0.0", formats="jsonl,mattermost")
    name = base_name(store.load_fixture(thread))
    assert result.warnings[0].startswith(f"mattermost/{name}: named through the vault")


def test_forgetting_the_word_a_source_name_was_rewritten_for_gives_the_name_back(store, tmp_path):
    from curator.anonymise import add_name, detector_for, forget_word

    written = write_thread_export(tmp_path / "webguild_notes.json")
    run = run_cli("import", str(written.path), "--rubric", RUBRIC, "--json", store=store.root)
    thread = json.loads(run.stdout)["created"][0]["id"]
    add_name(store, "Webguild", "last_name", detector_for())  # a word taken for a name
    assert store.load_fixture(thread).provenance.source_name_anonymised is True

    forget_word(store, "Webguild")

    provenance = store.load_fixture(thread).provenance
    assert provenance.source_name == "webguild_notes.json"
    assert provenance.source_name_anonymised is False
