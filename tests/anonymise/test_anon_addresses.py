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


# Shapes of the world's addresses (presidio-evaluator's FakeNameGenerator records and Faker's
# locales show them; these sentences are written for this test)
@pytest.mark.parametrize(
    "text, address",
    [
        ("write to PSC 2581, Box 0041, APO AP 32376 today", "PSC 2581, Box 0041, APO AP 32376"),
        ("Unit 5022 Box 1225, DPO AE 44085", "Unit 5022 Box 1225, DPO AE 44085"),
        ("USNS Brown\nFPO AA 93414", "USNS Brown\nFPO AA 93414"),
        ("sent to Fitjabraut 10, 230 Keflavík", "Fitjabraut 10, 230 Keflavík"),
        ("Gerda Sjöbergin polku 3\n31882 Petäjävesi", "Gerda Sjöbergin polku 3\n31882 Petäjävesi"),
        ("Tamásiváradi utca 170.\nH-9128 Háthalas", "Tamásiváradi utca 170.\nH-9128 Háthalas"),
        ("Κορομπόκη 3,\n74068 Ρόδος", "Κορομπόκη 3,\n74068 Ρόδος"),
        ("Grammova 8\n777 63 Blovice", "Grammova 8\n777 63 Blovice"),
        ("ul. Krasickiego 12\n84-555 Łódź", "ul. Krasickiego 12\n84-555 Łódź"),
        ("lives at 7300 Tavcarjeva 44, Celje", "7300 Tavcarjeva 44, Celje"),
        (
            "at 8016 121 Nelson Street Apt. 057 Hamilton East",
            "8016 121 Nelson Street Apt. 057 Hamilton East",
        ),
        (
            "the corner of Pod Strání 1626 and Tomaszewska Throughway",
            "corner of Pod Strání 1626 and Tomaszewska Throughway",
        ),
        (
            "6819 Sonnenweg 23 Suite 755 Maules Switzerland",
            "6819 Sonnenweg 23 Suite 755 Maules Switzerland",
        ),
        ("12 Elm Street\nAmersfoort\n, UT\n 94898", "12 Elm Street\nAmersfoort\n, UT\n 94898"),
        # lower case, through a capitalised view
        ("meet me at unit 3464 box 4797\ndpo ap 05647", "unit 3464 box 4797\ndpo ap 05647"),
        ("65336 hafnarbraut 75, bismark, germany", "65336 hafnarbraut 75, bismark, germany"),
        ("i live at 12 main street now", "12 main street"),
        # between two numbers a street may open with a word English also has ("Via", "An")
        ("911 an der schütt 54, 47228 vesuviano", "911 an der schütt 54, 47228 vesuviano"),
        ("62409 Via Nizza 60, GROSSWEIKERSDORF", "62409 Via Nizza 60, GROSSWEIKERSDORF"),
    ],
)
def test_addresses_of_more_countries_scripts_and_cases(text, address):
    assert address in addresses(text)


@pytest.mark.parametrize(
    "text",
    [
        "Spring 2024 release notes",  # ends like a street ("-ring"), is an everyday word
        "Brigade 7 moved north",
        "In 2019 Windows 10 shipped",
        "i have 3 main points to make",  # lower case: no street word, one number
        "we shipped 3 new releases on 12 june",
        "06/30/2015 0 8 / 2 9 / 2 0 15 Leidos El Segundo 72 Layoff Permanent",  # a table row
        "SECRETARY OF STATE NO 108 DAYAN MATHAI 175 MICHAEL P RIVES 67",  # a tabulation
        "Acme Slack export Jan 1 2023 - Dec 31 2023",  # dates, "2023" no postcode
        "notes from 31 Dec 2023 to May 5 2024",
        # a count and a word before a number: "for" opens no street name (a bot's reply in
        # the compliance export sample, in lower case and Capitalised)
        "+1 for berth 4, high tide at 14:05",
        "Voted 1 For Berth 4.",
    ],
)
def test_everyday_words_tables_and_lower_case_prose_are_no_address(text):
    assert addresses(text) == []
