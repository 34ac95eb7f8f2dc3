"""A person's decision on what the anonymiser got wrong, applied to a whole store at once.

`curator vault add NAME`: a name the finders missed. The vault makes it a decided original
(personal wherever it occurs, in fixtures anonymised before and after) and every fixture that
holds it is rewritten now, its words alone where their context names the person
(context.py), as an import would have done had the vault known the name.

A number is added the same way, as the kind it is (`--kind phone`: a short local line the
finders missed): every place it is written, with any separators, gets its pseudonym.

`curator vault forget WORD`: a word that was never personal ("Display" taken for a name on
one page). The vault no longer counts it as an original and keeps it as written inside
names; wherever a pseudonym was written for it, the word comes back. A number that is not
personal (a suspect's digit run: a badge or order number) is forgotten the same way, and is
no suspect any more.

Each runs in one store transaction (all fixtures or none) and records itself in the
provenance of every fixture it changed, naming the pseudonym (never the original).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from curator import clock
from curator.anonymise import pseudonyms as gen
from curator.anonymise.context import names_someone_here, needs_context
from curator.anonymise.finders.detector import Detector, detector_for
from curator.anonymise.kinds import KINDS, PERSON_WORD_KINDS
from curator.anonymise.suspects import NUMBER_KINDS, WORD_KINDS
from curator.anonymise.terms import TermIndex
from curator.anonymise.vault import Entry, Vault, normal, tokens
from curator.errors import CuratorError
from curator.model import (
    ConversationContent,
    DocumentContent,
    FieldLabel,
    Fixture,
    LabelRevision,
    Page,
    Repair,
    Rubric,
    Span,
    ThreadContent,
)
from curator.spans import Edit, OffsetMap, apply_edits

if TYPE_CHECKING:
    from curator.store import FixtureRecord, Store, Transaction

# the kinds a person names by hand: what `vault add --kind` takes
ADDABLE_KINDS = WORD_KINDS + NUMBER_KINDS
_NUMBER = re.compile(r"\+?\(?\d+\)?(?:[ \-.]\(?\d+\)?)*")  # one number: digits in groups

TextEdit = Callable[[str], tuple[str, OffsetMap]]


@dataclass(frozen=True)
class Decision:
    """What one `vault add` or `vault forget` did."""

    action: str  # "add" or "forget"
    shown: str  # what may be printed: the pseudonym of an added name, a forgotten word
    fixtures: list[str] = field(default_factory=list)  # the fixtures it rewrote

    def as_dict(self) -> dict[str, object]:
        return {"action": self.action, "shown": self.shown, "fixtures": self.fixtures}


def add_name(
    store: Store, name: str, kind: str = "person", detector: Detector | None = None
) -> Decision:
    """`name` is personal: rewritten in every fixture of the store now, and in every later
    import. Returns the decision, naming its pseudonym."""
    name = " ".join(name.split())
    if kind not in ADDABLE_KINDS:
        raise CuratorError(f"--kind must be one of {', '.join(ADDABLE_KINDS)}, not {kind!r}")
    if not any(c.isalnum() for c in name):
        raise CuratorError("a name to add must hold letters or digits")
    detector = detector if detector is not None else detector_for()
    with store.transaction() as txn:
        vault = Vault.open(store)
        before = vault.added
        pseudonym = vault.decide(name, kind)
        taught = list(vault.added_since(before)) or [
            Entry(kind, name, vault.lookup(name, kind) or pseudonym)
        ]
        terms = TermIndex((e.original, e.kind) for e in taught)
        edit = _adder(vault, terms, detector)
        changed = _repair_all(store, txn, vault, edit, Repair(action="vault add", shown=pseudonym))
        vault.save()
    return Decision("add", pseudonym, changed)


def forget_word(store: Store, word: str) -> Decision:
    """`word` was never personal: wherever a pseudonym was written for it, it comes back."""
    word = " ".join(word.split())
    if not word or (len(word.split()) != 1 and not _NUMBER.fullmatch(word)):
        raise CuratorError(
            "vault forget takes one word or one number (forget each word of a phrase)"
        )
    with store.transaction() as txn:
        vault = Vault.open(store)
        written = vault.forget(word)  # none yet: a decision made before any import
        edit = _restorer(vault, word, written)
        changed = _repair_all(store, txn, vault, edit, Repair(action="vault forget", shown=word))
        vault.save()
    return Decision("forget", word, changed)


# ------------------------------------------------------------------ one text


def _adder(vault: Vault, terms: TermIndex, detector: Detector) -> TextEdit:
    """Rewrites the decided name and its words where an import would have rewritten them."""

    def edit(text: str) -> tuple[str, OffsetMap]:
        matches = terms.find(text)
        if not matches:
            return apply_edits(text, [])
        hits: list[Any] | None = None
        edits: list[Edit] = []
        for match in _longest_first(matches):
            written = text[match.start : match.end]
            if needs_context(match.term.original, match.term.kind, written) and not (
                vault.is_decided(match.term.original, match.term.kind)
            ):
                hits = detector.detect(text) if hits is None else hits
                if not names_someone_here(text, match.start, match.end, hits, vault):
                    continue
            # a number written with other separators ("450-0840" of "450 0840") has the
            # decided one's pseudonym; a name's is looked up as written, to keep its case
            pseudonym = vault.lookup(written, match.term.kind) or (
                _laid_out(written, vault.lookup(match.term.original, match.term.kind))
                if not KINDS[match.term.kind].worded
                else None
            )
            if pseudonym is not None and not _overlaps(edits, match.start, match.end):
                edits.append(Edit(match.start, match.end, pseudonym))
        return apply_edits(text, sorted(edits))

    return edit


def _restorer(vault: Vault, word: str, written: list[Entry]) -> TextEdit:
    """Puts `word` back where a pseudonym word was written for it: its own pseudonym, and its
    word of each name that held it; never inside another kind's pseudonym (a street's)."""
    key = normal(word)
    replaced: set[str] = set()
    for entry in written:
        if normal(entry.original) == key:
            replaced.update(normal(w) for w in entry.pseudonym.split())
        else:
            replaced.update(_word_for(entry, key))
    words = TermIndex((w, "pseudonym") for w in replaced)
    others = TermIndex(
        (e.pseudonym, e.kind)
        for e in vault.entries()
        if e.kind not in PERSON_WORD_KINDS and KINDS.get(e.kind, KINDS["id"]).worded
    )

    def edit(text: str) -> tuple[str, OffsetMap]:
        matches = words.find(text)
        if not matches:
            return apply_edits(text, [])
        inside = [(m.start, m.end) for m in others.find(text)]
        edits = [
            Edit(m.start, m.end, gen.match_case(text[m.start : m.end], word))
            for m in matches
            if not any(s <= m.start and m.end <= e for s, e in inside)
        ]
        return apply_edits(text, edits)

    return edit


def _word_for(entry: Entry, key: str) -> set[str]:
    """The pseudonym word a name's pseudonym had where its original had the word `key`."""
    originals, pseudonyms = entry.original.split(), entry.pseudonym.split()
    if len(pseudonyms) == len(originals) + 1:  # a later attempt's middle initial
        pseudonyms = pseudonyms[:-2] + pseudonyms[-1:]
    return {
        normal(p)
        for o, p in zip(originals, pseudonyms, strict=False)
        if normal(o.rstrip(".,")) == key and normal(p) != key
    }


