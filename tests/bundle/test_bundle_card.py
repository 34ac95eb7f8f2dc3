"""The bundle describes itself: a Hugging Face dataset card and a DatasetDict with two splits."""

from __future__ import annotations

import pytest

from curator.bundle.build import build_bundle
from curator.bundle.formats import hf as hf_format
from tests.bundle.conftest import add_lease, add_thread


def _settings(store, **values):
    import tomllib

    import tomli_w

    path = store.root / "curator.toml"
    config = tomllib.loads(path.read_text())
    config["store"].update(values)
    path.write_text(tomli_w.dumps(config))


def _card(root):
    from huggingface_hub import DatasetCard

    return DatasetCard.load(root / "README.md")


@pytest.fixture(autouse=True)
def _offline(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")


def test_card_parses_offline_and_declares_what_hf_holds(sample):
    _settings(
        sample,
        name="lease-set",
        description="Leases for the extractor.",
        license="cc-by-4.0",
        task_categories=["summarization"],
    )
    root = build_bundle(sample, "1.0.0").path
    from datasets.info import DatasetInfosDict

    card = _card(root)
    assert (card.data.license, card.data.task_categories, card.data.pretty_name) == (
        "cc-by-4.0",
        ["summarization"],
        "lease-set 1.0.0",
    )
    assert card.data.language == ["en"]
    info = DatasetInfosDict.from_dataset_card_data(card.data)["default"]
    assert info.features == hf_format.features()
    assert {name: split.num_examples for name, split in info.splits.items()} == {
        "golden": 3,
        "adversarial": 1,
    }
    assert card.data.configs == [
        {
            "config_name": "default",
            "data_files": [
                {"split": "golden", "path": "hf/golden/data-00000-of-00001.arrow"},
                {"split": "adversarial", "path": "hf/adversarial/data-00000-of-00001.arrow"},
            ],
        }
    ]
    assert card.text.startswith("\n# lease-set 1.0.0\n\nLeases for the extractor.\n")
    assert "| truncated | 0 | 1 | 1 |" in card.text  # category x mutation kind
    assert "| thread | 1 |" in card.text and "| document (lease) | 3 |" in card.text
    assert "truncate 1 (by mutation" in card.text


def test_the_cards_configs_load_with_the_hub_loader(sample, tmp_path):
    import datasets

    root = build_bundle(sample, "1.0.0").path
    loaded = datasets.load_dataset(str(root), cache_dir=str(tmp_path / "cache"))
    assert loaded.num_rows == {"golden": 3, "adversarial": 1}
    assert loaded["adversarial"].features == hf_format.features()
    assert loaded["adversarial"][0]["lineage"]["mutations"][0]["name"] == "truncate"


def test_an_empty_split_stays_in_hf_but_not_in_the_cards_configs(store, tmp_path):
    import datasets

    add_lease(store, "maple lease", "Jordan Blake", "$1,250.00")
    add_thread(store)
    root = build_bundle(store, "1.0.0").path
    splits = datasets.load_from_disk(str(root / "hf"))
    assert splits.num_rows == {"golden": 2, "adversarial": 0}
    assert splits["adversarial"].features == hf_format.features()
    card = _card(root)
    assert [f["split"] for f in card.data.configs[0]["data_files"]] == ["golden"]
    assert "| `adversarial` | 0 |" in card.text
    loaded = datasets.load_dataset(str(root), cache_dir=str(tmp_path / "cache"))
    assert list(loaded) == ["golden"]


def test_without_the_hf_format_the_card_has_no_dataset_info(sample):
    root = build_bundle(sample, "1.0.0", formats="jsonl").path
    card = _card(root)
    assert "configs" not in card.data.to_dict() and "dataset_info" not in card.data.to_dict()
    assert card.data.size_categories == ["n<1K"]
    assert "load_from_disk" not in card.text


def test_a_licence_that_is_not_an_id_is_refused(sample):
    from tests.conftest import run_cli

    _settings(sample, license="CC BY 4.0")
    run = run_cli("bundle", "build", "1.0.0", store=sample.root)
    assert run.exit_code == 2 and "store.license" in run.stderr
    assert not (sample.bundles_dir / "1.0.0").exists()
