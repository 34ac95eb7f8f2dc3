"""The one place curator reads the wall clock.

SOURCE_DATE_EPOCH (the reproducible-builds convention) pins "now", so the same inputs
give byte-identical fixtures and bundles in CI and in `make demo`.
"""

import os
from datetime import UTC, datetime


def now() -> datetime:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        return datetime.fromtimestamp(int(epoch), tz=UTC)
    return datetime.now(tz=UTC).replace(microsecond=0)


def now_iso() -> str:
    return iso(now())


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
