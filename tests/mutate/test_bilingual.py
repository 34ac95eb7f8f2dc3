"""--bilingual LANG: label phrases translated, values and truth untouched, langdetect agrees."""

from __future__ import annotations

import pytest

from curator.labels import truth_problems
from curator.mutate.bilingual import glossary, shipped_languages
from tests.conftest import run_cli, snapshot
from tests.mutate.conftest import variant_of

LANGUAGES = ["fr", "de", "es", "it", "pt", "nl"]


def test_shipped_glossaries_cover_every_label_phrase(config):
    assert set(LANGUAGES) <= set(shipped_languages())
    phrases = {
        p
        for spec in config.doc_types.values()
        for field in spec.fields.values()
        for p in field.labels
    }
    for language in LANGUAGES:
        terms = glossary(config, language)
        missing = phrases - set(terms)
        assert not missing, (language, missing)
        assert all(terms[p] and terms[p] != p for p in phrases if p not in {"Total"}), language


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("which", ["lease", "invoice"])
def test_labels_translated_values_kept(samples_store, language, which):
    parent_id = getattr(samples_store, which)
    result = run_cli(
        "mutate", parent_id, "--bilingual", language, "--json", store=samples_store.root
    )
    assert result.exit_code == 0, result.stderr
    info = variant_of(result.stdout)
    measured = info["mutations"][0]["measured"]
    assert measured["detected"] == language and measured["language"] == language
    assert measured["probability"] > 0.5
    parent = samples_store.store.load(parent_id)
    variant = samples_store.store.load(info["id"])
    text = "\n".join(p.text for p in variant.content.pages)
    for english, translated in measured["translated"].items():
        assert f"{translated}:" in text or f"{translated.upper()}:" in text
        assert f"\n{english}:" not in text
    for name, label in parent.labels.fields.items():
        new = variant.labels.fields[name]
        assert (new.value, new.type, new.expected_absent) == (
            label.value,
            label.type,
            label.expected_absent,
        )
        assert new.evidence_text is None
    assert truth_problems(variant.content, variant.labels) == []
    assert variant.fixture.category == "bilingual"


def test_glossary_extended_in_curator_toml(samples_store):
    config_path = samples_store.root / "curator.toml"
    config_path.write_text(
        config_path.read_text(encoding="utf-8")
        + '\n[glossaries.sv]\n"Tenant" = "Hyresgäst"\n"Landlord" = "Hyresvärd"\n'
        '"Premises Address" = "Lägenhetens adress"\n'
        '"Lease Start Date" = "Hyresavtalets startdatum"\n'
        '"Lease End Date" = "Hyresavtalets slutdatum"\n"Monthly Rent" = "Månadshyra"\n'
        '"Security Deposit" = "Säkerhetsdeposition"\n'
        '\n[glossaries.fr]\n"Tenant" = "Preneur à bail"\n',
        encoding="utf-8",
    )
    result = run_cli(
        "mutate", samples_store.lease, "--bilingual", "sv", "--json", store=samples_store.root
    )
    assert result.exit_code == 0, result.stderr
    assert variant_of(result.stdout)["mutations"][0]["measured"]["detected"] == "sv"
    result = run_cli(
        "mutate", samples_store.lease, "--bilingual", "fr", "--json", store=samples_store.root
    )
    variant = samples_store.store.load(variant_of(result.stdout)["id"])
    assert "Preneur à bail: " in variant.content.pages[0].text  # the store's phrase wins


def test_language_without_glossary_is_refused(samples_store):
    before = snapshot(samples_store.root)
    result = run_cli("mutate", samples_store.lease, "--bilingual", "fi", store=samples_store.root)
    assert result.exit_code == 2
    assert "no glossary for language 'fi'" in result.stderr
    assert snapshot(samples_store.root) == before


def test_thread_without_doc_type_is_refused(samples_store):
    before = snapshot(samples_store.root)
    result = run_cli("mutate", samples_store.thread, "--bilingual", "fr", store=samples_store.root)
    assert result.exit_code == 2 and "no doc type" in result.stderr
    assert snapshot(samples_store.root) == before