def _laid_out(written: str, pseudonym: str | None) -> str | None:
    """A number's pseudonym in the separators it is written with here ("411-1968" where
    "450-0840" stood for the decided "450 0840")."""
    if pseudonym is None:
        return None
    digits = [c for c in pseudonym if c.isdigit()]
    if len(digits) != sum(c.isdigit() for c in written):
        return pseudonym
    it = iter(digits)
    return "".join(next(it) if c.isdigit() else c for c in written)


def _longest_first(matches: list[Any]) -> list[Any]:
    return sorted(matches, key=lambda m: (-(m.end - m.start), m.start))


def _overlaps(edits: list[Edit], start: int, end: int) -> bool:
    return any(e.start < end and start < e.end for e in edits)


# ------------------------------------------------------------------ the store


def _repair_all(
    store: Store, txn: Transaction, vault: Vault, edit: TextEdit, repair: Repair
) -> list[str]:
    """Every fixture rewritten with `edit`; the ids of those that changed."""
    changed = []
    for record in store.records():
        fixture, content, revisions = _repaired(record, edit)
        if (fixture, content, revisions) == (record.fixture, record.content, record.revisions):
            continue
        stamped = repair.model_copy(update={"at": clock.now_iso()})
        update: dict[str, Any] = {"repairs": [*fixture.provenance.repairs, stamped]}
        name = fixture.provenance.source_name
        if (
            name != record.fixture.provenance.source_name
            and fixture.provenance.source_name_anonymised is not None
        ):
            # a bundle says when a thread file is named through the vault: after an add, or
            # after a forget that left other pseudonyms in the name
            update["source_name_anonymised"] = any(
                vault.is_pseudonym_token(token) for token in tokens(name.replace("_", " "))
            )
        provenance = fixture.provenance.model_copy(update=update)
        txn.save_content(fixture.id, content)
        txn.replace_revisions(fixture.id, revisions)
        txn.save_fixture(fixture.model_copy(update={"provenance": provenance}))
        changed.append(fixture.id)
    return changed


