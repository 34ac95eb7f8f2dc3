"""curator: build and maintain golden test sets for LLM systems."""

__version__ = "0.1.0"
