"""VERSION.tar.gz with fixed metadata, so the same bundle always gives the same archive hash.

Entries sorted by path under one top-level folder named after the version, mtime 0,
owner root:root (uid/gid 0, no names), modes 0644/0755, gzip header mtime 0 and no name.
"""

from __future__ import annotations

import gzip
import io
import tarfile
from pathlib import Path

from curator import atomic

_FILE_MODE = 0o644
_DIR_MODE = 0o755


def archive_bytes(directory: Path, top: str) -> bytes:
    entries = sorted(directory.rglob("*"), key=lambda p: p.relative_to(directory).as_posix())
    raw = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=6) as zipped:
        with tarfile.open(fileobj=zipped, mode="w", format=tarfile.GNU_FORMAT) as tar:
            tar.addfile(_info(top, directory=True))
            for path in entries:
                name = f"{top}/{path.relative_to(directory).as_posix()}"
                if path.is_dir():
                    tar.addfile(_info(name, directory=True))
                else:
                    data = path.read_bytes()
                    info = _info(name, directory=False)
                    info.size = len(data)
                    tar.addfile(info, io.BytesIO(data))
    return raw.getvalue()


def _info(name: str, *, directory: bool) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = tarfile.DIRTYPE if directory else tarfile.REGTYPE
    info.mode = _DIR_MODE if directory else _FILE_MODE
    info.mtime = 0
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    return info


def write_archive(directory: Path, target: Path, top: str) -> None:
    """Write the archive next to `target` and rename it into place (atomic)."""
    atomic.write_bytes(target, archive_bytes(directory, top))
