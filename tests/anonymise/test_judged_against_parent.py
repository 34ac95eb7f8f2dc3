"""A mutation's output is judged against what its parent held: noise is no new leak.

The sample store's OCR-noise variant of lease-birch (seed 2, CER 0.08, with the sample store's
vault key) reads "Monthly Rent" as "Montbly Ren t", which the name finder took for a person:
`audit` reported it and `bundle build` refused. A name planted in the variant after mutation
is still a leak, whether the vault knows it or only the detector finds it.
"""

from __future__ import annotations

import json

import pytest

from scripts.build_sample_store import SAMPLE_VAULT_KEY
from tests.conftest import run_cli
from tests.ingest.conftest import EXAMPLES

NOISY = "Montbly Ren t"


@pytest.fixture
def noisy(tmp_path, monkeypatch):
    """A store holding lease-birch and its OCR-noise variant, and the variant's content.json."""
    monkeypatch.setenv("CURATOR_VAULT_KEY", SAMPLE_VAULT_KEY)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    root = tmp_path / "store"
    assert run_cli("init", str(root)).exit_code == 0
    rubric = ("--rubric", "The answer names the tenant.")
    made = run_cli(
        "import", str(EXAMPLES / "pdfs" / "lease-birch.pdf"), *rubric, "--json", store=root
    )
    assert made.exit_code == 0, made.stderr
    [parent] = [created["id"] for created in json.loads(made.stdout)["created"]]
    assert run_cli("status", "--to", "active", "--where", "status=draft", store=root).exit_code == 0
    made = run_cli("mutate", parent, "--ocr-noise", "0.08", "--seed", "2", "--json", store=root)
    assert made.exit_code == 0, made.stderr
    [variant] = json.loads(made.stdout)["variants"]
    path = root / "adversarial" / variant["id"] / "content.json"
    assert NOISY in path.read_text(encoding="utf-8"), "the noise this test is about moved"
    return root, path


def test_noise_that_looks_like_a_name_is_no_leak_and_the_variant_bundles(noisy):
    root, _ = noisy
    audit = run_cli("audit", store=root)
    assert audit.exit_code == 0 and "no leaks found" in audit.stdout, audit.stdout
    build = run_cli("bundle", "build", "1.0.0", store=root)
    assert build.exit_code == 0, build.stderr


@pytest.mark.parametrize(
    "planted",
    [
        "Miguel Lewis",  # the lease's real tenant: the vault's original
        "Signed for the landlord by Rosalind Okonkwo-Pemberton",  # a name the finder finds
    ],
)
def test_a_name_planted_after_mutation_is_still_a_leak(noisy, planted):
    root, path = noisy
    stored = json.loads(path.read_text(encoding="utf-8"))
    page = stored["content"]["pages"][0]
    page["text"] = page["text"].replace(NOISY, f"{NOISY}\n{planted}\n", 1)
    path.write_text(json.dumps(stored, indent=2), encoding="utf-8")
    audit = run_cli("audit", store=root)
    assert audit.exit_code == 1, audit.stdout
    [leak] = audit.stdout.splitlines()[:-1]
    assert NOISY.split()[0] not in leak and ("Lewis" in leak or "Okonkwo" in leak), leak
    assert run_cli("bundle", "build", "1.0.0", store=root).exit_code != 0


def test_a_misread_pseudonym_is_no_leak_in_a_variant_but_is_one_alone(noisy):
    """The same text judged with no parent: the misread pseudonym is a person (so this test
    can fail), and the audit, judging it against its parent, reports nothing."""
    from curator.anonymise import Vault, find_leaks
    from curator.store import Store

    root, path = noisy
    stored = json.loads(path.read_text(encoding="utf-8"))
    page = stored["content"]["pages"][0]
    parent = json.loads((path.parent / "fixture.json").read_text(encoding="utf-8"))["lineage"]
    held = json.loads((root / "goldens" / parent["parent"] / "content.json").read_text("utf-8"))
    text = held["content"]["pages"][0]["text"]
    assert "Tenant: Stephen Gallegos" in text  # the tenant's pseudonym, with the sample key
    # the parent's page with only the pseudonym misread, beside its cue
    page["text"] = text.replace("Stephen Gallegos", "Stephcn GaIlegos")
    path.write_text(json.dumps(stored, indent=2), encoding="utf-8")
    alone = find_leaks([("page", page["text"])], Vault.load(Store(root)))
    assert [leak.text for leak in alone] == ["Stephcn GaIlegos"]
    audit = run_cli("audit", store=root)
    assert audit.exit_code == 0 and "no leaks found" in audit.stdout, audit.stdout


def test_a_cached_verdict_of_a_variant_goes_with_its_parents_text(noisy):
    """The audit keeps verdicts (verdicts.py), and a variant's depends on its parent's files:
    once the parent no longer holds "Monthly Rent", the variant's noise is no copy of it and
    the second audit judges it again."""
    root, path = noisy
    assert run_cli("audit", store=root).exit_code == 0
    [parent] = json.loads((path.parent / "fixture.json").read_text(encoding="utf-8"))["lineage"][
        "parent"
    ].split()
    parent_content = root / "goldens" / parent / "content.json"
    stored = json.loads(parent_content.read_text(encoding="utf-8"))
    for page in stored["content"]["pages"]:
        page["text"] = page["text"].replace("Monthly Rent", "Rent due")
    parent_content.write_text(json.dumps(stored, indent=2), encoding="utf-8")
    audit = run_cli("audit", store=root)
    assert audit.exit_code == 1 and "Montbly" in audit.stdout, audit.stdout
