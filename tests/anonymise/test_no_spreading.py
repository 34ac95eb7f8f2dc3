"""No spreading: words one source taught the vault never reach the structure of later ones.

One store imports a chatbot transcript (authors `user` and `assistant`), then a Federal
Register-like notice ("[FR Doc. ...", "MAX Display", synthetic, two pages), then Mattermost
threads and a synthetic lease. Every later fixture keeps its keys and its posts their authors;
then every mutation kind `curator mutate` offers is applied to every fixture it applies to,
and `curator audit` is clean and `bundle build` succeeds with no keep terms (the issue saw
`user_id` renamed `ewing_id`, `doc_type` / `display_name` flagged as 41 leaks, and OCR noise
on a lease read as a person)."""

from __future__ import annotations

import hashlib
import json

from curator.model import CHAT_ROLES
from curator.mutate.registry import options
from tests.anonymise.synth import member_names
from tests.conftest import run_cli
from tests.ingest.conftest import EXAMPLES, generate

CHATBOT = [
    {"author": "user", "text": "Hi! Can you help me plan a trip in March?", "time": 1},
    {"author": "assistant", "text": "Of course. Where would you like to go?", "time": 2},
    {"author": "user", "text": "Somewhere warm, with a beach.", "time": 3},
]
REGISTER_PAGE = [
    "Federal Register / Vol. 89, No. 2 / Wednesday, January 3, 2024 / Notices",
    "Table 2. MAX Display units reported by region",
    "The agency received no comments on the proposed collection.",
    "[FR Doc. 2024-01234 Filed 1-2-24; 8:45 am]",
    "BILLING CODE 4510-26-P",
]
THREADS = sorted((EXAMPLES / "threads").glob("*.json"))
LEASE = EXAMPLES / "pdfs" / "lease-birch.pdf"  # a doc type with labels: bilingual, contradict
# every mutation kind, with the fixtures it applies to ("all", or the source's name)
MUTATIONS = [
    (("--truncate", "0.5"), "all"),
    (("--ocr-noise", "0.1"), "all"),
    (("--ocr-noise", "0.1", "--noise-values"), "all"),
    (("--pages", "1"), "register-notice.pdf"),
    (("--ocr-noise", "0.05", "--render"), "register-notice.pdf"),
    (("--bilingual", "fr"), LEASE.name),
    (("--contradict", "monthly_rent", "--amendment-first"), LEASE.name),
]


def test_words_learned_from_one_source_never_reach_the_keys_of_later_ones(tmp_path, monkeypatch):
    monkeypatch.setenv("CURATOR_VAULT_KEY", "bm8gc3ByZWFkaW5nIGZyb20gb25lIHNvdXJjZSEhIQ==")
    root = tmp_path / "store"
    assert run_cli("init", str(root)).exit_code == 0
    bot = tmp_path / "chatbot.jsonl"
    bot.write_text("\n".join(json.dumps(line) for line in CHATBOT) + "\n", encoding="utf-8")
    page = tmp_path / "register-notice.pdf"
    page.write_bytes(generate.text_pdf([REGISTER_PAGE, REGISTER_PAGE[::-1]]))
    rubric = ("--rubric", "The answer says what the text asks for.")
    imported: dict[str, str] = {}
    for source in (bot, page, *THREADS, LEASE):
        run = run_cli("import", str(source), *rubric, "--json", store=root)
        assert run.exit_code == 0, run.stderr
        [made] = json.loads(run.stdout)["created"]
        imported[source.name] = made["id"]

    vault = json.loads((root / ".curator" / "vault.json").read_text(encoding="utf-8"))
    assert not CHAT_ROLES & {entry[1].casefold() for entry in vault["entries"]}
    for source in THREADS:
        raw = json.loads(source.read_text(encoding="utf-8"))
        [stored] = [
            json.loads(path.read_text(encoding="utf-8"))["content"]["export"]
            for path in (root / "goldens").glob("*/content.json")
            if _source_of(path) == hashlib.sha256(source.read_bytes()).hexdigest()
        ]
        assert member_names(stored) == member_names(raw), source.name
        authored = sum(post["user_id"] in raw["users"] for post in raw["posts"].values())
        assert sum(p["user_id"] in stored["users"] for p in stored["posts"].values()) == authored

    assert run_cli("status", "--to", "active", "--where", "status=draft", store=root).exit_code == 0
    for given, applies_to in MUTATIONS:
        for name, fixture_id in imported.items():
            if applies_to in ("all", name):
                made = run_cli("mutate", fixture_id, *given, "--seed", "3", store=root)
                assert made.exit_code == 0, (given, name, made.stderr)

    audit = run_cli("audit", store=root)
    assert audit.exit_code == 0 and "no leaks found" in audit.stdout, audit.stdout
    build = run_cli("bundle", "build", "1.0.0", store=root)  # no keep terms anywhere
    assert build.exit_code == 0, build.stderr


def test_every_mutation_kind_is_applied():
    given = {flag for flags, _ in MUTATIONS for flag in flags if flag.startswith("--")}
    assert {option.flag for _, option in options()} <= given


def _source_of(content_path) -> str:
    fixture = json.loads((content_path.parent / "fixture.json").read_text(encoding="utf-8"))
    return fixture["provenance"]["source_sha256"]
