"""One definition of "personal data left": what the audit would flag, the rewriter rewrote first.

The inputs here are hand-written (not Faker, not curator's generators): a brochure that names a
company after a person, a chat line with a colleague's handle, URLs with names in their paths.
"""

from __future__ import annotations

import json
import random
from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from curator.anonymise import anonymise, anonymise_text, find_leaks
from curator.anonymise.finders.detector import detector_for
from curator.anonymise.free_text import anonymise_file_name
from curator.anonymise.keep import Keep
from curator.anonymise.personal import PersonalData
from curator.anonymise.rewrite import Rewriter
from curator.anonymise.terms import TermIndex
from curator.model import AnonymiseSettings, DocumentContent, Page, ThreadContent

BROCHURE = [
    "The LinnSequencer by Linn Electronics, Inc. is built for the studio. Ask Tarrant for a demo.",
    "Ask your LINN dealer about it today. TARRANT ships it.",
    "linn sells them worldwide; Linn's warranty covers two years, tarrant's service three.",
    "Designed in Tarzana by Roger Tarrant.",  # the name is found here, on the last page
]


def _document(pages: list[str]) -> DocumentContent:
    return DocumentContent(
        pages=[
            Page(number=i, text=t, origin="text-layer", language="en")
            for i, t in enumerate(pages, start=1)
        ]
    )


def test_a_name_found_on_a_late_page_is_rewritten_on_every_page_in_every_case(vault):
    result = anonymise(_document(BROCHURE), vault)
    assert result.leaks == []
    stored = "\n".join(page.text for page in result.content.pages)
    assert (
        "Linn" in vault.originals() and "Roger Tarrant" in vault.originals()
    )  # taken for names somewhere...
    for form in (
        "Linn Electronics",
        "LINN dealer",
        "linn sells",
        "Linn's",
        "Roger",
        "Ask Tarrant",
        "TARRANT ships",
        "tarrant's",
    ):
        assert form not in stored, form  # ...so rewritten everywhere, in every case
    assert "LinnSequencer" in stored  # one word: a product, no occurrence of the name


def test_the_audit_of_the_raw_text_flags_exactly_what_the_rewriter_rewrites(vault):
    """Random hand-made lines: every span the checker reports on the input is one the
    rewriter replaced, and the rewriter's output is judged clean."""
    rng = random.Random(12)
    vault.pseudonym("Ingrid Solberg", "person")
    vault.pseudonym("kwame.mensah", "username")
    pieces = [
        "Ingrid",
        "SOLBERG",
        "solberg's",
        "@kwame.mensah",
        "kwame.mensah@fjordline-robotics.com",
        "https://ingridsolberg.no/blog",
        "call +47 912 48 306",
        "card 4111 1111 1111 1111",
        "the release notes",
        "see https://docs.python.org/3/library/json.html#section-20240101",
        "Oskar Lindqvist",
        "FR-200 arm",
        "ingrid-solberg-handover.txt",
    ]
    lines = [" ".join(rng.sample(pieces, 4)) for _ in range(30)]
    detector = detector_for()
    rewriter = Rewriter(vault, TermIndex(), detector)
    for line in lines:
        leaks = find_leaks([("line", line)], vault, detector=detector)
        new, offsets = rewriter.rewrite(line)
        edited = list(zip(offsets.old_starts, offsets.old_ends, strict=True))
        for leak in leaks:
            assert any(s < leak.end and leak.start < e for s, e in edited), (line, leak)
            assert line[leak.start : leak.end] not in new
    again = Rewriter(vault, TermIndex(), detector)
    assert (
        find_leaks(
            [(str(i), again.text(line)) for i, line in enumerate(lines)], vault, detector=detector
        )
        == []
    )


