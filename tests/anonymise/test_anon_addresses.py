"""Street addresses of many countries, one line or several: sentences written for this test."""

from __future__ import annotations

import re

import pytest

from curator.anonymise.finders.addresses import find_addresses
from curator.anonymise.finders.detector import Detector


def addresses(text: str) -> list[str]:
    return [text[s:e] for s, e, _ in find_addresses(text)]


@pytest.mark.parametrize(
    "text, address",
    [
        ("Office: 4500 SW 8th St, Miami, FL 33130", "4500 SW 8th St, Miami, FL 33130"),
        (
            "send to 500 Main St #12, Springfield, IL 62701 asap",
            "500 Main St #12, Springfield, IL 62701",
        ),
        ("350 5th Avenue, New York, NY 10118", "350 5th Avenue, New York, NY 10118"),
        (
            "The Old Mill, Church Lane, Little Snoring, Norfolk NR21 0AA",
            "The Old Mill, Church Lane, Little Snoring, Norfolk NR21 0AA",
        ),
        ("10 Downing Street London SW1A 2AA", "10 Downing Street London SW1A 2AA"),
        (
            "1234, boul. René-Lévesque Ouest, Montréal (Québec)  H3B 4W8",
            "1234, boul. René-Lévesque Ouest, Montréal (Québec)  H3B 4W8",
        ),
        ("Level 5, 100 George St, Sydney NSW 2000", "Level 5, 100 George St, Sydney NSW 2000"),
        ("3/45 Smith Street, Bondi NSW 2026", "3/45 Smith Street, Bondi NSW 2026"),
        (
            "Plot No. 12, Sector 44, Gurugram, Haryana 122003",
            "Plot No. 12, Sector 44, Gurugram, Haryana 122003",
        ),
        ("12/3, MG Road, Bengaluru - 560001", "12/3, MG Road, Bengaluru - 560001"),
        (
            "Siège : 8 rue de la Paix, 75002 Paris Cedex 02",
            "8 rue de la Paix, 75002 Paris Cedex 02",
        ),
        ("Musterstraße 12a, 3. OG, 10115 Berlin", "Musterstraße 12a, 3. OG, 10115 Berlin"),
        ("Alte Landstraße 5, 85521 Ottobrunn", "Alte Landstraße 5, 85521 Ottobrunn"),
        ("Stephansplatz 1/2/3, 1010 Wien", "Stephansplatz 1/2/3, 1010 Wien"),
        ("Keizersgracht 123, 1015 CJ Amsterdam", "Keizersgracht 123, 1015 CJ Amsterdam"),
        ("Damrak 1\n1012 LG Amsterdam", "Damrak 1\n1012 LG Amsterdam"),
        ("Van Baerlestraat 27, 1071 AN Amsterdam", "Van Baerlestraat 27, 1071 AN Amsterdam"),
        ("Rue de la Loi 16, 1000 Bruxelles", "Rue de la Loi 16, 1000 Bruxelles"),
        ("C/ Mayor, 12, 3º izq., 28013 Madrid", "C/ Mayor, 12, 3º izq., 28013 Madrid"),
        (
            "Paseo de la Castellana 259, 2ª planta, 28046 Madrid",
            "Paseo de la Castellana 259, 2ª planta, 28046 Madrid",
        ),
        (
            "Av. Paseo de la Reforma 505, Col. Cuauhtémoc, C.P. 06500, Ciudad de México",
            "Av. Paseo de la Reforma 505, Col. Cuauhtémoc, C.P. 06500, Ciudad de México",
        ),
        ("Via Roma 10, 00184 Roma RM", "Via Roma 10, 00184 Roma RM"),
        (
            "Jane Doe\n123 Main St\nApt 4\nSpringfield, IL 62701\nUSA",
            "123 Main St\nApt 4\nSpringfield, IL 62701",
        ),
        (
            "Flat 1\n2 Station Road\nCambridge\nCB1 2JW",
            "Flat 1\n2 Station Road\nCambridge\nCB1 2JW",
        ),
        ("Rua Augusta 100, 1100-048 Lisboa", "Rua Augusta 100, 1100-048 Lisboa"),
        (
            "Av. Paulista, 1578 - Bela Vista, 01310-200 São Paulo - SP",
            "Av. Paulista, 1578 - Bela Vista, 01310-200 São Paulo - SP",
        ),
        ("12 Grafton Street, Dublin 2, D02 XY45", "12 Grafton Street, Dublin 2, D02 XY45"),
        ("my address is 42 Wallaby Way, Sydney", "42 Wallaby Way, Sydney"),
        ("meet me at 77 Massachusetts Ave. tomorrow", "77 Massachusetts Ave."),
        ("We sold 12 Main Street properties", "12 Main Street"),
        ("12 rue Saint-Honoré\n75001 Paris\nFrance", "12 rue Saint-Honoré\n75001 Paris"),
        (
            "Ship to: 221 Juniper Court, Apt 3B, Savannah, GA 31405, attention Ana",
            "221 Juniper Court, Apt 3B, Savannah, GA 31405",
        ),
        (
            "Bât. C, 4 allée des Ormes\n33600 Pessac\nFrance",
            "Bât. C, 4 allée des Ormes\n33600 Pessac",
        ),
        (
            "Avda. Diagonal 640, 4º 1ª\n08017 Barcelona",
            "Avda. Diagonal 640, 4º 1ª\n08017 Barcelona",
        ),
        (
            "B-12, Sector 62, Noida, Uttar Pradesh 201309",
            "B-12, Sector 62, Noida, Uttar Pradesh 201309",
        ),
        ("1-4-9 Shibuya, Shibuya-ku, Tokyo 150-0002", "1-4-9 Shibuya, Shibuya-ku, Tokyo 150-0002"),
        (
            "Calle Corrientes 1234, piso 5, C1043AAZ Buenos Aires",
            "Calle Corrientes 1234, piso 5, C1043AAZ Buenos Aires",
        ),
        # USPS suffixes beyond the everyday ones
        ("the leak at 4417 Okafor Springs Suite 210 is back", "4417 Okafor Springs Suite 210"),
        ("Tenant at 88 Lindqvist Burg reports mould", "88 Lindqvist Burg"),
        (
            "mail it to 905 Harrow Crossing, Dayton, OH 45402",
            "905 Harrow Crossing, Dayton, OH 45402",
        ),
    ],
)
def test_addresses_through_postcode_and_city(text, address):
    assert address in addresses(text)


