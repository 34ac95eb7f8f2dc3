"""Anonymisation: a pseudonym vault, offline PII detection, consistent rewriting, and an audit.

Detection (detect.py, known-value matching in terms.py) finds spans; the rewriter
(rewrite.py) decides what replaces them through the vault and applies the edits with
curator.spans, so labels keep pointing at their values. audit.py proves nothing leaked.
"""

from curator.anonymise.audit import Leak, audit_store, find_leaks
from curator.anonymise.content import Anonymised, anonymise
from curator.anonymise.free_text import anonymise_text
from curator.anonymise.vault import Vault

__all__ = ["Anonymised", "Leak", "Vault", "anonymise", "anonymise_text", "audit_store", "find_leaks"]
