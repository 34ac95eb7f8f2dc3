"""Bundles made to hurt the reader: links, devices, paths out of the folder, decompression
bombs. `bundle verify`, `bundle diff` and `curator.bundle.load` refuse them all, fast."""

from __future__ import annotations

import gzip
import io
import os
import tarfile
from pathlib import Path

import pytest

import curator.bundle
from curator.errors import CuratorError
from tests.conftest import copy_sample_store
from tests.hostile.conftest import assert_refused, run

MB = 1 << 20


@pytest.fixture(scope="module")
def real_archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from curator.bundle.build import build_bundle

    store = copy_sample_store(tmp_path_factory.mktemp("built") / "store")
    build_bundle(store, "1.0.0", formats="jsonl,mattermost", archive=True)
    return store.bundles_dir / "1.0.0.tar.gz"


def members_of(archive: Path) -> list[tuple[tarfile.TarInfo, bytes | None]]:
    with tarfile.open(archive, "r:gz") as tar:
        return [(m, tar.extractfile(m).read() if m.isfile() else None) for m in tar.getmembers()]


def write_archive(path: Path, members: list[tuple[tarfile.TarInfo, bytes | None]]) -> Path:
    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for info, data in members:
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return path


def entry(
    name: str, kind: bytes = tarfile.REGTYPE, data: bytes | None = None, **fields: object
) -> tuple:
    info = tarfile.TarInfo(name)
    info.type = kind
    if data is not None:
        info.size = len(data)
    for key, value in fields.items():
        setattr(info, key, value)
    return info, data


HOSTILE_MEMBERS = {
    "hard-link": (entry("1.0.0/passwd", tarfile.LNKTYPE, linkname="/etc/passwd"), "hard link"),
    "symlink": (entry("1.0.0/etc", tarfile.SYMTYPE, linkname="/etc"), "symbolic link"),
    "char-device": (entry("1.0.0/null", tarfile.CHRTYPE, devmajor=1, devminor=3), "device"),
    "fifo": (entry("1.0.0/pipe", tarfile.FIFOTYPE), "device or FIFO"),
    "absolute": (entry("/tmp/curator-escape.json", data=b"{}"), "absolute or '..'"),
    "dot-dot": (entry("1.0.0/a/../../x.json", data=b"{}"), "absolute or '..'"),
    "outside-folder": (entry("other/x.json", data=b"{}"), "outside the bundle's folder"),
    "duplicate": (entry("1.0.0/manifest.json", data=b"{}"), "twice"),
}


@pytest.mark.parametrize("case", HOSTILE_MEMBERS, ids=list(HOSTILE_MEMBERS))
def test_an_archive_with_a_hostile_member_is_refused_whole(sandbox, real_archive, case):
    member, says = HOSTILE_MEMBERS[case]
    archive = write_archive(sandbox.inputs / "1.0.0.tar.gz", [*members_of(real_archive), member])
    around = sandbox.outside()
    for command in (["bundle", "verify", archive], ["bundle", "diff", real_archive, archive]):
        assert_refused(run(sandbox, *command), says=says, sandbox=sandbox, outside_before=around)
    with pytest.raises(CuratorError, match=says.replace("(", r"\(").replace(")", r"\)")):
        list(curator.bundle.load(archive))
    assert not Path("/tmp/curator-escape.json").exists()


