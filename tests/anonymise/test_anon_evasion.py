"""Evasion (issue 28): personal data hidden behind characters a reader does not see or cannot
tell apart is found and rewritten all the same, and found by the audit when planted by hand.

Each phenomenon: zero-width characters, word joiners and soft hyphens inside a name or
between digit groups, Cyrillic look-alike letters, full-width digits, decomposed accents,
markdown splitting a name, a non-breaking space or a line break before an unlisted or
hyphenated surname, a word hyphenated at a line break, e-mail addresses spelled out. They
are put in chat messages, a Mattermost attachment, a PDF's text layer and file names; after
import nothing of them survives anywhere in the store or its bundle, ids included. Names are
synthetic.
"""

from __future__ import annotations

import base64
import io
import json
import re
import unicodedata
from pathlib import Path

import pytest

from curator.anonymise import Vault, anonymise_text, find_leaks
from curator.anonymise.normal_view import IGNORABLE, confusable_letters, view_of, view_text
from curator.store import Store
from tests.conftest import run_cli, snapshot
from tests.ingest.conftest import EXAMPLES

ZWSP, WJ, SHY, NBSP = "\u200b", "\u2060", "\u00ad", "\u00a0"
CYR_E, CYR_A = "\u0435", "\u0430"
ACUTE = "\u0301"
VAULT_KEY = "ZXZhc2lvbiB0ZXN0cyBvZiBpc3N1ZSAyOCEhISEhISE="
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def wide(text: str) -> str:
    """Digits written full-width, as some keyboards and OCR engines produce them."""
    return "".join(chr(ord(c) + 0xFEE0) if c.isdigit() else c for c in text)


# phenomenon -> (text hiding the value, what of it must not survive, read case-insensitively in
# the normalised view of the result, digits also with separators removed)
PHENOMENA: dict[str, tuple[str, list[str]]] = {
    "zero-width space in a name": (
        f"Ask Harr{ZWSP}ison Hea{ZWSP}ley, he knows.",
        ["harrison", "healey"],
    ),
    "word joiner and soft hyphen in a name": (
        f"Ask Harr{WJ}ison Hea{SHY}ley, he knows.",
        ["harrison", "healey"],
    ),
    "Cyrillic look-alikes": (f"J{CYR_E}sse H{CYR_A}llam signed it yesterday.", ["jesse", "hallam"]),
    "zero-width spaces between card digits": (
        f"Card 4111{ZWSP}1111{ZWSP}1111{ZWSP}1111 on file.",
        ["4111111111111111"],
    ),
    "full-width card digits": (
        f"Card {wide('4111 1111 1111 1111')} on file.",
        ["4111111111111111"],
    ),
    "full-width SSN": (f"SSN {wide('078-05-1120')} on file.", ["078051120"]),
    "zero-width spaces in a phone": (f"Call +44{ZWSP}7911{ZWSP}204877 now.", ["447911204877"]),
    "full-width phone": (f"Call {wide('(217) 482-7731')} now.", ["2174827731"]),
    "word joiners in an IBAN": (
        f"IBAN DE89{WJ} 3704{WJ} 0044 0532 0130 00 for the deposit.",
        ["de89370400440532013000"],
    ),
    "zero-width space in an e-mail domain": (
        f"Mail jesse@hall{ZWSP}am-family.com today.",
        ["hallam-family", "hallamfamily"],
    ),
    "full-width e-mail domain": (
        "Mail jesse@\uff48\uff41\uff4c\uff4c\uff41\uff4d-family.com today.",
        ["hallam-family", "hallamfamily"],
    ),
    "decomposed accent": (f"Dr. Ferna{ACUTE}ndez Quispe will sign.", ["fernandez", "quispe"]),
    "markdown inside a name": ("Thanks Harrison **Hea**ley for the fix.", ["harrison", "healey"]),
    "non-breaking space before a hyphenated surname": (
        f"Thanks Harrison{NBSP}Kowalczyk-Brandt for the fix.",
        ["harrison", "kowalczyk", "brandt"],
    ),
    "line break before an unlisted surname": (
        "Signed by Harrison\nKowalczyk for the team.",
        ["harrison", "kowalczyk"],
    ),
    "word hyphenated at a line break": (
        "The lease was drafted by Harrison Hea-\nley of the firm.",
        ["harrison", "healey"],
    ),
    "e-mail spelled out": (
        "Write to harrison dot healey at gmail dot com please.",
        ["harrison", "healey"],
    ),
    "e-mail with [at]": ("Write to wendelin [at] wendelin-family.com please.", ["wendelin"]),
    "e-mail with (at) and (dot)": ("Write to wendelin(at)wendelin-family(dot)com.", ["wendelin"]),
}