@pytest.mark.parametrize(
    "text",
    [
        "In 2024 Microsoft shipped 3 Windows updates",
        "Chapter 3, Section 4, page 12",
        "the release 2.0, build 1234 Linux",
        "Tell Omar the Harbour Street site passed inspection",
        "Sector 7 is closed; 2024 Microsoft licences renewed",
        "We bought 3 Keys and 2 Locks; meet at 4 Station",
        # a unit word opening a longer word is no unit ("Fl" in Flynn, "No" in Nobody, "Unit" in
        # United)
        "ask Flynn at 5189 about it",
        "Nobody, 75001 Paris included, was told",
        "United at 4521 Marsh got the keys",
    ],
)
def test_numbers_and_street_words_alone_are_no_address(text):
    assert addresses(text) == []


def test_an_address_swallows_its_postcode_and_names_in_it_when_rewritten():
    text = "Livraison : 45 rue Victor-Hugo, 92120 Montrouge"
    hits = Detector().detect(text)
    address = [h for h in hits if h.kind == "address"]
    assert [text[h.start : h.end] for h in address] == ["45 rue Victor-Hugo, 92120 Montrouge"]
    # whatever else matched inside it (a person "Victor-Hugo") is shorter: the rewriter keeps the
    # longest
    assert all(
        h.end - h.start < address[0].end - address[0].start for h in hits if h is not address[0]
    )


# A unit or a street without a number opens an address only before a postcode; one postcode
# of each shape without four digits in a row (addresses.POSTCODE_CORE gates these openers).
OPENED_BEFORE_A_POSTCODE = [
    "Flat 2, Port Credit, Mississauga, ON L5G 1E2",
    "Unit 5, Ecclesall Road, Sheffield S7 1QT",
    "Plot 7, Koramangala, Bengaluru 560 038",
    "Apt 3, Grafton Court, Dublin, D02 X285",
    "Lokal 4, Hoża, 00-950 Warszawa",
]


@pytest.mark.parametrize("text", OPENED_BEFORE_A_POSTCODE)
def test_a_unit_opens_an_address_before_a_postcode_of_any_shape(text):
    assert addresses(f"write to {text} by Friday") == [text]


def test_a_pattern_skipped_for_want_of_its_words_would_have_found_nothing():
    """Street patterns run only on texts holding a word of their list (addresses.STREET_GATES):
    running every pattern on every text finds the same addresses, on the labelled PII set's
    texts as written, in capitals and in lower case (the case-blind lists), and on the cases
    of this file."""
    from curator.anonymise.finders import addresses as module
    from tests.data.pii import scoring

    texts = [r["text"] for split in ("dev", "test") for r in scoring.load(split)] + [
        "4500 SW 8th St",
        "12 RUE DE LA PAIX",
        "calle de alcalá 214",
        "Hauptstr. 118a",
        "HAUPTSTRASSE 5",
        "Am Mühlbach 7",
        "P.O. Box 1182",
        "POBox 12",
        "G.P.O. Box 5",
        "B.P. 44",
        "c/ mayor 12",
        "Gran Vía 28",
        "Keizersgracht 123",
        "Schönbrunner Straße 40",
        "3 Bluffs Road",
        "4 Bluff Road",
        *OPENED_BEFORE_A_POSTCODE,
    ]
    texts += [t.upper() for t in texts] + [t.lower() for t in texts]
    gated = [find_addresses(t) for t in texts]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, "STREET_GATES", [module._always] * len(module.STREETS))
        patch.setattr(module, "OPENER_GATES", [module._always] * len(module.OPENERS))
        patch.setattr(module, "POSTCODE_CORE", re.compile(""))
        ungated = [find_addresses(t) for t in texts]
    assert gated == ungated
    assert sum(map(bool, gated)) > 200  # the texts hold addresses to find
