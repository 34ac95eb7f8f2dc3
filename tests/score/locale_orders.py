"""A store per locale holding one synthetic order form written the way that locale writes
its dates, numbers and amounts (tests of values read as people mean them)."""

from __future__ import annotations

from pathlib import Path

from curator.model import DocumentContent, Fixture, Page
from curator.store import Store, fixture_id
from tests.bundle.conftest import TIME, provenance

LOCALES = ("en_US", "en_GB", "de_DE", "fr_FR")
PAGES = {
    "en_US": "ORDER\nIssued: 03/04/2024\nUnits: 71,137\nTotal: $2,480.00\nWeight: 1.250 kg\n",
    "en_GB": "ORDER\nIssued: 03/04/2024\nUnits: 71,137\nTotal: £2,480.00\nWeight: 1.250 kg\n",
    "de_DE": "BESTELLUNG\nIssued: 03.04.2024\nUnits: 71.137\nTotal: 2.480,00 €\nWeight: 1,250 kg\n",
    "fr_FR": (
        "COMMANDE\nIssued: 03/04/2024\nUnits: 71\u202f137\nTotal: 2\u202f480,00\u00a0€\n"
        "Weight: 1,250 kg\n"
    ),
}
CONFIG = """[store]
name = "values"
locale = "{locale}"

[doc_types.order]
description = "Synthetic order form"
{override}
[doc_types.order.fields.issued]
type = "date"
labels = ["Issued"]

[doc_types.order.fields.units]
type = "number"
labels = ["Units"]

[doc_types.order.fields.total]
type = "money"
labels = ["Total"]

[doc_types.order.fields.weight]
type = "number"
labels = ["Weight"]
"""

# The truth each store ends with (its own locale's reading of its page).
TRUTH = ["issued=2024-04-03", "units=71137", "total=2480", "weight=1.25"]
TRUTH_US = ["issued=2024-03-04", "units=71137", "total=2480", "weight=1.25"]


def order_store(root: Path, locale: str, *, doc_type_locale: str | None = None) -> Store:
    """A store whose one order form is written as `locale` writes; unlabelled."""
    store = Store.init(root)
    override = f'locale = "{doc_type_locale}"\n' if doc_type_locale else ""
    (root / "curator.toml").write_text(CONFIG.format(locale=locale, override=override))
    store = Store.open(root)
    text = PAGES[doc_type_locale or locale]
    fixture = Fixture(
        id=fixture_id("order", text.encode()),
        kind="document",
        doc_type="order",
        category="clean",
        status="active",
        created_at=TIME,
        provenance=provenance("order.pdf"),
    )
    content = DocumentContent(pages=[Page(number=1, text=text, origin="text-layer")])
    store.create_fixture(fixture, content, [])
    return store


def only_fixture(store: Store) -> str:
    (record,) = list(store.records())
    return record.fixture.id