def test_checker_and_rewriter_share_one_definition(vault):
    detector = detector_for()
    personal = PersonalData(vault, detector)
    text = "Sanna Linn mailed sanna@linn-electronics.com"
    spans = personal.spans(text)
    leaks = find_leaks([("x", text)], vault, detector=detector)
    assert [(s.start, s.end) for s in spans] == [(leak.start, leak.end) for leak in leaks]


def test_every_occurrence_in_mentions_urls_file_names_and_json_gets_the_same_pseudonym(vault):
    vault.pseudonym("Ingrid Solberg", "person")
    text = (
        "INGRID SOLBERG wrote it; ask @ingrid.solberg or see "
        "https://wiki.example.org/people/ingrid-solberg "
        'and ingrid-solberg-handover.txt; meta {"owner": "Solberg, Ingrid"}'
    )
    new = anonymise_text(text, vault)
    first, last = vault.lookup("Ingrid", "first_name"), vault.lookup("Solberg", "last_name")
    assert "ingrid" not in new.lower() and "solberg" not in new.lower()
    assert f"{first.upper()} {last.upper()}" in new
    assert f"@{first.lower()}.{last.lower()}" in new
    assert f"{first.lower()}-{last.lower()}-handover.txt" in new


def test_a_percent_encoded_url_is_decoded_rewritten_and_re_encoded(vault):
    vault.pseudonym("Ingrid Solberg", "person")
    inner = "https://ingridsolberg.no/img/ingrid-solberg-at-the-bench.jpg"
    proxied = f"https://chat.fjordline-robotics.com/api/v4/image?url={quote(inner, safe='')}"
    leaks = find_leaks(
        [("x", proxied.replace("chat.fjordline-robotics.com", "chat.example.org"))], vault
    )
    assert [leak.kind for leak in leaks] == ["encoded"]  # the audit reads through the encoding
    new = anonymise_text(proxied, vault)
    assert "solberg" not in new.lower() and "fjordline" not in new.lower()
    assert new.count("%2F") == quote(inner, safe="").count("%2F")  # encoded as it came
    assert find_leaks([("x", new)], vault) == []


def test_kept_terms_stay_and_kept_hosts_keep_their_host_but_not_the_handles_in_their_paths(vault):
    vault.pseudonym("Kwame Mensah", "person")
    vault.pseudonym("kmensah-gh", "username")
    keep = Keep(terms=("Linn",), hosts=("github.com",))
    text = "Linn Electronics forked it: https://github.com/kmensah-gh/fr200 and https://kmensah.dev/fr200"
    result = anonymise(_document([text, "Sanna Linn signed."]), vault, keep=keep)
    new = result.content.pages[0].text
    assert new.startswith("Linn Electronics forked it: https://github.com/")
    assert "kmensah" not in new
    assert result.kept.terms == {"Linn"} and result.kept.hosts == {"github.com"}
    assert result.leaks == []
    # without the decision, the same text is flagged
    assert find_leaks([("x", "Linn Electronics at https://github.com/x")], vault)


def test_digits_in_a_url_are_no_phone_number_and_a_plain_file_name_stays(vault):
    text = "see https://docs.python.org/3/whatsnew/3.12.html#id20240101123 and notes.txt"
    assert (
        anonymise_text(text, vault, keep=Keep.of(AnonymiseSettings())) == text
    )  # a default kept host
    rewritten = anonymise_text(
        "see https://wiki.fjordline-robotics.com/p/4155550123#2024011512", vault
    )
    assert rewritten.endswith("/p/4155550123#2024011512")
    assert anonymise_file_name("notes.txt", vault) == "notes.txt"
    vault.pseudonym("Jane Doe", "person")
    assert anonymise_file_name("jane-doe_lease.pdf", vault) == (
        f"{vault.lookup('Jane', 'first_name').lower()}-"
        f"{vault.lookup('Doe', 'last_name').lower()}_lease.pdf"
    )


