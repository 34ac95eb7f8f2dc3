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

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from curator.anonymise.attachments import TextAttachment, read_attachment
    from curator.anonymise.audit import (
        Leak,
        anonymised_here,
        audit_store,
        find_leaks,
        fixture_groups,
        parents_of,
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
    from curator.anonymise.rewrite import Rewriter, reserve_hits, settle
    from curator.anonymise.structure import skeleton
    from curator.anonymise.suspects import Suspect, find_suspects
    from curator.anonymise.terms import TermIndex
    from curator.anonymise.threads import reserve_people, reserve_users
    from curator.anonymise.user_input import UserInput
    from curator.anonymise.vault import VAULT_FILE, Entry, Vault
    from curator.anonymise.verdicts import VERDICTS_FILE, Verdicts, judge_context

# name -> the submodule that defines it. Loaded on first use (PEP 562), so a command that
# needs the vault alone (`label set`, `show`) never imports the detector stack.
_EXPORTS: dict[str, str] = {
    "TextAttachment": "attachments",
    "read_attachment": "attachments",
    "Leak": "audit",
    "anonymised_here": "audit",
    "audit_store": "audit",
    "find_leaks": "audit",
    "parents_of": "audit",
    "fixture_groups": "audit",
    "store_keep": "audit",
    "synthetic_values": "audit",
    "Anonymised": "content",
    "anonymise": "content",
    "ADDABLE_KINDS": "decisions",
    "Decision": "decisions",
    "add_name": "decisions",
    "forget_word": "decisions",
    "Detector": "finders.detector",
    "Hit": "finders.detector",
    "detector_for": "finders.detector",
    "fold_case": "finders.name_data",
    "name_data": "finders.name_data",
    "offline_tld_extract": "finders.patterns",
    "blank_nlp_engine": "finders.presidio",
    "ENTITIES": "finders.registry",
    "presidio_recognizers": "finders.registry",
    "anonymise_file_name": "free_text",
    "anonymise_text": "free_text",
    "anonymise_value": "free_text",
    "texts_of": "json_strings",
    "undecodable_attachments": "json_strings",
    "NOTHING_KEPT": "keep",
    "Keep": "keep",
    "Used": "keep",
    "KINDS": "kinds",
    "Kind": "kinds",
    "entity_kind": "kinds",
    "Rewriter": "rewrite",
    "reserve_hits": "rewrite",
    "settle": "rewrite",
    "skeleton": "structure",
    "Suspect": "suspects",
    "find_suspects": "suspects",
    "TermIndex": "terms",
    "reserve_people": "threads",
    "reserve_users": "threads",
    "UserInput": "user_input",
    "VAULT_FILE": "vault",
    "Entry": "vault",
    "Vault": "vault",
    "judge_context": "verdicts",
    "VERDICTS_FILE": "verdicts",
    "Verdicts": "verdicts",
}


__all__ = [
    "ADDABLE_KINDS",
    "ENTITIES",
    "KINDS",
    "NOTHING_KEPT",
    "VAULT_FILE",
    "VERDICTS_FILE",
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
    "Verdicts",
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
    "parents_of",
    "fold_case",
    "judge_context",
    "forget_word",
    "name_data",
    "offline_tld_extract",
    "presidio_recognizers",
    "read_attachment",
    "reserve_hits",
    "reserve_people",
    "reserve_users",
    "settle",
    "skeleton",
    "store_keep",
    "synthetic_values",
    "texts_of",
    "undecodable_attachments",
]


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # the next look-up is a plain attribute
    return value
