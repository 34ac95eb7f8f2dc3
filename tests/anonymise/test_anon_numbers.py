"""Cards, IBANs and phone numbers as people write them, through the library detector."""

from __future__ import annotations

import random

import pytest

from curator.anonymise.finders.detector import Detector
from curator.anonymise.finders.numbers import find_cards, find_ibans, iban_valid, luhn_valid
from curator.anonymise.pseudonyms import luhn_digit


@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector()


def kinds(detector: Detector, text: str) -> list[tuple[str, str]]:
    return [(text[h.start : h.end], h.kind) for h in detector.detect(text)]


def card(prefix: str, length: int, rng: random.Random) -> str:
    body = prefix + "".join(rng.choice("0123456789") for _ in range(length - len(prefix) - 1))
    return body + luhn_digit(body)


def iban(country: str, bban: str) -> str:
    numeric = "".join(str(int(c, 36)) for c in bban + country + "00")
    return f"{country}{98 - int(numeric) % 97:02d}{bban}"


@pytest.mark.parametrize("length", range(12, 20))
@pytest.mark.parametrize(
    "prefix", ["4", "51", "2221", "34", "6011", "62", "35", "9792", "2200", "5018"]
)
def test_cards_of_every_brand_and_length_grouped_or_not(prefix, length):
    rng = random.Random(f"{prefix}-{length}")
    number = card(prefix, length, rng)
    for written in (
        number,
        " ".join(number[i : i + 4] for i in range(0, length, 4)),
        number[:6] + "-" + number[6:],
    ):
        text = f"the customer read out {written} twice"
        assert [text[s:e] for s, e, _ in find_cards(text)] == [written]


def test_numbers_that_fail_luhn_or_look_like_something_else_are_no_cards():
    rng = random.Random(3)
    good = card("4", 16, rng)
    bad = good[:-1] + str((int(good[-1]) + 1) % 10)
    assert luhn_valid(good) and not luhn_valid(bad)
    assert find_cards(f"order {bad} shipped") == []
    assert find_cards(f"call +{good[:12]} now") == []  # a "+" opens a phone number
    assert find_cards("invoice 0123 4567 8901 2345") == []  # no card number starts with 0
    assert (
        find_cards("counted 1 204 558 903 112 items") == []
    )  # digit groups are not printed like that


@pytest.mark.parametrize(
    "value",
    [
        iban("NL", "RABO0300065264"),
        iban("DE", "370400440532013000"),
        iban("FR", "30006000011234567890189"),
        iban("ES", "21000418450200051332"),
        iban("IT", "X0542811101000000123456"),
        iban("NO", "86011117947"),
    ],
)
def test_ibans_in_any_case_and_grouping(value):
    grouped = " ".join(value[i : i + 4] for i in range(0, len(value), 4))
    for written in (value, value.lower(), grouped, grouped.lower()):
        text = f"please wire it to {written} au plus vite"  # the trailing words are no IBAN groups
        assert [text[s:e] for s, e, _ in find_ibans(text)] == [written]
    assert iban_valid(value.lower())


def test_a_word_after_an_iban_is_no_part_of_it_even_when_the_checksum_would_pass():
    # one word in 97 after an IBAN makes the longer string pass mod 97: the Dutch layout
    # (18 characters) says where the IBAN ends
    rng = random.Random(5)
    while True:
        value = iban("NL", "ABNA" + "".join(rng.choice("0123456789") for _ in range(10)))
        if iban_valid(value + "is"):
            break
    text = f"hey, {value} is the one to use"
    assert [text[s:e] for s, e, _ in find_ibans(text)] == [value]


def test_an_iban_with_a_wrong_checksum_is_none():
    value = iban("DE", "370400440532013000")
    broken = value[:4] + ("1" if value[4] != "1" else "2") + value[5:]
    assert find_ibans(f"IBAN {broken}") == []