def test_slack_s_name_of_an_export_is_judged_by_its_workspace_name_alone(vault):
    """Slack names a workspace export "<workspace> Slack export <from> - <to>": "Slack" was
    read as a surname beside an unknown workspace word and the dates as an address, and
    every later "slack" in the store was rewritten."""
    name = "Fjordline Slack export Jan 1 2024 - Mar 3 2024.zip"
    assert anonymise_file_name(name, vault) == name
    assert vault.lookup("Slack", "last_name") is None
    named = anonymise_file_name("Ingrid Solberg Slack export Jan 1 2024 - Mar 3 2024", vault)
    assert (
        named == f"{vault.lookup('Ingrid Solberg', 'person')} Slack export Jan 1 2024 - Mar 3 2024"
    )


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Will do. Will, can you send the logs?", "Will do."),
        ("I'll compare them with the ones from May.", "from May."),
        ("May I close this?", "May I close"),
        ("Hope you are well, I hope Hope is too.", "Hope you"),
    ],
)
def test_names_that_are_everyday_words_go_only_where_they_are_names(vault, text, kept):
    for first in ("Will", "May", "Hope"):
        vault.pseudonym(f"{first} Carrow", "person")
    new = anonymise_text(text, vault)
    assert kept in new
    assert find_leaks([("x", new)], vault) == []


def test_a_thread_with_a_file_called_notes_keeps_its_name(vault, export):
    export = json.loads(json.dumps(export))
    info = next(iter(export["file_infos"].values()))
    info["name"] = "notes.txt"
    result = anonymise(ThreadContent.model_validate({"kind": "thread", "export": export}), vault)
    assert [i["name"] for i in result.content.export.file_infos.values()] == ["notes.txt"]


def test_a_rewrite_that_makes_a_new_name_in_its_context_is_rewritten_again(vault):
    """ "Balda" (an original the gazetteer does not know) becomes a first name, and the surname
    after it now reads as half of a person: the result is judged as a checker would judge it."""
    vault.pseudonym("Balda", "first_name")
    new = anonymise_text("Ask Balda Garcia today.", vault)
    assert "Balda" not in new and "Garcia" not in new
    assert find_leaks([("x", new)], vault) == []


@pytest.mark.parametrize("key", [b"one", b"two", b"three"])
def test_a_pseudonym_the_detector_reads_together_with_its_context_is_no_new_leak(key):
    """A precinct bulletin's codes read as an address; its pseudonym, after "ASM 36", reads as
    one again with the code in front: that is the pseudonym, not a new address to rewrite."""
    import hashlib

    from curator.anonymise import Vault

    vault = Vault(hashlib.sha256(key).digest())
    text = (
        "327 BALLOTS CAST CONG 25 SEN 21 ASM 36 BOE 01 SUP 05 SERIAL 1\n"
        "1100 REGISTERED VOTERS\nGOVERNOR"
    )
    new = anonymise_text(text, vault)
    assert new.startswith("327 BALLOTS CAST CONG 25 SEN 21 ASM 36 ")
    assert find_leaks([("x", new)], vault) == []


def test_a_street_address_after_earlier_imports_is_flagged_and_rewritten(vault):
    """The sample store's '02734 Adams Springs Suite 648': with a vault that earlier imports
    filled (addresses, and 'Adams' a pseudonym word), PersonalData still calls the whole address
    personal, so the audit flags it on the raw text and the rewriter leaves none of it."""
    vault.assign("Ira Quist", "person", "Noel Adams")
    vault.pseudonym("8 Orchard Lane", "address")
    vault.pseudonym("Harbor Logistics LLC", "organisation")
    text = "Tenant at 02734 Adams Springs Suite 648 reports: Draw job building like."
    leaks = find_leaks([("message", text)], vault, known_until=len(vault))
    assert [(leak.kind, text[leak.start : leak.end]) for leak in leaks] == [
        ("address", "02734 Adams Springs Suite 648")
    ]
    new = anonymise_text(text, vault)
    assert "Springs" not in new and "02734" not in new
    assert find_leaks([("message", new)], vault) == []


