"""Turn production failures into anonymised, de-duplicated adversarial fixtures."""

from curator.promote.promote import PromoteSummary, promote

__all__ = ["PromoteSummary", "promote"]
