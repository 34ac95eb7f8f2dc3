"""Benchmark inputs: synthetic lease PDFs built with examples/generate.py (fixed seed)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def generator():
    spec = importlib.util.spec_from_file_location(
        "examples_generate", REPO / "examples" / "generate.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def lease_text_pages(count: int) -> list[list[str]]:
    """`count` pages of lease text, each page full of lines so extraction has real work."""
    from faker import Faker

    gen = generator()
    fake = Faker("en_US")
    Faker.seed(gen.SEED)
    pages: list[list[str]] = []
    while len(pages) < count:
        first, terms = gen.lease_pages(gen.lease_facts(fake))
        filler = [fake.sentence(nb_words=12) for _ in range(18)]
        pages.extend([first + filler[:12], terms + filler[12:]])
    return pages[:count]


def text_pdf(count: int) -> bytes:
    return generator().text_pdf(lease_text_pages(count))


def scanned_pdf(count: int) -> bytes:
    gen = generator()
    return gen.scanned_pdf(
        gen.text_pdf(lease_text_pages(count)), dpi=200, skew=1.0, noise=6.0, quality=60
    )
