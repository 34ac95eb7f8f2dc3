"""What the user decided is not personal data: terms kept as written, public hosts; and
whether places are (`generalise_places`).

`[anonymise]` in curator.toml (`keep`, `keep_hosts`, `generalise_places`) and `curator
import --keep TERM` for one run. The definition of personal data (personal.py) lets what
they cover stand and records which ones did, so the fixture's provenance carries the
decision and the audit does not take it for a miss.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from curator.anonymise.pseudonyms import url_host
from curator.anonymise.terms import TermIndex
from curator.model import AnonymiseSettings


@dataclass(frozen=True)
class Keep:
    """What the user decided is not personal: terms kept as written, public hosts.

    A span that overlaps a kept term is kept (a detected "Linn Electronics" when "Linn" is
    kept); a URL whose host is a kept host, or under one, keeps its host while names, ids
    and e-mails in its path are still judged on their own. With `places`, every place a
    text names is personal too (finders.places.places_in), and replaced by its kind.
    """

    terms: tuple[str, ...] = ()
    hosts: tuple[str, ...] = ()
    places: bool = False
    index: TermIndex = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "index", TermIndex((term, "kept") for term in self.terms if term.strip())
        )

    def kept_spans(self, text: str) -> list[tuple[int, int, str]]:
        return [(m.start, m.end, m.term.original) for m in self.index.find(text)]

    def host_of(self, url: str) -> str | None:
        """The kept host this URL is on, or None."""
        host = url_host(url.lower())
        for kept in self.hosts:
            kept = kept.lower().strip(".")
            if kept and (host == kept or host.endswith("." + kept)):
                return kept
        return None

    def merged(self, terms: Iterable[str] = (), hosts: Iterable[str] = ()) -> Keep:
        return Keep(
            tuple(dict.fromkeys([*self.terms, *terms])),
            tuple(dict.fromkeys([*self.hosts, *hosts])),
            self.places,
        )

    @classmethod
    def of(cls, settings: AnonymiseSettings, terms: Iterable[str] = ()) -> Keep:
        """The store's `[anonymise]` settings plus terms kept for one run (`--keep`)."""
        return cls(
            tuple(dict.fromkeys(t.strip() for t in [*settings.keep, *terms] if t.strip())),
            tuple(settings.keep_hosts),
            settings.generalise_places,
        )


NOTHING_KEPT = Keep()


@dataclass
class Used:
    """The kept terms and hosts that stood in a text: recorded in the fixture's provenance."""

    terms: set[str] = field(default_factory=set)
    hosts: set[str] = field(default_factory=set)
