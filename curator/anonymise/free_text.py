"""Free text (a failure note, a model output, a rubric), a typed value and a file name,
rewritten with the vault's mapping and pattern PII, as the content they go with is.

The caller owns persistence: `vault.save()` before what was rewritten is stored.
"""

from __future__ import annotations

import re

from curator.anonymise.context import is_everyday
from curator.anonymise.finders.detector import Detector, detector_for
from curator.anonymise.finders.name_data import fold_case, name_data
from curator.anonymise.keep import NOTHING_KEPT, Keep
from curator.anonymise.rewrite import Rewriter, reserve_hits, settle
from curator.anonymise.terms import TermIndex
from curator.anonymise.vault import Vault

NAME_WORD = re.compile(r"[^\W\d_]+")
# The name Slack gives a workspace export ("Fjordline Slack export Jan 1 2024 - Mar 3 2024"):
# the tool's words and the dates name no one, and beside the workspace's name "Slack" read
# as a surname; only the workspace's name is judged.
SLACK_EXPORT = re.compile(r"(?P<workspace>.*?)(?P<tool>[ _-]+Slack[ _-]+export(?![^\W_]).*)")


def anonymise_text(
    text: str, vault: Vault, detector: Detector | None = None, keep: Keep = NOTHING_KEPT
) -> str:
    """Free text (a failure note, a model output, a rubric) with the vault's mapping and pattern
    PII."""
    detector = detector if detector is not None else detector_for()
    reserve_hits(vault, detector, [text])
    return settle(vault, lambda: Rewriter(vault, TermIndex(), detector, keep=keep).text(text))


def anonymise_value(
    value: str,
    vault: Vault,
    kind: str | None = None,
    detector: Detector | None = None,
    keep: Keep = NOTHING_KEPT,
) -> str:
    """A typed value (a label, a reviewer's rubric): free text, and when `kind` says it names a
    person, organisation or address, that value's pseudonym even where no detector sees one."""
    rewritten = anonymise_text(value, vault, detector, keep)
    if kind is None or not value.strip() or rewritten != value or keep.kept_spans(value):
        return rewritten
    return vault.pseudonym(value, kind)


def anonymise_file_name(
    name: str, vault: Vault, detector: Detector | None = None, keep: Keep = NOTHING_KEPT
) -> str:
    """A file name rewritten only where it names someone ("jane-doe-lease.pdf" ->
    "maria-lopez-lease.pdf"); "notes.txt" stays. Its separators read as spaces for detection
    ("jane doe" is a name, "jane-doe" is not to the gazetteer), and stay as they were. A file
    name has no sentence to give a name its cues: a capitalised word the name lists know that
    is no everyday word ("lease_Kowalczyk.pdf") is a name there by itself."""
    stem, dot, suffix = name.rpartition(".")
    if not dot or not stem:
        stem, dot, suffix = name, "", ""
    detector = detector if detector is not None else detector_for()
    made_by_slack = SLACK_EXPORT.fullmatch(stem)
    if made_by_slack and made_by_slack["workspace"]:
        workspace = _stem(made_by_slack["workspace"], vault, detector, keep)
        return workspace + made_by_slack["tool"] + dot + suffix
    return _stem(stem, vault, detector, keep) + dot + suffix


def _stem(stem: str, vault: Vault, detector: Detector, keep: Keep) -> str:
    spaced = stem.replace("-", " ").replace("_", " ")
    reserve_hits(vault, detector, [spaced])
    names = _listed_names(spaced)
    # a Mattermost id in a file's name is remapped as the thread's own ids are
    new, offsets = settle(
        vault, lambda: Rewriter(vault, names, detector, keep=keep, ids=True).rewrite(spaced)
    )
    if new == spaced:
        return stem
    pieces, cursor = [], 0
    for old_start, old_end, new_start, new_end in zip(
        offsets.old_starts, offsets.old_ends, offsets.new_starts, offsets.new_ends, strict=True
    ):
        separator = next((c for c in stem[old_start:old_end] if c in "-_"), "-")
        pieces += [stem[cursor:old_start], new[new_start:new_end].replace(" ", separator)]
        cursor = old_end
    return "".join([*pieces, stem[cursor:]])


def _listed_names(text: str) -> TermIndex:
    """The capitalised words of `text` that are listed names and no everyday words."""
    data = name_data()
    found = []
    for word in NAME_WORD.findall(text):
        key = fold_case(word)
        first, last = data.first.get(key, 0), data.last.get(key, 0)
        if len(word) >= 3 and word[0].isupper() and (first or last) and not is_everyday(key):
            found.append((word, "last_name" if last >= first else "first_name"))
    return TermIndex(found)