def _bomb(path: Path, declared: int, chunk_mb: int = 16) -> Path:
    """A .tar.gz whose manifest.json is `declared` bytes of zeros: a few MB on disk. Written
    as many gzip members (decompressed back to back), so making it costs no time."""
    info = tarfile.TarInfo("1.0.0/manifest.json")
    info.size = declared
    head = tarfile.TarInfo("1.0.0")
    head.type = tarfile.DIRTYPE
    chunk = gzip.compress(bytes(chunk_mb * MB), compresslevel=9)
    with open(path, "wb") as out:
        out.write(gzip.compress(head.tobuf() + info.tobuf()))
        for _ in range(declared // (chunk_mb * MB)):
            out.write(chunk)
    return path


@pytest.mark.parametrize(
    "declared_mb, says",
    [
        (2200, "over the limit of 2048 MB"),  # refused from its header, before one byte is inflated
        (1500, "a gzip bomb"),  # within the size limit: refused by the compression ratio
    ],
)
def test_a_gzip_bomb_fails_fast_in_little_memory(sandbox, declared_mb, says):
    archive = _bomb(sandbox.inputs / "bomb.tar.gz", declared_mb * MB)
    assert archive.stat().st_size < 4 * MB
    around = sandbox.outside()
    result = run(sandbox, "bundle", "verify", archive)
    assert_refused(result, says=says, sandbox=sandbox, outside_before=around)
    with pytest.raises(CuratorError, match=says):
        list(curator.bundle.load(archive))


def test_a_huge_tar_header_is_refused(sandbox, real_archive):
    """A pax header is read whole by tarfile before any member is seen: bounded too."""
    info = tarfile.TarInfo("1.0.0/manifest.json")
    info.pax_headers = {"comment": "x" * (64 * MB)}
    info.size = 2
    archive = write_archive(sandbox.inputs / "1.0.0.tar.gz", [(info, b"{}")])
    result = run(sandbox, "bundle", "verify", archive)
    assert_refused(result, says="more data than its tar headers declare")


@pytest.mark.parametrize("damage", ["not-gzip", "truncated", "garbage-after-gzip-header"])
def test_a_damaged_archive_is_one_line(sandbox, real_archive, damage):
    data = real_archive.read_bytes()
    broken = {
        "not-gzip": b"not an archive at all\n" * 10,
        "truncated": data[: len(data) // 2],
        "garbage-after-gzip-header": data[:10] + os.urandom(2000),
    }[damage]
    archive = sandbox.inputs / "1.0.0.tar.gz"
    archive.write_bytes(broken)
    assert_refused(run(sandbox, "bundle", "verify", archive), says="1.0.0.tar.gz")


def test_a_bundle_folder_with_a_link_or_fifo_is_refused(sandbox, tmp_path, real_archive):
    for name, make in {"link": lambda p: p.symlink_to("/etc/passwd"), "fifo": os.mkfifo}.items():
        folder = tmp_path / name / "1.0.0"
        with tarfile.open(real_archive, "r:gz") as tar:
            tar.extractall(tmp_path / name, filter="data")
        make(folder / "extra.json")
        says = "symbolic link" if name == "link" else "not a regular file"
        assert_refused(run(sandbox, "bundle", "verify", folder), says=says)
        with pytest.raises(CuratorError, match=says):
            list(curator.bundle.load(folder))


def test_load_checks_every_hash_before_returning_data(tmp_path, real_archive):
    members = members_of(real_archive)
    tampered = []
    for info, data in members:
        if info.name.endswith("fixtures.jsonl"):
            data = data.replace(b'"active"', b'"retired"', 1)
            info.size = len(data)
        tampered.append((info, data))
    archive = write_archive(tmp_path / "1.0.0.tar.gz", tampered)
    with pytest.raises(CuratorError, match="does not match the manifest"):
        next(curator.bundle.load(archive))
    assert [item.id for item in curator.bundle.load(real_archive)]  # the untouched one loads


def test_a_real_bundle_is_far_from_the_ratio_limit(real_archive):
    """What the limit's default is chosen against: built bundles compress about 3 to 1 (a
    2,000-fixture benchmark store: 3.3), gzip bombs about 1000 to 1."""
    from curator.limits import DEFAULT

    with tarfile.open(real_archive, "r:gz") as tar:
        inflated = sum(member.size for member in tar.getmembers())
    assert inflated / real_archive.stat().st_size < DEFAULT.max_compression_ratio / 20