def survivors(text: str, secrets: list[str]) -> list[str]:
    """The secrets a reader still finds in `text` (its normalised view, any case; digits and
    words also run together)."""
    seen = unicodedata.normalize("NFKD", view_text(text).casefold())
    seen = "".join(c for c in seen if not unicodedata.combining(c))
    squashed = re.sub(r"[\W_]+", "", seen)
    return [s for s in secrets if s in seen or re.sub(r"[\W_]+", "", s) in squashed]


# ------------------------------------------------------------------ the view itself


@pytest.mark.parametrize(
    ("text", "reads"),
    [
        (f"Harr{ZWSP}ison Hea{SHY}ley", "Harrison Healey"),
        (f"J{CYR_E}sse H{CYR_A}llam", "Jesse Hallam"),
        ("\u0408\u0435\u0455\u0455\u0435 Hallam", "Jesse Hallam"),  # all Cyrillic, Capitalised
        (wide("4111 1111"), "4111 1111"),
        (f"Ferna{ACUTE}ndez", "Fern\u00e1ndez"),
        ("Thanks **Hea**ley, Hea~~ley~~ and _Hea_ley", "Thanks Healey, Healey and Healey"),
        ("Hea-\nley and Jean-\nPierre", "Healey and Jean-Pierre"),
        (f"Harrison{NBSP}Healey", "Harrison Healey"),
        ("first dot last at example dot com", "first.last@example.com"),
        ("name [at] example.com", "name@example.com"),
    ],
)
def test_the_view_reads_what_a_person_reads(text, reads):
    view = view_of(text)
    assert view is not None and view.text == reads
    assert view.span(0, len(view.text)) == (0, len(text))  # every original character covered


def test_a_span_of_the_view_covers_the_hidden_characters_inside_it_and_only_those():
    text = f"Ask Harr{ZWSP}ison{ZWSP} now"
    view = view_of(text)
    assert view is not None
    start = view.text.index("Harrison")
    assert view.span(start, start + len("Harrison")) == (4, 13)  # the inner ZWSP, not the outer
    assert text[4:13] == f"Harr{ZWSP}ison"


@pytest.mark.parametrize(
    "text",
    [
        "Plain text with nothing to fold: user_id, doc_type, 3*4, a-b.",
        "look at example.com and meet at noon",  # a plain "at" spells no address
        "\u0412\u0435\u0440\u0430 \u043f\u043e\u0448\u043b\u0430 \u0434\u043e\u043c\u043e\u0439",
        "\u039c\u03b5\u03b3\u03ac\u03bb\u03b7 \u0386\u03bc\u03bc\u03bf\u03c2 "
        "\u03a0\u0391\u03a6\u039f\u03a3",
        "Mr. Owens grew up in \u039c\u0391\u039a\u039f\u03a5\u039d\u03a4\u0391.",  # a place
        "Calle Serrano 45, 5\u00ba A, 28001 Madrid; 12 m\u00b2; \u00bd",  # they mean something
    ],
)
def test_a_text_that_reads_as_written_has_no_view(text):
    assert view_of(text) is None


def test_every_format_character_is_ignorable():
    format_characters = [chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) == "Cf"]
    assert [f"U+{ord(c):04X}" for c in format_characters if not IGNORABLE.fullmatch(c)] == []


def test_look_alikes_come_from_the_unicode_confusables_data():
    table = confusable_letters()
    assert table[CYR_E] == ("e", "CYRILLIC") and table["\u0391"] == ("A", "GREEK")
    assert "\u00e9" not in table and "\u0131" not in table  # Latin letters are no disguise


# ------------------------------------------------------------------ rewriter and audit


@pytest.fixture
def vault() -> Vault:
    return Vault(b"evasion tests, one vault per test")


@pytest.mark.parametrize("name", PHENOMENA)
def test_the_rewriter_leaves_nothing_of_a_hidden_value(name, vault):
    text, secrets = PHENOMENA[name]
    out = anonymise_text(text, vault)
    assert survivors(out, secrets) == [], out
    assert IGNORABLE.search(out) is None, out  # the hidden characters went with the value


