"""Anonymisation, and the one door to it: every module outside this package imports from
here (ruff's TID251 bans its submodules elsewhere, see pyproject.toml).

    text ─▶ finders/     detector.py runs every finder: names, addresses, numbers, and
         │               Presidio's patterns (e-mails, URLs, IPs, SSNs, NINOs) ─▶ hits
         ─▶ personal.py  what is personal data in context: the one definition the rewriter,
         │               the audit and the leak gate share (not so: safe.py, pseudonyms and
         │               reserved examples; keep.py, what the user keeps) ─▶ spans
         ─▶ rewrite.py   each span's pseudonym from vault.py (drawn by pseudonyms.py as
         │               kinds.py says), applied with curator.spans so labels keep pointing
         │               at their values ─▶ anonymised text
         ─▶ audit.py     whatever personal.py still finds there is a leak
         ─▶ suspects.py  what was kept but looks personal, masked, for a person to decide

Only text is anonymised and judged: structure.py says what in a fixture is structure (keys,
roles, types, ids' shape), json_strings.py lists its texts for every checker.

Every stage reads a text through normal_view.py: the text as a person reads it (invisible
and look-alike characters, markup inside words, spelled-out e-mails folded), mapped back to
the original characters that the rewrite replaces.

content.py anonymises a fixture's content and label revisions with one mapping (threads.py
and documents.py register their known originals, terms.py finds them); free_text.py a note,
a typed value or a file name; user_input.py what people type into a store. kinds.py is the
table of every kind of value: what finds it, what replaces it and how the rules treat it.
"""

from curator.anonymise.attachments import TextAttachment, read_attachment
from curator.anonymise.audit import (
    Leak,
    anonymised_here,
    audit_store,
    find_leaks,
    fixture_groups,
    store_keep,
    synthetic_values,
)
from curator.anonymise.content import Anonymised, anonymise
from curator.anonymise.decisions import ADDABLE_KINDS, Decision, add_name, forget_word
from curator.anonymise.finders.detector import Detector, Hit, detector_for
from curator.anonymise.finders.name_data import fold_case, name_data
from curator.anonymise.finders.patterns import offline_tld_extract
from curator.anonymise.finders.presidio import blank_nlp_engine
from curator.anonymise.finders.registry import ENTITIES, presidio_recognizers
from curator.anonymise.free_text import anonymise_file_name, anonymise_text, anonymise_value
from curator.anonymise.json_strings import texts_of, undecodable_attachments
from curator.anonymise.keep import NOTHING_KEPT, Keep, Used
from curator.anonymise.kinds import KINDS, Kind, entity_kind
from curator.anonymise.rewrite import Rewriter, settle
from curator.anonymise.structure import skeleton
from curator.anonymise.suspects import Suspect, find_suspects
from curator.anonymise.terms import TermIndex
from curator.anonymise.user_input import UserInput
from curator.anonymise.vault import VAULT_FILE, Entry, Vault

__all__ = [
    "ADDABLE_KINDS",
    "ENTITIES",
    "KINDS",
    "NOTHING_KEPT",
    "VAULT_FILE",
    "Anonymised",
    "Decision",
    "Detector",
    "Entry",
    "Hit",
    "Keep",
    "Kind",
    "Leak",
    "Rewriter",
    "Suspect",
    "TermIndex",
    "TextAttachment",
    "Used",
    "UserInput",
    "Vault",
    "add_name",
    "anonymise",
    "anonymise_file_name",
    "anonymise_text",
    "anonymise_value",
    "anonymised_here",
    "audit_store",
    "blank_nlp_engine",
    "detector_for",
    "entity_kind",
    "find_leaks",
    "find_suspects",
    "fixture_groups",
    "fold_case",
    "forget_word",
    "name_data",
    "offline_tld_extract",
    "presidio_recognizers",
    "read_attachment",
    "settle",
    "skeleton",
    "store_keep",
    "synthetic_values",
    "texts_of",
    "undecodable_attachments",
]
