"""README.md: the bundle's dataset card, in the Hugging Face convention.

A YAML header (licence, languages, task categories from curator.toml; with the hf format,
`configs` pointing at each split's Arrow file and `dataset_info` with the declared
features and split sizes), then what a reader needs: what the set is, how to load it,
its composition, its columns and how it was made. Everything comes from the bundled rows
and the store's settings, sorted, so the card is byte-identical across rebuilds.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from curator.bundle.formats import hf
from curator.bundle.formats.columns import described
from curator.bundle.stats import kind_of, tabulate
from curator.model import StoreSettings

CARD = "README.md"
TAGS = ["curator", "golden-set", "llm-evaluation"]


@dataclass(frozen=True)
class SplitSize:
    rows: int
    num_bytes: int


@dataclass(frozen=True)
class CardFacts:
    """What the card states about one bundle, besides its rows."""

    version: str
    previous: str | None
    built_at: str
    curator_version: str
    formats: list[str]
    splits: dict[str, SplitSize] | None  # with the hf format: each split's rows and bytes


def render(settings: StoreSettings, facts: CardFacts, columns: dict[str, list[Any]]) -> str:
    header = _yaml(_metadata(settings, facts, columns))
    body = "\n".join(
        [
            *_summary(settings, facts, columns),
            *_loading(facts),
            *_composition(settings, columns),
            *_columns(columns),
            *_making(columns),
        ]
    )
    return f"---\n{header}---\n\n{body}"


def _metadata(
    settings: StoreSettings, facts: CardFacts, columns: dict[str, list[Any]]
) -> dict[str, Any]:
    total = len(columns["id"])
    meta: dict[str, Any] = {
        "pretty_name": f"{settings.name} {facts.version}",
        "license": settings.license,
        "language": _languages(settings, columns),
        "task_categories": list(settings.task_categories),
        "tags": TAGS,
        "size_categories": [_size_category(total)],
    }
    if facts.splits is not None:
        meta.update(_hf_metadata(facts.splits, "tasks" in columns))
    return meta


def _hf_metadata(splits: dict[str, SplitSize], tasks: bool) -> dict[str, Any]:
    """`configs` and `dataset_info` exactly as the `datasets` library reads and writes them."""
    from datasets import DatasetInfo, SplitDict, SplitInfo
    from datasets.info import DatasetInfosDict

    # Hub loaders refuse a split with no rows, and one that `dataset_info` lists but
    # `configs` does not: both name only the splits that have rows.
    filled = {name: size for name, size in splits.items() if size.rows}
    split_dict = SplitDict()
    for name, size in filled.items():
        split_dict.add(SplitInfo(name=name, num_bytes=size.num_bytes, num_examples=size.rows))
    info = DatasetInfo(
        features=hf.features(tasks),
        splits=split_dict,
        dataset_size=sum(size.num_bytes for size in filled.values()),
    )
    card_data: dict[str, Any] = {}
    DatasetInfosDict({"default": info}).to_dataset_card_data(card_data)
    files = [{"split": name, "path": hf.data_path(name)} for name in filled]
    return {"configs": [{"config_name": "default", "data_files": files}], **card_data}


def _summary(settings: StoreSettings, facts: CardFacts, columns: dict[str, list[Any]]) -> list[str]:
    total = len(columns["id"])
    adversarial = sum(columns["adversarial"])
    lines = [
        f"# {settings.name} {facts.version}",
        "",
        settings.description or "A golden test set for LLM systems, built with curator.",
        "",
        "| | |",
        "|---|---|",
        f"| bundle version | {facts.version} |",
        f"| previous version | {facts.previous or 'none'} |",
        f"| truth as of | {facts.built_at} (the newest label revision) |",
        f"| built with | curator {facts.curator_version} |",
        f"| fixtures | {total}: {total - adversarial} golden, {adversarial} adversarial |",
        f"| licence | {settings.license} |",
        f"| formats | {', '.join(facts.formats)} |",
        "",
        "## Splits",
        "",
        "| split | fixtures | what it holds |",
        "|---|---|---|",
    ]
    counts = {"golden": total - adversarial, "adversarial": adversarial}
    lines += [f"| `{name}` | {counts[name]} | {what} |" for name, what in hf.SPLITS.items()]
    lines += [
        "",
        "`hf/` always holds both splits with the same features; a split with no fixtures has",
        'no rows, so `ds["adversarial"]` works on a set without variants. This card\'s `configs`',
        "and `dataset_info` name only splits with rows: Hub loaders refuse an empty split.",
        "",
    ]
    return lines


def _loading(facts: CardFacts) -> list[str]:
    lines = ["## Loading", "", "```python"]
    if "hf" in facts.formats:
        lines += [
            "import datasets",
            f'ds = datasets.load_from_disk("bundles/{facts.version}/hf")   # DatasetDict: '
            "golden, adversarial",
            "",
        ]
    if "parquet" in facts.formats:
        lines += [
            "import pandas",
            f'frame = pandas.read_parquet("bundles/{facts.version}/fixtures.parquet")   # same '
            "columns, both splits",
            "",
        ]
    lines += [
        "import curator.bundle",
        f'for item in curator.bundle.load("bundles/{facts.version}"):   # curator\'s own models',
        "    item.fixture, item.content, item.labels",
        "```",
        "",
        f"`curator bundle verify bundles/{facts.version}` checks every file (this card too)",
        "against the sha256 in `manifest.json`.",
        "",
    ]
    return lines


def _composition(settings: StoreSettings, columns: dict[str, list[Any]]) -> list[str]:
    kinds_of = [
        kind_of(m, a)
        for m, a in zip(columns["mutation_kinds"], columns["adversarial"], strict=True)
    ]
    table, kinds = tabulate(zip(columns["category"], kinds_of, strict=True))
    lines = [
        "## Composition",
        "",
        "Fixtures by category and mutation kind (`none`: a golden; `promoted`: a production",
        "failure; several mutations are joined by `+`):",
        "",
        "| category | " + " | ".join(kinds) + " | total |",
        "|---|" + "---:|" * (len(kinds) + 1),
    ]
    for category, row in table.items():
        cells = " | ".join(str(row.get(kind, 0)) for kind in kinds)
        lines.append(f"| {category} | {cells} | {sum(row.values())} |")
    total = len(columns["id"])
    adversarial = sum(columns["adversarial"])
    share = adversarial / total if total else 0.0
    target = settings.adversarial_target_share
    lines += [
        "",
        f"Adversarial share: {share:.2f} ({adversarial} of {total}); the store's target is "
        f"{target:.2f}.",
        "",
        _counts_table(
            "kind",
            Counter(
                _kind_label(k, d) for k, d in zip(columns["kind"], columns["doc_type"], strict=True)
            ),
        ),
        "",
        _counts_table("status", Counter(columns["status"])),
        "",
    ]
    return lines


def _columns(columns: dict[str, list[Any]]) -> list[str]:
    lines = ["## Columns", "", "| column | what it holds |", "|---|---|"]
    lines += [f"| `{name}` | {what} |" for name, what in described(columns).items()]
    lines += [
        "",
        "`fixtures.jsonl` holds the same fixtures in curator's own shape",
        "(`schemas/bundle-fixture.schema.json`); `mattermost/` holds each thread as a",
        "Mattermost ThreadExport with `rubrics.json`.",
        "",
    ]
    return lines


def _making(columns: dict[str, list[Any]]) -> list[str]:
    provenance = columns["provenance"]
    importers = Counter(p["importer"] for p in provenance)
    anonymised = sum(1 for p in provenance if p["vault_id"])
    ocr_pages = sum(1 for pages in columns["pages"] for page in pages if page["origin"] == "ocr")
    all_pages = sum(len(pages) for pages in columns["pages"])
    sources = Counter(_source_kind(source) for source in columns["label_source"])
    mutations: Counter[str] = Counter(name for names in columns["mutation_kinds"] for name in names)
    known_bad = sum(len(bad) for bad in columns["known_bad"])
    lines = [
        "## How the set was made",
        "",
        "- **Inputs**: " + _listing(importers) + " (by importer). Raw inputs never enter the",
        "  store or this bundle.",
        f"- **Anonymisation**: {anonymised} of {len(provenance)} fixtures were anonymised with the",
        "  store's pseudonym vault (its fingerprint is `provenance.vault_id`; the key never",
        "  leaves the store); before writing, every string of this bundle went through the",
        "  leak gate (`curator.anonymise.find_leaks`).",
        f"- **Text**: {all_pages - ocr_pages} document pages read from a text layer, {ocr_pages} "
        "by OCR.",
        "- **Truth**: the bundled label revisions were set by " + _listing(sources) + ".",
        "- **Adversarial variants**: "
        + (_listing(mutations) if mutations else "none")
        + " (by mutation;",
        "  each variant's lineage records its golden, seed, parameters and measurements, and its",
        "  truth was transformed with the text).",
        f"- **Production failures**: {importers.get('promote', 0)} fixtures promoted from them; "
        f"{known_bad}",
        "  known-bad answers recorded in all (`known_bad`).",
        "",
    ]
    return lines


def _counts_table(name: str, counts: Counter[str]) -> str:
    rows = [f"| {name} | fixtures |", "|---|---:|"]
    rows += [f"| {key} | {count} |" for key, count in sorted(counts.items())]
    return "\n".join(rows)


def _kind_label(kind: str, doc_type: str | None) -> str:
    return f"{kind} ({doc_type})" if doc_type else kind


def _source_kind(source: str | None) -> str:
    """`labelstudio:12/34` -> `labelstudio`: the card counts who, not which task."""
    if source is None:
        return "unlabelled"
    return source.split(":", 1)[0] if source.startswith("labelstudio:") else source


def _listing(counts: Counter[str]) -> str:
    return ", ".join(f"{key} {count}" for key, count in sorted(counts.items())) or "none"


def _languages(settings: StoreSettings, columns: dict[str, list[Any]]) -> list[str]:
    found = {settings.locale.split("_")[0].lower()}
    found |= {page["language"] for pages in columns["pages"] for page in pages if page["language"]}
    return sorted(found)


def _size_category(total: int) -> str:
    for limit, name in (
        (1_000, "n<1K"),
        (10_000, "1K<n<10K"),
        (100_000, "10K<n<100K"),
        (1_000_000, "100K<n<1M"),
    ):
        if total < limit:
            return name
    return "n>1M"


def _yaml(meta: dict[str, Any]) -> str:
    import yaml

    return yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, width=100)