@pytest.mark.parametrize(
    "text, phone",
    [
        ("call (415) 867-2231 x129 after lunch", "(415) 867-2231 x129"),
        ("joignable au (514) 872-3011 poste 219", "(514) 872-3011 poste 219"),
        ("desk 503.288.9426 ext 4520", "503.288.9426 ext 4520"),
        ("la centralita es (+34) 911 23 45 67", "(+34) 911 23 45 67"),
        ("oficina: +52 1 55 1234 5678", "+52 1 55 1234 5678"),
        ("Büro Wien: 01/512 34 56", "01/512 34 56"),
        ("mi móvil es 612 34 56 78", "612 34 56 78"),
        ("bureau : +33 (0)4 72 10 30 30", "+33 (0)4 72 10 30 30"),
        ("+1-499-340-7328x156 fax", "+1-499-340-7328x156"),  # no such area code; x at once
    ],
)
def test_phones_national_international_and_with_extensions(detector, text, phone):
    assert (phone, "phone") in kinds(detector, text)


def test_nine_bare_digits_after_tel_are_a_phone_and_after_ssn_an_ssn(detector):
    assert ("612345678", "phone") in kinds(detector, "Tel. 612345678 (mobile)")
    assert ("ssn", "ssn") not in kinds(detector, "Tel. 612345678 (mobile)")
    # one kind (two finders may both report it as a phone)
    assert {k for v, k in kinds(detector, "Tel. 612345678 (mobile)") if v == "612345678"} == {
        "phone"
    }
    assert ("536227841", "ssn") in kinds(detector, "her SSN is 536227841")


def test_dates_and_dotted_phones_are_not_ips_or_phones(detector):
    assert kinds(detector, "released on 2024-03-12 and 12.03.2024") == []
    found = kinds(detector, "bureau : +33 (0)4.72.10.30.30")
    assert found == [("+33 (0)4.72.10.30.30", "phone")]


@pytest.mark.parametrize(
    "text, phone",
    [
        ("Phone:\n318 5207\n\nE-mail:", "318 5207"),  # a label on the line above
        ("you can ring my mobile: 71 29 84", "71 29 84"),
        ("Desk: 58 604419", "58 604419"),
        ("please call me at 31-72-05-18 tomorrow", "31-72-05-18"),
        ("33 71 45 18 office\n", "33 71 45 18"),  # a phone's label after it
        ("12 906 551-Fax", "12 906 551"),
        ("reach me on (47) 318-402 any day", "(47) 318-402"),  # an area code in brackets
        ("stop the messages to 79 118 24 60", "79 118 24 60"),
        ("Mobile: 646 138 343\nDesk: 5767953341\n", "5767953341"),  # ungrouped, a label
    ],
)
def test_local_numbers_of_any_plan_with_a_phone_word_label_or_area_code(detector, text, phone):
    assert (phone, "phone") in kinds(detector, text)


@pytest.mark.parametrize(
    "text",
    [
        "we shipped 318 5207 units in 2023",  # no phone's word: a figure
        "ticket 71 29 84 is closed",
        "logged at 2024-03-12 09:41:27.318520",  # a time's seconds, a date and its hour
        "Phone: see 1.2.318520",  # joined by dots to more digits: a version
        "call them about the 12 400 000 budget",  # a figure a word after "call"
        "we shipped 5767953341 units",  # ungrouped digits and no phone's word
    ],
)
def test_grouped_figures_and_times_are_no_local_phones(detector, text):
    assert [k for _, k in kinds(detector, text) if k == "phone"] == []


@pytest.mark.parametrize(
    "original", ["(415) 867-2231 x129", "503.288.9426 ext 4520", "(514) 872-3011 poste 219"]
)
def test_a_phone_pseudonym_keeps_its_extension_and_the_fictional_range(original):
    from curator.anonymise.pseudonyms import is_reserved, phone

    fake = phone(original, random.Random(original))
    assert is_reserved("phone", fake) and fake != original
    assert [c.isdigit() for c in fake] == [c.isdigit() for c in original]
    assert (
        fake.rstrip("0123456789").split()[-1] == original.rstrip("0123456789").split()[-1]
    )  # "x", "ext", "poste"


def test_a_phone_pseudonym_keeps_the_trunk_zero():
    from curator.anonymise.pseudonyms import phone

    fake = phone("+33 (0)4 72 10 30 30", random.Random(1))
    assert fake.startswith("+33 (0)") and fake != "+33 (0)4 72 10 30 30"
