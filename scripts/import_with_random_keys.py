"""Import the example threads into fresh stores, each with a new random vault key, and count
the imports the anonymiser refused.

Pseudonyms are drawn from the key, so a collision between one import's pseudonyms and the
next import's originals shows only with some keys: this is how "about one key in 40" was
found and how its fix was checked. The second thread is imported on its own, into the store
the first one filled, as a user would bring them in.

    python scripts/import_with_random_keys.py            # 25 keys
    python scripts/import_with_random_keys.py --keys 200
"""

from __future__ import annotations

import argparse
import base64
import os
import secrets
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from curator.errors import CuratorError  # noqa: E402
from curator.ingest.api import import_sources  # noqa: E402
from curator.store import Store  # noqa: E402

THREADS = [
    REPO / "examples" / "threads" / name
    for name in ("lease-question.json", "maintenance-channel.json")
]


def refusal(key: bytes) -> str | None:
    """The first refusal importing THREADS one by one with vault key `key`, or None."""
    os.environ["CURATOR_VAULT_KEY"] = base64.b64encode(key).decode()
    with tempfile.TemporaryDirectory(prefix="curator-keys-") as folder:
        store = Store.init(Path(folder) / "store")
        for thread in THREADS:
            try:
                import_sources(store, [thread])
            except CuratorError as error:
                return str(error)
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=25, help="how many random keys to try")
    args = parser.parse_args()
    refused = 0
    for _ in range(args.keys):
        key = secrets.token_bytes(32)
        error = refusal(key)
        if error is not None:
            refused += 1
            print(f"key {base64.b64encode(key).decode()}: {error}")
    print(f"{refused} of {args.keys} random keys refused an import")
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