@pytest.mark.parametrize("name", PHENOMENA)
def test_the_audit_finds_a_hidden_value_whole(name, vault):
    text, secrets = PHENOMENA[name]
    leaks = find_leaks([("note", text)], vault)
    assert leaks, name
    flagged = " ".join(leak.text for leak in leaks)
    assert survivors(flagged, secrets) == secrets, leaks
    for leak in leaks:  # a leak's offsets are the original's, hidden characters included
        assert text[leak.start : leak.end] == leak.text


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Thanks Harrison\nMeeting notes follow.", "\nMeeting notes follow."),
        ("Ask Harrison\nLondon office is closed.", "\nLondon office is closed."),
        ("Harrison\nAttendees: present", "Attendees: present"),  # a label opens the line
    ],
)
def test_a_line_break_joins_a_name_only_before_a_surname_the_sentence_goes_on_after(
    text, kept, vault
):
    assert anonymise_text(text, vault).endswith(kept)


def test_a_hidden_name_gets_the_pseudonym_of_the_plain_one(vault):
    plain = anonymise_text("Ask Harrison Healey, he knows.", vault)
    hidden = anonymise_text(f"Ask Harr{ZWSP}ison Hea{ZWSP}ley, he knows.", vault)
    assert plain == hidden


# ------------------------------------------------------------------ a store, end to end

MESSAGES = [
    ("Harrison Healey", "Morning all, quick one about the renewal."),
    ("Jesse Hallam", "Thanks, looking at it now."),
    ("Wendelin Quispe", "I have the file."),
    *(("Jesse Hallam", text) for text, _ in PHENOMENA.values()),
]
SECRETS = sorted({s for _, secrets in PHENOMENA.values() for s in secrets} | {"quispe"})
ATTACHMENT = (
    f"Summary for Nath{ZWSP}aniel Phil{SHY}lips and H{CYR_E}ather Atkins:\n"
    f"card {wide('4111 1111 1111 1111')}, "
    f"IBAN DE89{ZWSP}3704{ZWSP}0044{ZWSP}0532{ZWSP}0130{ZWSP}00,\n"
    "reach nathaniel dot phillips at gmail dot com.\n"
)
ATTACHMENT_SECRETS = ["nathaniel", "phillips", "heather", "atkins", "4111111111111111"]
PDF_LINES = [
    f"Tenant: Harr{ZWSP}ison Hea{ZWSP}ley",
    f"Landlord: J{CYR_E}sse H{CYR_A}llam",
    f"Card 4111{ZWSP}1111{ZWSP}1111{ZWSP}1111",
    f"Witness: Dr. Ferna{ACUTE}ndez Quispe",
    f"Signed by Wen{SHY}delin Kowal{SHY}czyk",
    "The agreement was drafted by Harrison Hea-",
    "ley of the firm.",
    "Contact: wendelin [at] wendelin-family.com",
]


def text_pdf(lines: list[str]) -> bytes:
    """A PDF whose text layer holds the lines as written (a font with Cyrillic and accents)."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(TTFont("DejaVuSans", str(FONT)))
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=letter, invariant=1)
    pdf.setFont("DejaVuSans", 12)
    for k, line in enumerate(lines):
        pdf.drawString(72, 700 - 20 * k, line)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def thread_with_attachment() -> dict:
    export = json.loads((EXAMPLES / "threads" / "lease-question.json").read_text("utf-8"))
    file_id = sorted(export["files"])[0]
    export["files"][file_id] = base64.b64encode(ATTACHMENT.encode()).decode()
    export["file_infos"][file_id]["name"] = f"notes-Nath{ZWSP}aniel-Phil{SHY}lips.txt"
    export["file_infos"][file_id]["size"] = len(ATTACHMENT.encode())
    return export


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> Store:
    """One store: a chat log, a Mattermost thread with an attachment and a PDF, each hiding
    personal data (in file names too), imported and bundled with --strict-audit."""
    if not FONT.exists():
        pytest.skip(f"no {FONT} to write a PDF with Cyrillic and accents")
    base = tmp_path_factory.mktemp("evasion")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CURATOR_VAULT_KEY", VAULT_KEY)
        store = Store.init(base / "store")
        log = base / f"chat-Ferna{ACUTE}ndez-Kowal{ZWSP}czyk.jsonl"
        log.write_text(
            "".join(
                json.dumps(
                    {"author": a, "text": t, "time": f"2024-02-01T10:{k:02d}:00Z", "id": f"m{k}"}
                )
                + "\n"
                for k, (a, t) in enumerate(MESSAGES)
            ),
            encoding="utf-8",
        )
        thread = base / f"thread-H{CYR_E}ather-Atkins.json"
        thread.write_text(json.dumps(thread_with_attachment()), encoding="utf-8")
        pdf = base / f"lease-Harr{ZWSP}ison-Hea{SHY}ley.pdf"
        pdf.write_bytes(text_pdf(PDF_LINES))
        for source in (log, thread, pdf):
            run = run_cli("import", str(source), store=store.root)
            assert run.exit_code == 0, run.stderr
        run = run_cli(
            "bundle", "build", "1.0.0", "--status", "draft", "--strict-audit", store=store.root
        )
        assert run.exit_code == 0, run.stderr
    return store


def stored_texts(root: Path) -> list[tuple[str, str]]:
    """(path, text) of every file of the store and its bundles, its path included (ids, file
    names): JSON re-read so escapes show as characters, Parquet and Arrow read as tables."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    found = []
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        found.append((rel, rel))
        if not path.is_file() or ".curator" in path.relative_to(root).parts:
            continue
        if path.suffix == ".parquet":
            text = json.dumps(pq.read_table(path).to_pylist(), ensure_ascii=False, default=str)
        elif path.suffix == ".arrow":
            with pa.memory_map(str(path)) as source:
                table = pa.ipc.open_stream(source).read_all()
            text = json.dumps(table.to_pylist(), ensure_ascii=False, default=str)
        else:
            text = path.read_text(encoding="utf-8", errors="replace")
            if path.suffix in (".json", ".jsonl"):
                text = "\n".join(
                    json.dumps(json.loads(line), ensure_ascii=False)
                    for line in ([text] if path.suffix == ".json" else text.splitlines())
                    if line.strip()
                )
        found.append((rel, text))
    return found


