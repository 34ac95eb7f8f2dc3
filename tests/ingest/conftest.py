"""Fixtures for the import tests: the committed examples, bad inputs made as real files,
and a clean 300 dpi scan with known text."""

from __future__ import annotations

import importlib.util
import io
import json
from pathlib import Path

import pytest

from tests.conftest import REPO

EXAMPLES = REPO / "examples"
TRUTH = json.loads((EXAMPLES / "truth.json").read_text(encoding="utf-8"))


def _load_generator():
    spec = importlib.util.spec_from_file_location("examples_generate", EXAMPLES / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


generate = _load_generator()


def cer(hypothesis: str, truth: str) -> float:
    """Character error rate: edit distance / truth length, whitespace runs counted as one space."""
    from rapidfuzz.distance.Levenshtein import distance as levenshtein

    a, b = " ".join(hypothesis.split()), " ".join(truth.split())
    return levenshtein(a, b) / max(1, len(b))


@pytest.fixture
def clean_scan(tmp_path: Path) -> tuple[Path, str]:
    """An image-only PDF: a lease page rendered at 300 dpi, no noise; and its true text."""
    from faker import Faker

    fake = Faker("en_US")
    Faker.seed(7)
    pages = generate.lease_pages(generate.lease_facts(fake))[:1]
    path = tmp_path / "clean-scan.pdf"
    path.write_bytes(generate.scanned_pdf(generate.text_pdf(pages), dpi=300, quality=95))
    return path, "\n".join(pages[0])


# ---------------------------------------------------------------- bad inputs, as real files


def _pdf_bytes(writer) -> bytes:
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def make_bad_inputs(folder: Path) -> dict[str, tuple[Path, str]]:
    """case -> (file, a phrase its error line must contain)."""
    from pypdf import PdfReader, PdfWriter

    folder.mkdir(parents=True, exist_ok=True)
    thread = (EXAMPLES / "threads" / "lease-question.json").read_bytes()
    lease = (EXAMPLES / "pdfs" / "lease-maple.pdf").read_bytes()
    locked = PdfWriter()
    locked.append(PdfReader(io.BytesIO(lease)))
    locked.encrypt("s3cret")
    files = {
        "malformed-json": ("malformed.json", b'{"posts": {"a": {"id": "a",}}}', "not valid JSON"),
        "truncated-json": ("truncated.json", thread[: len(thread) // 2], "not valid JSON"),
        "not-an-export": (
            "config.json",
            b'{"name": "settings", "items": [1, 2]}',
            "not a Mattermost thread export",
        ),
        "json-array": ("list.json", b"[1, 2, 3]", "not a Mattermost thread export"),
        "no-posts": ("no-posts.json", b'{"posts": {}, "users": {}}', "no posts"),
        "posts-not-a-map": (
            "posts-list.json",
            b'{"posts": [{"id": "a", "message": "hi"}]}',
            "'posts' must be a map",
        ),
        "post-not-an-object": (
            "post-string.json",
            b'{"posts": {"a": "hello"}}',
            "not a post object",
        ),
        "empty-json": ("empty.json", b"", "empty file"),
        "empty-pdf": ("empty.pdf", b"", "empty file"),
        "not-a-pdf": ("notes.pdf", b"Meeting notes\nnothing to see here\n", "not a PDF"),
        "corrupt-pdf": ("corrupt.pdf", b"%PDF-1.4\n" + bytes(range(256)) * 8, "corrupt PDF"),
        "truncated-pdf": ("truncated.pdf", lease[: len(lease) // 2], "corrupt PDF"),
        "password-pdf": ("locked.pdf", _pdf_bytes(locked), "password-protected"),
        "zero-page-pdf": ("zero-pages.pdf", _pdf_bytes(PdfWriter()), "no pages"),
        "bad-chat-line": (
            "chat.jsonl",
            b'{"author": "a", "text": "hi", "time": 1}\n{"author": \n',
            "chat.jsonl:2",
        ),
    }
    made = {}
    for case, (name, data, phrase) in files.items():
        path = folder / name
        path.write_bytes(data)
        made[case] = (path, phrase)
    made["missing-path"] = (folder / "does-not-exist.json", "no such file")
    return made
