"""Inputs made to hurt the importer and the other readers: JSON that nests, overflows or is
no Unicode; files that are huge, endless or no files; PDFs and images whose pixels or pages
would take all the memory. Each is refused in one line, before the memory is spent."""

from __future__ import annotations

import io
import os
import struct
import zlib
from pathlib import Path

import pytest

from curator.store import Store
from tests.hostile.conftest import Sandbox, assert_refused, run, tree

GB = 1 << 30


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def _thread(props: str = "{}", message: str = '"hello"') -> str:
    return (
        '{"posts": {"p1": {"id": "p1", "user_id": "u1", "channel_id": "c1", "create_at": 1, '
        f'"message": {message}, "props": {props}}}}}, '
        '"users": {"u1": {"id": "u1", "username": "sam"}}}'
    )


def _chat(time: str = '"2024-01-01T00:00:00Z"', text: str = '"hi"', extra: str = "") -> str:
    return f'{{"author": "sam", "text": {text}, "time": {time}{extra}}}\n'


JSON_INPUTS = {
    "thread-nested-300": ("deep.json", _thread(props=_nested(300)), "nested deeper than 64 levels"),
    "chat-nested-5000": (
        "deep.jsonl",
        _chat(extra=', "x": ' + _nested(5000)),
        "nested deeper than 64 levels",
    ),
    "chat-nested-200000": (
        "deeper.jsonl",
        _chat(extra=', "x": ' + _nested(200_000)),
        "nested deeper",
    ),
    "lone-surrogate": ("surrogate.jsonl", _chat(text='"x\\ud800y"'), "lone surrogate"),
    "lone-surrogate-key": ("surrogate.json", _thread(props='{"\\udc00": 1}'), "lone surrogate"),
    "5001-digit-integer": ("digits.jsonl", _chat(time="9" * 5001), "more than 100 digits"),
    "5001-digit-float": (
        "float.json",
        _thread(props='{"x": 1.' + "5" * 5000 + "}"),
        "more than 100 digits",
    ),
    "nan": ("nan.json", _thread(props='{"x": NaN}'), "NaN is not JSON"),
    "huge-time": ("time.jsonl", _chat(time="99999999999999999999"), "its time is out of range"),
    "not-utf8": ("latin1.jsonl", _chat(text='"caf\xe9"'), "not UTF-8 text"),
    # 3 MB that json.loads would turn into 70 MB of empty objects: counted before parsing.
    "million-empty-objects": (
        "many.json",
        _thread(props="[" + "{}," * 1_100_000 + "{}]"),
        "more than 1,000,000 values",
    ),
    "values-over-many-lines": (
        "many.jsonl",
        _chat(extra=', "x": [' + "0," * 99_999 + "0]") * 11,
        "many.jsonl:10: more than 1,000,000 values",
    ),  # 100,004 values a line
}


@pytest.mark.parametrize("case", JSON_INPUTS, ids=list(JSON_INPUTS))
def test_hostile_json_is_one_line_and_changes_nothing(sandbox, fresh_store, case):
    name, text, says = JSON_INPUTS[case]
    source = sandbox.inputs / name
    source.write_bytes(
        text.encode("latin-1") if case == "not-utf8" else text.encode("utf-8", "surrogatepass")
    )
    before, around = tree(fresh_store.root), sandbox.outside()
    result = run(sandbox, "import", source, store=fresh_store)
    assert_refused(
        result,
        says=says,
        store=fresh_store,
        store_before=before,
        sandbox=sandbox,
        outside_before=around,
    )
    assert f"{name}" in result.stderr  # it names the file (and line, for JSONL)