def _repaired(record: FixtureRecord, edit: TextEdit) -> tuple[Fixture, Any, list[LabelRevision]]:
    def text(value: str) -> str:
        return edit(value)[0]

    content = record.content
    moves: dict[tuple[str, object], OffsetMap] = {}
    if isinstance(content, DocumentContent):
        pages = []
        for page in content.pages:
            new, offsets = edit(page.text)
            moves[("page", page.number)] = offsets
            pages.append(Page.model_validate({**page.model_dump(), "text": new}))
        new_content: Any = DocumentContent(pages=pages)
    elif isinstance(content, ThreadContent):
        data = content.model_dump(mode="json")
        for post_id, post in data["export"].get("posts", {}).items():
            if isinstance(post.get("message"), str):
                post["message"], moves[("post", post_id)] = edit(post["message"])
        data["export"] = _strings(data["export"], text, skip=("message",))
        new_content = ThreadContent.model_validate(data)
    elif isinstance(content, ConversationContent):
        data = content.model_dump(mode="json")
        for number, message in enumerate(data["messages"], 1):
            if isinstance(message.get("content"), str):
                message["content"], moves[("message", number)] = edit(message["content"])
        # roles are structure: never edited, whatever a person added to the vault
        new_content = ConversationContent.model_validate(
            _strings(data, text, skip=("content", "role"))
        )
    else:  # a content kind this repair does not know: its strings, no evidence to move
        new_content = type(content).model_validate(_strings(content.model_dump(mode="json"), text))

    def moved(span: Span | None) -> Span | None:
        if span is None:
            return None
        offsets = moves.get(span.where)
        if offsets is None or span.end > offsets.old_length:
            return span
        new = offsets.span(span.start, span.end)
        return span if new is None else span.model_copy(update={"start": new[0], "end": new[1]})

    revisions = [_revision(r, text, moved) for r in record.revisions]
    fixture = record.fixture
    fixture = fixture.model_copy(
        update={
            "title": text(fixture.title),
            "known_bad": [
                k.model_copy(update={"text": None if k.text is None else text(k.text)})
                for k in fixture.known_bad
            ],
            "provenance": fixture.provenance.model_copy(
                update={"source_name": text(fixture.provenance.source_name)}
            ),
        }
    )
    return fixture, new_content, revisions


def _revision(
    revision: LabelRevision, text: Callable[[str], str], moved: Callable[[Span | None], Span | None]
) -> LabelRevision:
    def maybe(value: str | None) -> str | None:
        return None if value is None else text(value)

    fields = {
        name: FieldLabel.model_validate(
            {
                **label.model_dump(),
                "value": maybe(label.value),
                "evidence": None if label.evidence is None else moved(label.evidence),
                "evidence_text": maybe(label.evidence_text),
                "variants": [text(v) for v in label.variants],
                "authority": maybe(label.authority),
                "no_evidence": maybe(label.no_evidence),
                "unanswerable": maybe(label.unanswerable),
            }
        )
        for name, label in revision.fields.items()
    }

    def rubric(r: Rubric) -> Rubric:
        return Rubric(text=text(r.text), evidence_posts=r.evidence_posts)

    return revision.with_truth_texts(rubric, text).model_copy(
        update={"author": text(revision.author), "reason": maybe(revision.reason), "fields": fields}
    )


_ID = re.compile(r"[a-z0-9]{26}|[0-9a-f]{8}-[0-9a-f-]{27}")


def _strings(value: Any, text: Callable[[str], str], skip: tuple[str, ...] = ()) -> Any:
    """`value` with `text` applied to every string in it but keys, ids and `skip` members."""
    if isinstance(value, dict):
        return {k: v if k in skip else _strings(v, text, skip) for k, v in value.items()}
    if isinstance(value, list):
        return [_strings(v, text, skip) for v in value]
    if isinstance(value, str) and not _ID.fullmatch(value):
        return text(value)
    return value