def test_a_word_of_a_job_title_pseudonym_is_no_leak_of_a_later_original(vault):
    """A position pseudonym handed out on the first import ("Maintenance engineer") holds a
    word a later import brings as an original (a channel called "Maintenance"): inside the
    pseudonym the word is the pseudonym's."""
    vault.assign("Leasing Coordinator", "position", "Maintenance engineer")
    vault.pseudonym("Maintenance", "channel")
    assert find_leaks([("position", "Maintenance engineer")], vault) == []
    assert find_leaks([("channel", "Maintenance")], vault) != []


def test_a_pseudonym_handed_out_in_the_rewriters_own_round_is_known_to_it(vault):
    """The polish pass judges text its own round rewrote: an address pseudonym made after the
    PersonalData instance was built, read by the detector with the unit before it, is that
    pseudonym."""
    personal = PersonalData(vault, detector_for())
    text = "Send it to Suite 9, 5189 Ferguson Court, Game Falls, CO 45637 today."
    vault.assign(
        "12 Quarry Road, Leeds LS6 2UE", "address", "5189 Ferguson Court, Game Falls, CO 45637"
    )
    assert [(s.kind, text[s.start : s.end]) for s in personal.spans(text)] == []


def test_a_surname_in_a_street_pseudonym_does_not_disguise_a_real_person(vault):
    """The precinct bulletin's "JOHN MORRIS" once earlier imports handed out "John" as a first
    name pseudonym and "5056 Morris Road" as an address one: the street's words stand for no
    one, so the real name is still personal, while the street pseudonym itself stays."""
    vault.assign("15 Safeway Walnut Creek", "address", "5056 Morris Road")
    vault.assign("Ira", "first_name", "John")
    vault.pseudonym("JOHN CHIANG", "person")
    text = "GREG CONLON REP 240 NO 116 JOHN MORRIS 136"
    assert "MORRIS" in [
        text[leak.start : leak.end].split()[-1] for leak in find_leaks([("x", text)], vault)
    ]
    assert "MORRIS" not in anonymise_text(text, vault)
    assert (
        anonymise_text("Deliver to 5056 Morris Road today.", vault)
        == "Deliver to 5056 Morris Road today."
    )


def test_an_address_pseudonym_cut_short_at_a_texts_end_is_no_leak(vault):
    """A title is the first line cut at 80 characters, here inside an address pseudonym: its
    words stand for no one, though the name finder reads "Thank Falls" as a name."""
    vault.assign(
        "1 Old Road, Leeds LS6 2UE", "address", "9324 Monroe Avenue, Thank Falls, IL 45637"
    )
    vault.assign("Jose Johnson", "person", "Mario Pham")
    title = "Can someone check the lease for Mario Pham at 9324 Monroe Avenue, Thank Falls, I"
    assert find_leaks([("title", title)], vault) == []
    assert find_leaks([("title", title.replace("9324 Monroe", "9324 Morrow"))], vault) != []
    # cut inside the street's name: only the name finder reads something there ("Monroe")
    assert find_leaks([("title", "Can someone check the lease at 9324 Monroe")], vault) == []


def test_pseudonyms_are_looked_for_only_where_a_hit_or_an_original_may_stand_inside_one(vault):
    """Where a text holds no known original and no name, address or organisation, nothing can
    hide in a pseudonym: PersonalData does not search it for them (half the texts of a chat)."""
    from curator.anonymise import vault_indexes

    vault.pseudonym("Jose Johnson", "person")
    personal = PersonalData(vault, detector_for())
    personal.spans("lgtm, merged into main at 10:30")
    # the index is built on its first lookup (a call count would not see a compiled module's calls)
    assert "pseudonyms" not in vault_indexes._INDEXES.get(vault, {})
    assert [s.kind for s in personal.spans("ask Jose Johnson about it")] == ["person"]
    assert "pseudonyms" in vault_indexes._INDEXES[vault]