def test_nothing_hidden_survives_an_import_anywhere_in_the_store_or_its_bundle(imported):
    texts = stored_texts(imported.root)
    assert any(rel.endswith(".parquet") for rel, _ in texts)
    assert len({rel for rel, _ in texts if rel.endswith("content.json")}) == 3
    left = {
        (rel, s)
        for rel, text in texts
        for s in survivors(text, [*SECRETS, *ATTACHMENT_SECRETS, "fernandez"])
    }
    assert left == set()


def test_an_evasive_import_audits_clean(imported):
    run = run_cli("audit", store=imported.root)
    assert run.exit_code == 0, run.stdout


# ------------------------------------------------------------------ planted after import


@pytest.fixture
def planted(tmp_path, monkeypatch) -> tuple[Store, list[tuple[str, str]]]:
    """An imported chat log whose messages then had each phenomenon appended by hand:
    (post id, the planted text)."""
    monkeypatch.setenv("CURATOR_VAULT_KEY", VAULT_KEY)
    store = Store.init(tmp_path / "store")
    log = tmp_path / "chat.jsonl"
    log.write_text(
        "".join(
            json.dumps({"author": a, "text": t, "time": f"2024-02-01T10:0{k}:00Z", "id": f"m{k}"})
            + "\n"
            for k, (a, t) in enumerate(MESSAGES[:3])
        ),
        encoding="utf-8",
    )
    run = run_cli("import", str(log), "--json", store=store.root)
    assert run.exit_code == 0, run.stderr
    fixture_id = json.loads(run.stdout)["created"][0]["id"]
    assert run_cli("audit", store=store.root).exit_code == 0
    path = store.directory(fixture_id) / "content.json"
    content = json.loads(path.read_text(encoding="utf-8"))
    posts = content["content"]["export"]["posts"]
    planted = []
    for (post_id, post), (text, _) in zip(
        sorted(posts.items()) * len(PHENOMENA), PHENOMENA.values(), strict=False
    ):
        post["message"] += "\n" + text
        planted.append((post_id, text))
    path.write_text(json.dumps(content, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return store, planted


def test_the_audit_finds_every_hidden_value_planted_after_import(planted):
    store, where = planted
    run = run_cli("audit", "--json", store=store.root)
    assert run.exit_code == 1
    leaks = json.loads(run.stdout)["leaks"]
    missed = []
    for (post_id, text), (name, (_, secrets)) in zip(where, PHENOMENA.items(), strict=True):
        flagged = " ".join(
            leak["text"]
            for leak in leaks
            if f".posts.{post_id}.message" in leak["location"] and leak["text"] in text
        )
        if survivors(flagged, secrets) != secrets:
            missed.append(name)
    assert missed == []


def test_a_bundle_of_a_store_with_hidden_values_planted_is_refused(planted):
    store, _ = planted
    before = snapshot(store.root)
    run = run_cli(
        "bundle", "build", "1.0.0", "--status", "draft", "--strict-audit", store=store.root
    )
    assert run.exit_code == 2 and "refusing to bundle" in run.stderr
    assert snapshot(store.root) == before
