"""Every finder, in the order the detector runs them.

Order matters: the phone finder runs after every other number-shaped one, so a window
already claimed by a checksummed card, an IBAN, an IP address or an SSN is not read again.
Local phones (a phone's word, label or bracketed area code around digits no plan holds)
come after the phones of the known plans, whose longer hits win an overlap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from curator.anonymise.finders.addresses import STREET_ADDRESSES
from curator.anonymise.finders.names import PEOPLE
from curator.anonymise.finders.numbers import CARDS, IBANS, LOCAL_PHONES, PHONES
from curator.anonymise.finders.patterns import EMAILS, IPS, NINOS, SSNS, URLS
from curator.anonymise.finders.presidio import offline_environment

if TYPE_CHECKING:
    from presidio_analyzer import EntityRecognizer

FINDERS = (
    EMAILS,
    STREET_ADDRESSES,
    CARDS,
    IBANS,
    IPS,
    URLS,
    SSNS,
    NINOS,
    PHONES,
    LOCAL_PHONES,
    PEOPLE,
)
ENTITIES = tuple(dict.fromkeys(finder.entity for finder in FINDERS))  # phones: two finders


def presidio_recognizers() -> list[EntityRecognizer]:
    """The recognizers of every finder, set up to never touch the network: what Presidio's
    own AnalyzerEngine runs to find what curator finds."""
    offline_environment()
    return [recognizer for finder in FINDERS for recognizer in finder.build()]