@pytest.mark.parametrize("reader", ["gate", "view", "promote"])
def test_every_reader_of_input_json_refuses_the_same_way(sandbox, sample, reader, tmp_path):
    from curator.bundle.build import build_bundle

    bad = sandbox.inputs / ("record.json" if reader == "promote" else "lines.jsonl")
    bad.write_text('{"x": ' + _nested(300) + "}\n")
    if reader == "gate":
        bundle = build_bundle(sample, "1.0.0", formats="jsonl").path
        args = [
            "gate",
            "--bundle",
            bundle,
            "--predictions",
            bad,
            "--out",
            sandbox.tmp / "gate-report",
        ]
    else:
        args = ["view", bad, "--check"] if reader == "view" else ["promote", bad]
    before, around = tree(sample.root), sandbox.outside()
    result = run(sandbox, *args, store=sample)
    if reader == "promote":  # a batch: the record is rejected, the summary says why
        assert result.exit_code == 2 and "Traceback" not in result.stderr + result.stdout
        assert "line 1: nested deeper than 64 levels" in result.stdout
        assert tree(sample.root) == before and sandbox.outside() == around
    else:
        assert_refused(
            result,
            says="nested deeper than 64 levels",
            store=sample,
            store_before=before,
            sandbox=sandbox,
            outside_before=around,
        )


def test_json_over_the_size_limit_is_refused_before_it_is_read(sandbox, fresh_store):
    _set_limits(fresh_store, "max_json_mb = 1")
    big = sandbox.inputs / "big.json"
    big.write_text(_thread(message='"' + "word " * 400_000 + '"'))
    before, around = tree(fresh_store.root), sandbox.outside()
    result = run(sandbox, "import", big, store=fresh_store)
    assert_refused(
        result,
        says="over the limit of 1 MB (raise [limits] max_json_mb",
        store=fresh_store,
        store_before=before,
        sandbox=sandbox,
        outside_before=around,
    )


def _set_limits(store: Store, *lines: str) -> None:
    config = store.root / "curator.toml"
    config.write_text(config.read_text() + "\n[limits]\n" + "\n".join(lines) + "\n")


def _sparse(path: Path, size: int) -> Path:
    with open(path, "wb") as handle:
        handle.truncate(size)  # 1 GB that takes no disk
    return path


def _special_files(inputs: Path) -> dict[str, tuple[Path, str]]:
    os.mkfifo(inputs / "pipe.json")
    (inputs / "zero.pdf").symlink_to("/dev/zero")
    (inputs / "folder.pdf").mkdir()
    (inputs / "empty.pdf").write_bytes(b"")
    (inputs / "blank.jsonl").write_bytes(b"\n  \n")
    return {
        "sparse-1gb-pdf": (_sparse(inputs / "sparse.pdf", GB), "over the limit of 256 MB"),
        "sparse-1gb-jsonl": (_sparse(inputs / "sparse.jsonl", GB), "over the limit of 32 MB"),
        "fifo": (inputs / "pipe.json", "not a regular file"),
        "char-device": (inputs / "zero.pdf", "not a regular file"),
        "folder-named-pdf": (
            inputs / "folder.pdf",
            "no .json, .jsonl, .csv, .xml, .zip, .pdf, .png, .jpg or .tif files",
        ),
        "empty": (inputs / "empty.pdf", "empty file"),
        "blank-lines": (inputs / "blank.jsonl", "empty file"),
    }


SPECIAL = [
    "sparse-1gb-pdf",
    "sparse-1gb-jsonl",
    "fifo",
    "char-device",
    "folder-named-pdf",
    "empty",
    "blank-lines",
]


@pytest.mark.parametrize("case", SPECIAL)
def test_files_that_are_huge_endless_or_no_files(sandbox, fresh_store, case):
    path, says = _special_files(sandbox.inputs)[case]
    before, around = tree(fresh_store.root), sandbox.outside()
    result = run(sandbox, "import", path, store=fresh_store)
    assert_refused(
        result,
        says=says,
        store=fresh_store,
        store_before=before,
        sandbox=sandbox,
        outside_before=around,
    )


# ---------------------------------------------------------------- PDFs and images


def _pdf(objects: list[bytes]) -> bytes:
    """A PDF from numbered object bodies (1: catalog, 2: pages, ...), with a valid xref."""
    out = io.BytesIO()
    out.write(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(
        b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    )
    return out.getvalue()


def _image_pdf(width: int, height: int) -> bytes:
    """One page showing an image whose dictionary says width x height RGB: a few hundred
    bytes that would take width x height x 4 bytes to render."""
    data = zlib.compress(bytes(1024))
    return _pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << "
            b"/Im 5 0 R >> >> /Contents 4 0 R >>",
            b"<< /Length 32 >>\nstream\nq 612 0 0 792 0 0 cm /Im Do Q   \nendstream",
            b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB "
            b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n"
            % (width, height, len(data))
            + data
            + b"\nendstream",
        ]
    )


