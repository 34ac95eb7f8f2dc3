import pytest

from curator.normalise import UnparsableValue, check, normalise, same_value
from curator.reading import reading_of


@pytest.mark.parametrize(
    "written",
    [
        "2024-01-15",
        "January 15, 2024",
        "15 Jan 2024",
        "Jan 15th, 2024",
        "15th of January 2024",
        "01/15/2024",
        "15.01.2024",
        "2024/1/15",
        "15 janvier 2024",
    ],
)
def test_dates_in_any_common_form_are_equal(written):
    assert normalise(written, "date") == "2024-01-15"


@pytest.mark.parametrize(
    "written,canonical",
    [
        ("$1,250.00", "USD 1250.00"),
        ("1250", "1250.00"),
        ("USD 1,250", "USD 1250.00"),
        ("1,250", "1250.00"),
        ("1.250,00 €", "EUR 1250.00"),
        ("$1250.0", "USD 1250.00"),
        ("1 250,00 EUR", "EUR 1250.00"),
        ("1\u202f250,00\u00a0€", "EUR 1250.00"),
        ("CHF 1'250.00", "CHF 1250.00"),
        ("1,250 dollars", "USD 1250.00"),
    ],
)
def test_money_keeps_its_currency(written, canonical):
    assert normalise(written, "money") == canonical


def test_a_different_currency_is_a_different_amount():
    assert not same_value("$1,250.00", "€1,250.00", "money")
    assert not same_value("£1,250.00", "1.250,00 EUR", "money")
    assert same_value("$1,250.00", "USD 1250", "money")
    # an amount naming none is of no other currency unless its document names exactly one
    assert same_value("1250", "€1,250.00", "money")
    assert not same_value("1250", "€1,250.00", "money", reading_of("Rent: $1,250.00"))
    assert same_value("1250", "$1,250.00", "money", reading_of("Rent: $1,250.00 (USD)"))
    assert same_value("1250", "€1,250.00", "money", reading_of("$5 or €5"))


def test_two_currencies_in_one_value_are_no_amount():
    with pytest.raises(UnparsableValue):
        normalise("$1,250 / €1,100", "money")


def test_money_cents_differ():
    assert not same_value("$1,250.50", "1250", "money")


def test_numbers():
    assert same_value("12", "12.0", "number")
    assert normalise("1,000", "number") == "1000"


def test_text_ignores_case_and_whitespace():
    assert same_value("  Maria   LOPEZ ", "maria lopez", "person")
    assert same_value("12 Oak Street,", "12 oak street", "address")
    assert not same_value("Maria Lopez", "Mario Lopez", "person")


@pytest.mark.parametrize(
    "value,kind",
    [
        ("next tuesday", "date"),
        ("2024-02-30", "date"),
        ("twelve", "money"),
        ("", "number"),
        ("NaN", "money"),
    ],
)
def test_unparsable_values_raise(value, kind):
    with pytest.raises(UnparsableValue):
        check(value, kind)


def test_same_value_falls_back_to_text_for_unparsable():
    assert same_value("TBD", "tbd", "date")


def test_find_value_in_any_written_form():
    from curator.normalise import find_value

    text = "Start: January 15, 2024. Rent 1.250,00 EUR due. Tenant: Dana  Whitfield"
    ((start, end),) = find_value(text, "2024-01-15", "date")
    assert text[start:end] == "January 15, 2024"
    ((start, end),) = find_value(text, "€1,250", "money")
    assert text[start:end] == "1.250,00 EUR"
    ((start, end),) = find_value(text, "1250", "money")
    assert text[start:end] == "1.250,00 EUR"
    assert find_value(text, "$1,250", "money") == []  # dollars, where the text says euros
    ((start, end),) = find_value(text, "dana whitfield", "person")
    assert text[start:end] == "Dana  Whitfield"
    assert find_value(text, "2024-02-01", "date") == []


def test_a_number_in_a_table_row_is_found_among_its_neighbours():
    from curator.normalise import find_value

    row = "Widget 4 17.50 71,137 2024\nTotal 71.137"
    ((start, end),) = find_value(row, "71137", "number")
    assert row[start:end] == "71,137"  # not "4 17.50 71,137 2024" read as one number
    german = find_value(row, "71137", "number", reading_of(row, "de_DE"))
    assert [row[a:b] for a, b in german] == ["71.137"]  # "71,137" is 71.137 there


@pytest.mark.parametrize(
    "written,locale,day",
    [
        ("03/04/2024", "en_US", "2024-03-04"),
        ("03/04/2024", "en_GB", "2024-04-03"),
        ("03.04.2024", "de_DE", "2024-04-03"),
        ("03/04/2024", "fr_FR", "2024-04-03"),
        ("13/04/2024", "en_US", "2024-04-13"),  # one reading only: 13 is no month
        ("04/13/2024", "en_GB", "2024-04-13"),
        ("2024-03-04", "en_GB", "2024-03-04"),
    ],
)
def test_ambiguous_dates_follow_the_locale(written, locale, day):
    assert normalise(written, "date", reading_of("", locale)) == day


@pytest.mark.parametrize(
    "written,locale,amount",
    [
        ("1.250", "en_US", "1.25"),
        ("1.250", "de_DE", "1250"),
        ("1.250", "fr_FR", "1250"),
        ("1,250", "en_GB", "1250"),
        ("1,250", "de_DE", "1.25"),
        ("1.250,5", "en_US", "1250.5"),  # one reading only
        ("1,250.5", "de_DE", "1250.5"),
        ("1.250.000", "en_US", "1250000"),
        ("1250.000", "de_DE", "1250"),  # four digits before the sign: no thousands group
        ("12,5", "en_US", "12.5"),
    ],
)
def test_ambiguous_amounts_follow_the_locale(written, locale, amount):
    assert normalise(written, "number", reading_of("", locale)) == amount


def test_a_sign_means_the_locales_own_currency_where_it_writes_it_so():
    assert normalise("$1,250", "money", reading_of("", "en_CA")) == "CAD 1250.00"
    assert normalise("$1,250", "money", reading_of("", "en_GB")) == "USD 1250.00"
    assert normalise("1.250 Euro", "money", reading_of("", "de_DE")) == "EUR 1250.00"


def test_the_default_locale_read_without_babel_is_cldrs():
    from curator import reading

    assert reading._cldr_facts("en_US") == reading._DEFAULT_FACTS


@pytest.mark.parametrize(
    "text",
    [
        "Rent $950, deposit US$ 1,900 or 1.900 euros; fraud in Europe; USD1250; CA$ 9, $CA 4",
        "NZ$3 HK$ 4 AU$1 A$2 C$1 R$ 5 £2 ¥5 ₹4 ₩1 ₽2 GBP chf Dollars pound",
        "no currency at all, 1,250 units",
    ],
)
def test_the_document_scan_finds_what_currency_finds(text):
    from curator.reading import CURRENCY, _currencies_written

    assert _currencies_written(text) == {m.group() for m in CURRENCY.finditer(text)}
