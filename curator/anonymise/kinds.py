"""Every kind of value the anonymiser knows, in one table: which Presidio entities are found
as it, which wins when two hits cover the same characters, what draws its pseudonym, and how
the rules that decide what is personal treat it.

A kind's name is what the vault stores beside each original ("person", "email"), so names
never change. Every other module reads the table, through the sets at the end of this file
or `KINDS`; a value of a kind not in it ("encoded", a kept term) is ranked last and drawn
by `pseudonyms.generic`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from curator.anonymise import pseudonyms as gen

UNRANKED = 99  # the priority of a kind no detector finds


@dataclass(frozen=True)
class Kind:
    name: str
    # the Presidio entities a detector reports values of this kind as
    entities: tuple[str, ...] = ()
    # when two hits cover the same characters, the lower number names the value: the more
    # specific one (checksummed, structured), so "4111 1111 1111 1111" is a card, not a phone
    priority: int = UNRANKED
    # its pseudonym, drawn from the rng alone; or, for a person's name, its candidates in the
    # vault's locale, best first and never ending (name_space.py); neither for the kinds the
    # vault builds itself (`composite`, and ids, whose rule counts attempts)
    draw: Callable[[str, random.Random], str] | None = None
    draw_names: Callable[[str, random.Random, str], Iterator[str]] | None = None
    # its pseudonym is made of its words' ("Claudio Costa", "claudio.costa" and "claudio"
    # stay consistent), each checked when first made
    composite: bool = False
    # its originals name people: their words may never appear in any pseudonym
    names_people: bool = False
    # its pseudonyms' words stand for people: only they make a name hit a pseudonym
    # ("Spencer" in "Spencer Clemente"); a street's or company's words ("Morris" of "5056
    # Morris Road") are surnames too, and would disguise a real "JOHN MORRIS"
    person_words: bool = False
    # a given, family or nick name alone: searched even when short ("Vo", "Li"), and in
    # another vault's fixture only whole values count (its pseudonym may share our "Andrea")
    name_part: bool = False
    # without the vault a pseudonymised value cannot be told from a real one, so its hits
    # are judged only with the vault (pattern PII sits in reserved ranges and needs none)
    needs_vault: bool = False
    # a hit may stand inside a pseudonym ("Morris" of "5056 Morris Road")
    disguisable: bool = False
    # hunted in free text; a job title ("Engineer") or a URL is rewritten where it stands
    # (a user record's field) but every "engineer" in a thread is no leak
    searched: bool = True
    # its pseudonyms are made of words: an original found inside one ("Maintenance" in the
    # job title "Maintenance engineer") or a name read in one ("summer" of
    # "dave.lang@north-summer.example") is that pseudonym's word
    worded: bool = False
    # the label field type (curator.model.FieldType) whose values are pseudonymised whole
    # as this kind, even where no detector sees one ("Waterman" alone as the tenant)
    field_type: str | None = None


KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind(
            "email", ("EMAIL_ADDRESS",), priority=0, composite=True, names_people=True, worded=True
        ),
        Kind("credit_card", ("CREDIT_CARD",), priority=1, draw=gen.credit_card),
        Kind("iban", ("IBAN_CODE",), priority=2, draw=gen.iban),
        Kind("ip", ("IP_ADDRESS",), priority=3, draw=gen.ip_address),
        Kind("ssn", ("US_SSN",), priority=4, draw=gen.ssn),
        Kind("national_id", ("UK_NINO",), priority=5, draw=gen.identifier),
        Kind("url", ("URL",), priority=6, composite=True, searched=False, worded=True),
        Kind("phone", ("PHONE_NUMBER",), priority=7, draw=gen.phone),
        Kind(
            "person",
            ("PERSON",),
            priority=8,
            composite=True,
            names_people=True,
            person_words=True,
            needs_vault=True,
            disguisable=True,
            worded=True,
            field_type="person",
        ),
        Kind(
            "organisation",
            ("ORGANIZATION",),
            priority=9,
            draw=gen.organisation,
            needs_vault=True,
            disguisable=True,
            worded=True,
            field_type="organisation",
        ),
        Kind(
            "address",
            ("LOCATION", "STREET_ADDRESS"),
            priority=10,
            draw=gen.address,
            needs_vault=True,
            disguisable=True,
            worded=True,
            field_type="address",
        ),
        Kind(
            "first_name",
            draw_names=gen.first_names,
            names_people=True,
            person_words=True,
            name_part=True,
        ),
        Kind(
            "last_name",
            draw_names=gen.last_names,
            names_people=True,
            person_words=True,
            name_part=True,
        ),
        Kind(
            "nickname",
            draw_names=gen.nicknames,
            names_people=True,
            person_words=True,
            name_part=True,
        ),
        Kind(
            "username",
            composite=True,
            names_people=True,
            person_words=True,
            needs_vault=True,
            worded=True,
        ),
        Kind("id"),
        Kind("domain", draw=gen.domain, worded=True),
        Kind("position", draw=gen.position, searched=False, worded=True),
        Kind("channel", draw=gen.slug_words, worded=True),
        Kind("team", draw=gen.slug_words, worded=True),
        Kind("file", draw=gen.file_name),
        # a label author (a login, $CURATOR_AUTHOR, a Label Studio e-mail): short logins are
        # everyday words ("lead"), so the original is looked for only where authors stand
        Kind("reviewer", draw=gen.reviewer, searched=False),
        Kind("number", draw=gen.digits_like),
    )
}

_BY_ENTITY = {entity: kind.name for kind in KINDS.values() for entity in kind.entities}


def entity_kind(entity: str) -> str:
    """The kind of a Presidio entity's values; "generic" for an entity no kind lists."""
    return _BY_ENTITY.get(entity, "generic")


def priority(kind: str) -> int:
    known = KINDS.get(kind)
    return known.priority if known is not None else UNRANKED


def _named(test: Callable[[Kind], bool]) -> frozenset[str]:
    return frozenset(kind.name for kind in KINDS.values() if test(kind))


NAME_KINDS = _named(lambda kind: kind.names_people)
COMPOSITE_KINDS = _named(lambda kind: kind.composite)
PERSON_WORD_KINDS = _named(lambda kind: kind.person_words)
NAME_PART_KINDS = _named(lambda kind: kind.name_part)
VAULT_ONLY_KINDS = _named(lambda kind: kind.needs_vault)
DISGUISABLE_KINDS = _named(lambda kind: kind.disguisable)
UNSEARCHED_KINDS = _named(lambda kind: not kind.searched)
WORDED_KINDS = _named(lambda kind: kind.worded)
# label field type -> the kind its values are pseudonymised as
FIELD_KINDS = {kind.field_type: kind.name for kind in KINDS.values() if kind.field_type is not None}
