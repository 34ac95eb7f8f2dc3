"""The pseudonym vault: a per-store secret key and the original -> pseudonym table.

Lives in `.curator/vault.json` (local only, mode 0600, never committed or bundled). Each
pseudonym is drawn from an rng seeded by HMAC-SHA256(key, kind, original, attempt), so it is
deterministic within a store and differs between stores. A candidate is rejected (and the
next attempt drawn) when it is already another original's pseudonym, equals an original or
has its letters whatever the separators (as terms.TermIndex finds originals: "Kali" is
"k.ali"), or reuses a name token of any original: otherwise the audit could not tell a
leak from a coincidence. The table carries an HMAC under the key, so a corrupt file or a
file whose key was swapped is refused rather than silently producing a second,
inconsistent mapping. Long random ids are not in the table: their pseudonyms are derived
from the key (derived_ids.py), so a bulk export's million post ids cost the vault nothing.
"""

from __future__ import annotations

import base64
import bisect
import hashlib
import hmac
import itertools
import json
import os
import random
import re
import secrets
import unicodedata
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from curator import atomic
from curator.anonymise import derived_ids
from curator.anonymise import pseudonyms as gen
from curator.anonymise.finders.name_data import name_data
from curator.anonymise.finders.patterns import ends_in_a_domain
from curator.anonymise.kinds import COMPOSITE_KINDS, KINDS, NAME_KINDS, PERSON_WORD_KINDS
from curator.anonymise.name_space import LEGAL_FORMS
from curator.anonymise.terms import TOKEN, fold_case_and_accents, search_key
from curator.errors import CuratorError

if TYPE_CHECKING:
    from curator.store import Store

VAULT_FILE = "vault.json"
VAULT_FORMAT = "curator-vault"
KEY_ENV = "CURATOR_VAULT_KEY"
MAX_ATTEMPTS = 2000

_TOKEN = re.compile(r"[^\W_]+")
# words no original teaches as a name's, though a model may take one for it: every
# pseudonym of some kind holds one whatever its draw (see `Vault._acceptable`)
NEVER_NAME_WORDS = LEGAL_FORMS | gen.FIXED_WORDS


@dataclass(frozen=True)
class Entry:
    kind: str
    original: str
    pseudonym: str


@lru_cache(maxsize=1 << 16)  # asked of every word weighed in a decision, most of them many times
def normal(text: str) -> str:
    """Table key of an original: case, accents and runs of whitespace do not matter
    ("Renée" and "renee" are one person)."""
    return fold_case_and_accents(" ".join(text.split()))


TITLES = frozenset(
    {
        "mr",
        "mrs",
        "ms",
        "miss",
        "mx",
        "dr",
        "prof",
        "sir",
        "jr",
        "sr",
        "ii",
        "iii",
        "iv",
        "md",
        "phd",
        "dds",
        "dvm",
        "esq",
    }
)
# Words inside surnames ("Pieter de Wit", "Ludwig van Beethoven"): kept as written, name nobody
NAME_PARTICLES = frozenset(
    {
        "de",
        "da",
        "di",
        "du",
        "del",
        "della",
        "der",
        "den",
        "van",
        "von",
        "le",
        "la",
        "dos",
        "das",
        "ter",
        "ten",
        "bin",
        "ibn",
        "al",
        "el",
    }
)


def _openings(text: str) -> list[str]:
    """Every start of the first word of `text`: "9324 Monroe Avenue" -> "9", "93", "932", "9324"."""
    word = "".join(itertools.takewhile(str.isalnum, text))
    return [word[:k] for k in range(1, len(word) + 1)]


def tokens(text: str) -> list[str]:
    """Name tokens of a value; titles, suffixes, particles and initials ("Dr.", "Jr.", "MD",
    "de", the "K" of "K DRUMMOND") name nobody: an initial is rewritten with its name, but a
    lone "K" elsewhere is no one's (a cased letter: a CJK name of one character is a name)."""
    return [
        t
        for t in (t.casefold() for t in _TOKEN.findall(text))
        if t not in TITLES and t not in NAME_PARTICLES and not (len(t) == 1 and t.upper() != t)
    ]


