"""Import each real-shaped input into its own fresh store and report what survives.

    CURATOR_CORPUS=/path/to/shared/corpus python tests/data/import_survivors.py [--only SUBSTRING]

For every shared-corpus file, hand-made Mattermost export and chat log: run the real
`curator import` (a subprocess, this checkout's code) into a new temporary store, then print
whether it was refused (with curator's one-line reason), which listed people / originals are
still in the store (fixture.json, content.json with attachments decoded, labels.jsonl), and
what `curator audit` says. A baseline for issue 12, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.corpus import CORPUS_DIR  # noqa: E402
from tests.data.chat import make_chat  # noqa: E402
from tests.data.corpus_people import CORPUS_PEOPLE, mentioned  # noqa: E402

DATA = Path(__file__).resolve().parent


def curator(store: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO), "OMP_THREAD_LIMIT": "1"}
    return subprocess.run(
        [sys.executable, "-m", "curator", "--store", str(store), *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


def store_text(store: Path) -> str:
    """Every fixture file of the store as text, with base64 attachments decoded."""
    parts = []
    for path in sorted(store.glob("*/*/*")):
        if path.parts[-3] not in ("goldens", "adversarial") or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        parts.append(text)
        if path.name == "content.json":
            files = json.loads(text).get("content", {}).get("export", {}).get("files", {})
            for payload in files.values():
                parts.append(decode(payload))
    return "\n".join(parts)


def decode(payload: str) -> str:
    compact = re.sub(r"\s", "", payload).replace("-", "+").replace("_", "/")
    try:
        raw = base64.b64decode(compact + "=" * (-len(compact) % 4))
    except (binascii.Error, ValueError):
        return payload
    for codec in (
        ("utf-16", "utf-8") if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else ("utf-8", "latin-1")
    ):
        try:
            return raw.decode(codec)
        except UnicodeDecodeError:
            continue
    return ""


def word_survives(value: str, text: str) -> bool:
    return (
        re.search(r"(?<![^\W_])" + re.escape(value) + r"(?![^\W_])", text, re.IGNORECASE)
        is not None
    )


def sources(tmp: Path) -> list[tuple[Path, list[str], str]]:
    """(source, originals to look for, how to match) for every input."""
    out: list[tuple[Path, list[str], str]] = []
    for name in sorted(CORPUS_PEOPLE):
        folder = "images" if name.endswith((".png", ".jpg")) else "pdfs"
        out.append((CORPUS_DIR / folder / name, CORPUS_PEOPLE[name], "squashed"))
    for originals in sorted((DATA / "mattermost").glob("*.originals.json")):
        facts = json.loads(originals.read_text(encoding="utf-8"))
        values = [v for kind, vs in facts["originals"].items() if kind != "ids" for v in vs]
        out.append((originals.parent / facts["export"], values, "word"))
    chat = tmp / "chat-1500.jsonl"
    chat.write_text(make_chat.dump(make_chat.messages()), encoding="utf-8")
    out.append((chat, make_chat.originals(), "word"))
    numeric = json.loads((DATA / "chat" / "numeric-ids.originals.json").read_text(encoding="utf-8"))
    out.append(
        (
            DATA / "chat" / "numeric-ids.jsonl",
            [v for vs in numeric["originals"].values() for v in vs],
            "word",
        )
    )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="only sources whose name contains this")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        for source, originals, how in sources(tmp):
            if args.only and args.only not in source.name:
                continue
            store = tmp / f"store-{source.stem}"
            curator(store.parent, "init", str(store))
            done = curator(store, "import", str(source))
            if done.returncode != 0:
                reason = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
                print(f"{source.name}: REFUSED (exit {done.returncode}) {reason}")
                continue
            text = store_text(store)
            match = mentioned if how == "squashed" else word_survives
            left = [value for value in originals if match(value, text)]
            audit = curator(store, "audit", "--json")
            try:
                leaks = len(json.loads(audit.stdout)["leaks"])
            except (ValueError, KeyError):
                leaks = -1
            print(
                f"{source.name}: imported; {len(left)}/{len(originals)} listed survive"
                f"{': ' + ', '.join(left) if left else ''}; audit exit {audit.returncode}, "
                f"{leaks} leak(s)"
            )
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