def _many_pages(count: int) -> bytes:
    kids = b" ".join(b"3 0 R" for _ in range(count))  # one page object, listed `count` times
    return _pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % count,
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
        ]
    )


def _png_header_only(width: int, height: int) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(64)))
        + chunk(b"IEND", b"")
    )


def _locked_pdf() -> bytes:
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(612, 792)
    writer.encrypt("s3cret")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _gif() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("L", (8, 8), 255).save(out, "GIF")
    return out.getvalue()


DOCUMENTS = {
    "pdf-image-50000x50000": ("bomb.pdf", lambda: _image_pdf(50_000, 50_000), "decodes to 9537 MB"),
    "pdf-6000-pages": (
        "pages.pdf",
        lambda: _many_pages(6000),
        "6000 pages is over the limit of 5000",
    ),
    "pdf-password": ("locked.pdf", _locked_pdf, "password-protected"),
    "png-100000x100000": ("bomb.png", lambda: _png_header_only(100_000, 100_000), "decodes to"),
    "gif-named-png": ("picture.png", _gif, "a GIF image"),
    "text-named-jpg": ("notes.jpg", lambda: b"meeting notes, not a picture\n", "not a readable"),
    "truncated-png": ("cut.png", lambda: _png_header_only(64, 64)[:40], "not a readable"),
}


@pytest.mark.parametrize("case", DOCUMENTS, ids=list(DOCUMENTS))
def test_documents_that_would_take_all_the_memory_are_refused_first(sandbox, fresh_store, case):
    name, make, says = DOCUMENTS[case]
    source = sandbox.inputs / name
    source.write_bytes(make())
    before, around = tree(fresh_store.root), sandbox.outside()
    result = run(sandbox, "import", source, store=fresh_store)
    assert_refused(
        result,
        says=says,
        store=fresh_store,
        store_before=before,
        sandbox=sandbox,
        outside_before=around,
    )


def test_a_tiff_with_more_frames_than_the_limit_is_refused(sandbox, fresh_store):
    from PIL import Image

    _set_limits(fresh_store, "max_pages = 3")
    frames = [Image.new("L", (32, 32), 255) for _ in range(4)]
    source = sandbox.inputs / "scan.tif"
    frames[0].save(source, save_all=True, append_images=frames[1:])
    before = tree(fresh_store.root)
    result = run(sandbox, "import", source, store=fresh_store)
    assert_refused(
        result,
        says="4 pages is over the limit of 3 (raise [limits] max_pages",
        store=fresh_store,
        store_before=before,
    )


def test_a_page_of_14400_points_is_read_within_the_memory_bound(sandbox, fresh_store):
    """200 x 200 inches, 1.3 KB: at 300 dpi 3.6 billion pixels. Rendered within the pixel
    budget instead (a blank page: no text, so the import refuses it for having none or
    imports it; either way fast and small)."""
    from curator.limits import DOCUMENT_MEMORY_MB

    source = sandbox.inputs / "poster.pdf"
    source.write_bytes(
        _pdf(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 14400 14400] >>",
            ]
        )
    )
    assert len(source.read_bytes()) < 2000
    result = run(sandbox, "import", source, "--json", store=fresh_store)
    assert result.exit_code in (0, 2) and "Traceback" not in result.stderr, result
    assert result.peak_mb < DOCUMENT_MEMORY_MB, result.peak_mb
    if result.exit_code == 0:
        assert "too large to OCR whole; read at" in result.stderr


def test_a_corrupt_pdf_error_quotes_nothing_from_the_file(sandbox, fresh_store):
    source = sandbox.inputs / "broken.pdf"
    source.write_bytes(
        b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages Jane_Planted_Doe >> endobj\ntrailer\n"
        b"<< /Root 1 0 R >>\n%%EOF\n"
    )
    result = run(sandbox, "import", source, store=fresh_store)
    assert_refused(result, says="broken.pdf")
    assert "Planted" not in result.stderr


def test_a_sandbox_is_really_empty(sandbox: Sandbox):
    """The outside-the-store check compares real folders: nothing in them to begin with."""
    assert sandbox.outside() == {"cwd": {}, "tmp": {}, "inputs": {}}