class Vault:
    def __init__(self, key: bytes, path: Path | None = None, locale: str = "en_US") -> None:
        self.key = key
        self.path = path
        self.locale = locale
        self._entries: dict[tuple[str, str], Entry] = {}
        self._used: dict[str, str] = {}  # pseudonym -> the original it stands for (normalised)
        self._originals: set[str] = set()
        # the letters each original is found by in text (terms.search_key): "k.ali" is found as
        # "Kali", so no pseudonym may be spelt so, whatever separates its words
        self._spellings: set[str] = set()
        # name token (without case or accents) -> how many entries the vault held when it
        # became one (see `is_original_token`)
        self._name_tokens: dict[str, int] = {}
        self._positions: dict[tuple[str, str], int] = {}  # entry key -> entries held before it
        self._pseudonym_tokens: set[str] = set()  # words of people's pseudonyms
        self._address_pseudonyms: list[
            str
        ] = []  # normalised, sorted: see `starts_an_address_pseudonym`
        self._address_openings: Counter[str] = (
            Counter()
        )  # each start of their first words ("9", "93", "932")
        self._added: list[Entry] = []  # every entry in the order it came, replaced ones too
        # the user's decisions (`curator vault add` / `forget`, decisions.py): originals that
        # are personal wherever they occur, and words that were never personal
        self._decided: set[tuple[str, str]] = set()  # (kind, normal original)
        self._forgotten: set[str] = set()  # normal words
        self._rewritten: set[tuple[str, str]] = set()  # entries a decision gave a new pseudonym
        self.generation = 0  # grows when a decision changes what the vault's indexes hold
        self.stored = 0  # entries read from the file: those after it this command learned
        # The store it was opened from: `save` writes through it, into the open transaction.
        self.store: Store | None = None

    @property
    def fingerprint(self) -> str:
        """Names this vault on the fixtures it anonymised; reveals nothing of the key."""
        return hmac.new(self.key, b"curator-vault-id", hashlib.sha256).hexdigest()[:16]

    # ------------------------------------------------------------ persistence

    @classmethod
    def open(cls, store: Store) -> Vault:
        """The store's vault, made with a fresh random key on first use. A new vault is
        written by the first `save()`, which every writer calls before its fixtures land:
        a command that is refused leaves no vault behind."""
        vault = cls.load(store)
        if vault is None:
            vault = cls(secrets.token_bytes(32), store.local_path(VAULT_FILE), _locale(store))
            env_key = _env_key()
            if env_key is not None:
                vault.key = env_key
        vault.store = store
        return vault

    @classmethod
    def load(cls, store: Store) -> Vault | None:
        """The store's vault, or None when it has none yet (never creates one)."""
        path = store.local_path(VAULT_FILE)
        if not path.exists():
            return None
        return cls.read(path, _locale(store))

    @classmethod
    def read(cls, path: Path, locale: str = "en_US") -> Vault:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("format") != VAULT_FORMAT or data.get("version") != 1:
                raise ValueError("not a curator vault")
            key = base64.b64decode(data["key"], validate=True)
            rows = [(str(k), str(o), str(p)) for k, o, p in data["entries"]]
            decided = [(str(k), str(o)) for k, o in data.get("decided", [])]
            forgotten = [str(w) for w in data.get("forgotten", [])]
            mac = str(data["mac"])
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise CuratorError(
                f"pseudonym vault {path} is corrupt ({error}); restore it from a backup"
            ) from None
        env_key = _env_key()
        if env_key is not None and not hmac.compare_digest(env_key, key):
            raise CuratorError(
                f"pseudonym vault {path} was made with a different key than ${KEY_ENV}"
            )
        if len(key) < 16 or not hmac.compare_digest(mac, _mac(key, rows, decided, forgotten)):
            raise CuratorError(
                f"pseudonym vault {path} does not match its key (wrong key or tampered file)"
            )
        vault = cls(key, path, locale)
        for kind, original, pseudonym in rows:
            vault._add(Entry(kind, original, pseudonym))
        vault._decided.update(decided)
        vault._forgotten.update(forgotten)
        vault.stored = len(vault._entries)
        return vault

    def save(self) -> None:
        """Write the vault with mode 0600: inside the store's open transaction, with the
        fixtures it is saved for (or not at all), else atomically now."""
        if self.path is None:
            raise CuratorError("this vault has no file to save to")
        self._merge_from_disk(self.path)
        rows = [(e.kind, e.original, e.pseudonym) for e in self._entries.values()]
        decided, forgotten = sorted(self._decided), sorted(self._forgotten)
        data: dict[str, object] = {
            "format": VAULT_FORMAT,
            "version": 1,
            "key": base64.b64encode(self.key).decode(),
            "entries": [list(row) for row in rows],
        }
        if decided or forgotten:  # a vault without decisions keeps the bytes it always had
            data["decided"] = [list(pair) for pair in decided]
            data["forgotten"] = forgotten
        data["mac"] = _mac(self.key, rows, decided, forgotten)
        text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
        if self.store is not None:
            self.store.write_file(self.path, text.encode("utf-8"), mode=0o600)
        else:
            atomic.write_text(self.path, text, mode=0o600)

    def _merge_from_disk(self, path: Path) -> None:
        """Keep entries another curator process saved since we loaded (callers should hold the
        store lock, but a lost entry would orphan a fixture's pseudonyms, so never drop one)."""
        if not path.exists():
            return
        on_disk = Vault.read(path, self.locale)
        if not hmac.compare_digest(on_disk.key, self.key):
            raise CuratorError(f"pseudonym vault {path} was replaced by one with another key")
        for key, entry in on_disk._entries.items():
            ours = self._entries.get(key)
            owner = self._used.get(normal(entry.pseudonym))
            if ours is None and owner in (None, normal(entry.original)):
                self._add(entry)
            elif ours is None or ours.pseudonym != entry.pseudonym and key not in self._rewritten:
                raise CuratorError(
                    f"pseudonym vault {self.path} changed under this command (a {entry.kind} got "
                    "another pseudonym); nothing was saved, run it again"
                )
        self._decided |= on_disk._decided
        self._forgotten |= on_disk._forgotten

    # ------------------------------------------------------------ reading

    def __len__(self) -> int:
        return len(self._entries)

    def originals(self) -> list[str]:
        return [e.original for e in self._entries.values()]

    def entries(self) -> list[Entry]:
        return list(self._entries.values())

    def added_since(self, count: int) -> list[Entry]:
        """The entries added after the first `count` (indexes of a vault grow with it)."""
        return self._added[count:]

    @property
    def added(self) -> int:
        return len(self._added)

    def lookup(self, original: str, kind: str) -> str | None:
        entry = self._entries.get((kind, normal(original)))
        if entry is None:
            return self._derived(original, kind)
        return gen.match_case(original, entry.pseudonym)

    def _derived(self, original: str, kind: str) -> str | None:
        """A long random id's pseudonym, computed (derived_ids.py); itself when it is one
        already (a second pass), as a stored id's pseudonym is never redrawn either."""
        if kind != "id" or not derived_ids.derivable(original):
            return None
        if derived_ids.is_derived(self.key, original):
            return original
        return derived_ids.derive(self.key, original)

    def is_pseudonym(self, text: str) -> bool:
        """True when `text` is (case-insensitively) a pseudonym this vault handed out, with
        any separators between its words: the rewriter keeps the original's ("Wade-Owens"
        becomes "Spears-Media" for the pseudonym "Spears Media", see rewrite.keep_gaps); or an
        id it derived."""
        return (
            normal(text) in self._used
            or normal(" ".join(TOKEN.findall(text))) in self._used
            or derived_ids.is_derived(self.key, text)
        )

    def may_start_an_address_pseudonym(self, char: str) -> bool:
        """False when no address pseudonym starts with a word whose first letter or digit is
        `char`: the quick test made of every word at a text's end before
        `starts_an_address_pseudonym` (an ASCII character normalises to itself in lower case;
        any other is left to the full test)."""
        return not char.isascii() or char.lower() in self._address_openings

    def starts_an_address_pseudonym(self, text: str) -> bool:
        """True when some address pseudonym begins with `text` (normalised)."""
        prefix = normal(text)
        if prefix.isalnum():  # one word, as is asked of every word at a text's end: a set lookup
            return prefix in self._address_openings
        k = bisect.bisect_left(self._address_pseudonyms, prefix)
        return k < len(self._address_pseudonyms) and self._address_pseudonyms[k].startswith(prefix)

    def is_pseudonym_token(self, token: str) -> bool:
        return token.casefold() in self._pseudonym_tokens

    def near_pseudonym_token(self, token: str) -> bool:
        """True when `token` is a pseudonym word or a few edits from one (a third of its
        letters): what OCR noise makes of one ("Rss" of "Ross")."""
        from rapidfuzz import process
        from rapidfuzz.distance import Levenshtein

        word = token.casefold()
        return (
            self.is_pseudonym_token(word)
            or process.extractOne(
                word,
                self._pseudonym_tokens,
                scorer=Levenshtein.distance,
                score_cutoff=max(1, len(word) // 3),
            )
            is not None
        )

    def known_at(self, original: str, kind: str, until: int | None) -> bool:
        """True when the vault knew `original` while it held `until` entries (None: now).

        A vault only ever gains entries, so a fixture that records how many entries the vault
        held when it anonymised it is judged against exactly the originals known then."""
        key = (kind, normal(original))
        if key[1] in self._forgotten:
            return False
        position = self._positions.get(key)
        return position is not None and (until is None or position < until or key in self._decided)

    def is_original_token(self, token: str, until: int | None = None) -> bool:
        """True when `token` is a word of a name original; with `until`, only of one the vault
        knew when it held `until` entries (what a fixture anonymised then was judged against)."""
        learned = self._name_tokens.get(fold_case_and_accents(token))
        return (
            learned is not None
            and (until is None or learned < until)
            and normal(token) not in self._forgotten
        )

    def _learn_tokens(self, original: str, kind: str) -> None:
        # an e-mail's host names a mail server, not its owner (the host is a domain value of
        # its own): learnt, "example" of "bob@acme-example.com" barred every domain pseudonym
        named = original.rpartition("@")[0] or original if kind == "email" else original
        for token in tokens(named):
            # a legal form a model took for a name ("Acme Inc") would bar every company
            # pseudonym that ends in it; "USA" every address pseudonym of four parts
            if token not in NEVER_NAME_WORDS:
                # without accents, as the audit finds originals: "Lūse" bars the id "luse-3"
                self._name_tokens.setdefault(fold_case_and_accents(token), len(self._entries))

    # ------------------------------------------------------------ the user's decisions

    def decide(self, original: str, kind: str) -> str:
        """`original` is personal wherever it occurs, whatever its context and whenever a
        fixture was anonymised (`curator vault add`); its pseudonym."""
        self._forgotten.discard(normal(original))
        pseudonym = self.pseudonym(original, kind)
        self._decided.add((kind, normal(original)))
        self.generation += 1
        return pseudonym

    def learned_now(self, original: str, kind: str) -> bool:
        """True when this command's input taught the vault `original` (not a stored source)."""
        position = self._positions.get((kind, normal(original)))
        return position is not None and position >= self.stored

    def is_decided(self, original: str, kind: str) -> bool:
        return (kind, normal(original)) in self._decided

    def forget(self, word: str) -> list[Entry]:
        """`word` was never personal (`curator vault forget`): it is no original any more and
        stays as written inside names. Returns the entries whose pseudonym was written for it:
        its own, and the names holding it, whose pseudonyms now keep it as written."""
        key = normal(word)
        own = [e for e in self._entries.values() if normal(e.original) == key]
        self._forgotten.add(key)
        self._decided = {pair for pair in self._decided if pair[1] != key}
        held = []
        for entry in list(self._entries.values()):
            if entry.kind == "person" and key in {normal(w) for w in entry.original.split()}:
                self._add(Entry(entry.kind, entry.original, _keeping(entry, key)))
                self._rewritten.add((entry.kind, normal(entry.original)))
                held.append(entry)
        self.generation += 1
        return own + held

    def is_forgotten(self, word: str) -> bool:
        return normal(word) in self._forgotten

    # ------------------------------------------------------------ the mapping

    def pseudonym(self, original: str, kind: str) -> str:
        """The pseudonym of `original` (made and remembered on first use), cased like it."""
        found = self.lookup(original, kind)
        if found is not None:
            return found
        if not any(c.isalnum() for c in original):
            return original  # punctuation names nobody
        if kind in NAME_KINDS:
            self._learn_tokens(original, kind)
        self._know(original, kind)
        for candidate in self._candidates(original, kind):
            # composites are made of token mappings that were each checked when first made
            if self._acceptable(
                candidate, kind, check_tokens=kind not in COMPOSITE_KINDS, owner=original
            ):
                break
        else:
            raise CuratorError(f"could not find a free pseudonym for a {kind} value")
        self._add(Entry(kind, original, candidate))
        return gen.match_case(original, candidate)

    def reserve(self, original: str, kind: str) -> None:
        """Make `original`'s name tokens off-limits to pseudonyms before any is drawn.

        anonymise() reserves every original it will replace first, so a pseudonym made for
        one user can never be a name that another value in the same input really has."""
        if self.lookup(original, kind) is not None:
            return
        if kind in NAME_KINDS:
            self._learn_tokens(original, kind)
        self._know(original, kind)

    def assign(self, original: str, kind: str, proposal: str) -> str:
        """Record `proposal` as the pseudonym when it is free, else fall back to pseudonym()."""
        found = self.lookup(original, kind)
        if found is not None:
            return found
        if kind in NAME_KINDS:
            self._learn_tokens(original, kind)
        self._know(original, kind)
        if self._acceptable(proposal, kind, owner=original):
            self._add(Entry(kind, original, proposal))
            return gen.match_case(original, proposal)
        return self.pseudonym(original, kind)

    def rng(self, kind: str, original: str, attempt: int = 0) -> random.Random:
        digest = hmac.digest(self.key, f"{kind}\0{normal(original)}\0{attempt}".encode(), "sha256")
        return random.Random(int.from_bytes(digest, "big"))

    def _acceptable(
        self, candidate: str, kind: str, *, owner: str, check_tokens: bool = True
    ) -> bool:
        key = normal(candidate)
        if not key or key in self._originals:
            return False
        # one pseudonym per original: "Costa" as a surname and as a name used alone may share
        if key in self._used and self._used[key] != normal(owner):
            return False
        local = candidate.rpartition("@")[0] if kind == "email" else candidate
        if kind in ("username", "email") and ends_in_a_domain(local):
            return False  # "reed.bb" would be read as a host by the URL finder
        if self._spells_an_original(candidate, owner, shortest=1 if check_tokens else 2):
            return False
        # a file keeps its original's extension: only the drawn stem can hold a name word
        drawn = (candidate.rpartition(".")[0] or candidate) if kind == "file" else candidate
        return not check_tokens or not any(
            fold_case_and_accents(t) in self._name_tokens for t in tokens(drawn)
        )

    def _know(self, original: str, kind: str) -> None:
        self._originals.add(normal(original))
        spelling = search_key(original, kind)
        if spelling is not None:
            self._spellings.add(spelling)

    def _spells_an_original(self, candidate: str, owner: str, *, shortest: int) -> bool:
        """True when a run of at least `shortest` of the candidate's words has the letters of
        an original, as the terms index reads them: "Kali" and "Ka Li" are "k.ali". A
        composite asks for runs of two: each of its words was checked when it was drawn, and
        one original learnt since would otherwise bar every later composite holding it. A run
        of words the owner itself holds (a reserved host, a title) was not drawn, nor a word every
        pseudonym of a kind holds ("USA" of an address): a noisy original of it bars none."""
        words = [fold_case_and_accents(t) for t in TOKEN.findall(candidate)]
        own = {fold_case_and_accents(t) for t in TOKEN.findall(owner)}
        return any(
            "".join(words[i:j]) in self._spellings
            and not own.issuperset(words[i:j])
            and not NEVER_NAME_WORDS.issuperset(words[i:j])
            for i in range(len(words))
            for j in range(i + shortest, len(words) + 1)
        )

    def _add(self, entry: Entry) -> None:
        if entry.kind in NAME_KINDS:
            # before it counts: its own entry knows it
            self._learn_tokens(entry.original, entry.kind)
        key = (entry.kind, normal(entry.original))
        self._positions.setdefault(key, len(self._entries))
        replaced = self._entries.get(key)
        if replaced is not None and replaced.kind == "address":
            replaced_pseudonym = normal(replaced.pseudonym)
            self._address_pseudonyms.remove(replaced_pseudonym)
            self._address_openings.subtract(_openings(replaced_pseudonym))
            for gone in [k for k, count in self._address_openings.items() if count <= 0]:
                del self._address_openings[gone]  # membership is the test
        self._entries[key] = entry
        self._added.append(entry)
        pseudonym = normal(entry.pseudonym)
        if entry.kind == "address":
            bisect.insort(self._address_pseudonyms, pseudonym)
            self._address_openings.update(_openings(pseudonym))
        self._used.setdefault(pseudonym, normal(entry.original))
        self._know(entry.original, entry.kind)
        if entry.kind in PERSON_WORD_KINDS:
            self._pseudonym_tokens.update(tokens(entry.pseudonym))

    def _candidates(self, original: str, kind: str) -> Iterator[str]:
        """Pseudonyms to try for `original`, best first: a person's name from a space that
        never runs out (name_space.py), any other value in MAX_ATTEMPTS draws."""
        known = KINDS.get(kind)
        if known is not None and known.draw_names is not None:
            return known.draw_names(original, self.rng(kind, original), self.locale)
        return (self._candidate(original, kind, attempt) for attempt in range(MAX_ATTEMPTS))

    def _candidate(self, original: str, kind: str, attempt: int) -> str:
        if kind == "person":
            return self._person(original, attempt)
        rng = self.rng(kind, original, attempt)
        if kind == "username":
            return self._username(original, rng, attempt)
        if kind == "email":
            return self._email(original, rng, attempt)
        if kind == "url":
            return self._url(original, rng)
        # short ids ("7", "m12") have few values of their shape: past the first draws, longer ones
        if kind == "id":
            return gen.identifier(original, rng) + gen.identifier("0" * (attempt // 8), rng)
        known = KINDS.get(kind)
        if known is not None and known.draw is not None:
            return known.draw(original, rng)
        return gen.generic(original, rng)  # a kind the table does not list

    # composite kinds: built from the per-token mappings, so "Claudio Costa", "claudio"
    # and "claudio.costa" stay consistent with each other wherever they appear.

    def _person(self, original: str, attempt: int) -> str:
        words = original.split()
        name_positions = [i for i, w in enumerate(words) if not self._stays(w)]
        out = []
        for position, word in enumerate(words):
            if self._stays(word):
                out.append(word)
            elif _is_initial(word):
                out.append(
                    self.rng("initial", original, attempt).choice("ABCDEFGHJKLMNPRSTW") + word[1:]
                )
            elif len(name_positions) > 1 and position == name_positions[-1]:
                out.append(self.pseudonym(word, "last_name"))
            elif len(name_positions) == 1:
                out.append(self.pseudonym(word, self._single_name_kind(word)))
            else:
                out.append(self.pseudonym(word, "first_name"))
        if attempt:
            out.insert(-1, self.rng("middle", original, attempt).choice("ABCDEFGHJKLMNPRSTW") + ".")
        return " ".join(out)

    def _stays(self, word: str) -> bool:
        """Titles, particles and forgotten words stay as written in a person's pseudonym."""
        return _is_title(word) or normal(word.rstrip(".,")) in self._forgotten

    def _single_name_kind(self, word: str) -> str:
        """A name used alone ("Costa", "Claudio"): as whatever it already is, else its likeliest
        role."""
        for kind in ("last_name", "first_name"):
            if (kind, normal(word)) in self._entries:
                return kind
        female, male, last = gen.folded_names(self.locale)
        folded = word.casefold()
        if folded in female or folded in male:
            return "first_name"
        if folded in last:
            return "last_name"
        # beyond this locale's Faker lists: "SEN HAWLEY" stays a surname, not "SEN FRANCES"
        data = name_data()
        return "last_name" if data.last.get(folded, 0) > data.first.get(folded, 0) else "first_name"

    def _name_part(self, part: str) -> str:
        """A lowercase name token of a username: follows the person mapping when known."""
        for kind in ("first_name", "last_name", "nickname"):
            found = self._entries.get((kind, part.casefold()))
            if found:
                return found.pseudonym.lower()
        female, male, _ = gen.folded_names(self.locale)
        if part.casefold() in female or part.casefold() in male:
            return self.pseudonym(part, "first_name").lower()
        if len(part) >= 3 or not part.isascii():  # "千代" is a whole given name
            # initial + known last name ("ccosta")
            known_last = self._entries.get(("last_name", part[1:].casefold()))
            if known_last is not None:
                return part[0].lower() + known_last.pseudonym.lower()
            return self.pseudonym(part, "last_name").lower()
        return "".join(self.rng("letter", part).choice("abcdefghjkmnprstw") for _ in part)

    def _username(self, original: str, rng: random.Random, attempt: int) -> str:
        pieces = []
        for part in _parts(original):
            if part.isalpha() or not part.isdigit() and _class(part[0]) == "letter":
                pieces.append(gen.match_case(part, self._name_part(part)))
            elif part.isdigit():
                pieces.append(gen.digits_like(part, rng))
            else:
                pieces.append(part)
        candidate = "".join(pieces)
        return candidate + (str(rng.randrange(10, 99)) if attempt else "")

    def _email(self, original: str, rng: random.Random, attempt: int) -> str:
        local, _, host = original.rpartition("@")
        if not local:
            return self._username(original, rng, attempt) + "@example.com"
        new_local = (
            self.pseudonym(local, "username")
            if attempt == 0
            else self._username(local, rng, attempt)
        )
        new_host = host if gen.is_reserved("domain", host) else self.pseudonym(host, "domain")
        return f"{new_local}@{new_host}"

    def _url(self, original: str, rng: random.Random) -> str:
        scheme, sep, rest = original.partition("://")
        if not sep:
            scheme, rest = "", original
        host = re.split(r"[/?#]", rest, maxsplit=1)[0]
        tail = rest[len(host) :]
        new_host = (
            host if gen.is_reserved("domain", host) else self.pseudonym(host.lower(), "domain")
        )
        return (scheme + sep if sep else "") + new_host + gen.digits_like(tail, rng)


def _keeping(entry: Entry, word: str) -> str:
    """A person's pseudonym with the original's `word` (normal) back where it stood."""
    originals, pseudonyms = entry.original.split(), entry.pseudonym.split()
    middle = len(pseudonyms) == len(originals) + 1  # a later attempt's middle initial
    aligned = pseudonyms[:-2] + pseudonyms[-1:] if middle else pseudonyms
    kept = [
        o if normal(o.rstrip(".,")) == word else p for o, p in zip(originals, aligned, strict=False)
    ]
    if middle:
        kept.insert(-1, pseudonyms[-2])
    return " ".join(kept)


def _is_initial(word: str) -> bool:
    """ "K", "K.": one character, but for an uncased letter: a CJK name of one character
    ("森") is a name, not an initial."""
    letter = word.rstrip(".")
    return len(letter) == 1 and not (letter.isalpha() and letter.upper() == letter.lower())


def _class(char: str) -> str:
    # a combining mark is part of its letter's word ("วิเชียร", "Renée" in NFD)
    if char.isalpha() or unicodedata.category(char).startswith("M"):
        return "letter"
    return "digit" if char.isdigit() else "other"


def _parts(text: str) -> list[str]:
    """A username's runs of letters (of any script), digits and the rest: "Гедеон.Лобанов77"
    -> "Гедеон", ".", "Лобанов", "77"."""
    return ["".join(run) for _, run in itertools.groupby(text, _class)]


def _is_title(word: str) -> bool:
    """Titles, suffixes and surname particles stay as written in a pseudonym."""
    folded = word.rstrip(".,").casefold()
    return folded in TITLES or folded in NAME_PARTICLES


def _mac(
    key: bytes,
    rows: list[tuple[str, str, str]],
    decided: Sequence[tuple[str, str]] = (),
    forgotten: Sequence[str] = (),
) -> str:
    signed: object = rows
    if decided or forgotten:  # a vault without decisions keeps the MAC it always had
        signed = [rows, [list(pair) for pair in decided], list(forgotten)]
    canonical = json.dumps(signed, ensure_ascii=False, separators=(",", ":")).encode()
    return hmac.new(key, b"curator-vault\0" + canonical, hashlib.sha256).hexdigest()


def _env_key() -> bytes | None:
    value = os.environ.get(KEY_ENV)
    if not value:
        return None
    try:
        return base64.b64decode(value, validate=True)
    except ValueError:
        raise CuratorError(f"${KEY_ENV} is not base64") from None


def _locale(store: Store) -> str:
    try:
        return store.config.store.locale
    except CuratorError:
        return "en_US"