def test_a_real_name_made_of_pseudonym_words_in_an_import_is_rewritten(vault):
    """Earlier imports handed out "Tony" and "Strickland" to others; the precinct bulletin's
    "TONY STRICKLAND" is raw input, so a real person, though a checker reading the stored
    text could not tell it from a pseudonym the rewriter composed."""
    vault.assign("Linn", "first_name", "Tony")
    vault.assign("Nuys", "last_name", "Strickland")
    page = "GOVERNOR\nTONY STRICKLAND REP 149 NO 80 NO 228\nBRUCE PUGH REP 146"
    result = anonymise(_document([page]), vault)
    stored = result.content.pages[0].text
    assert "STRICKLAND" not in stored and "BRUCE PUGH" not in stored
    assert result.leaks == []


def test_a_name_the_finder_reads_inside_a_pseudonym_email_is_that_emails(vault):
    """The domain pseudonym "north-summer.example" holds "summer", a first name to the
    lowercase-name rule: inside the e-mail pseudonym it is the pseudonym's word, not a
    person to rewrite (once it was, and the user record's e-mail was refused)."""
    vault.assign("hotmail.com", "domain", "north-summer.example")
    vault.assign("nathaniel.phillips@hotmail.com", "email", "dave.lang@north-summer.example")
    assert (
        anonymise_text("dave.lang@north-summer.example", vault) == "dave.lang@north-summer.example"
    )
    assert find_leaks([("email", "dave.lang@north-summer.example")], vault) == []


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="aZ9_ .-\n'é", max_size=30))
def test_tokens_of_an_ascii_text_are_those_of_the_general_rule(text):
    """An ASCII text is tokenised on its lowered copy (terms._tokenize); any text, ASCII or
    not, gets the tokens the general rule gives: every letter/digit run, folded."""
    from curator.anonymise.terms import TOKEN, fold_case_and_accents, text_tokens

    assert text_tokens(text) == tuple(
        (m.start(), m.end(), fold_case_and_accents(m.group())) for m in TOKEN.finditer(text)
    )


def test_an_initial_is_no_and_that_joins_a_name(vault):
    """The Senate report's "GRUENDER, BENJAMIN L FIELD REPRESENTATIVE": once the name is
    "BARBARA, WILLIAM E", the "E" ends the name found and is no Italian "e" joining "FIELD"
    to it, so "FIELD" stays whatever initial the vault's key drew; "Liu e Kenji" still
    joins."""
    vault.assign("GRUENDER", "first_name", "Barbara")
    vault.assign("BENJAMIN", "first_name", "William")
    vault.assign("GRUENDER, BENJAMIN L", "person", "BARBARA WILLIAM E")
    text = "BARBARA, WILLIAM E FIELD REPRESENTATIVE FROM SEP. 16 1,458.33"
    assert find_leaks([("x", text)], vault) == []
    assert anonymise_text(text, vault) == text
    assert "Kenji" not in anonymise_text("Ho visto Liu Chen e Kenji ieri.", vault)


def test_a_word_beside_a_pseudonym_is_no_name_because_of_it(vault):
    """The WARN report's trade names: once a name became "Spencer", the detector reads
    "Spencer Valley" as one person. "Valley" is a word first and no original, so it stays
    (what is kept must not depend on the pseudonym the key drew); a word that is a name
    first beside a pseudonym ("Spencer Clemente") is still personal."""
    vault.assign("Dolores", "first_name", "Spencer")
    text = "Call Spencer Valley today."
    assert find_leaks([("x", text)], vault) == []
    polish = Rewriter(vault, TermIndex(), detector_for())  # as a polish pass reads its rewrite
    assert polish.text(text) == text
    assert "Clemente" not in polish.text("Call Spencer Clemente today.")
