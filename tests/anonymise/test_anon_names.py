"""People named in free text: the cues and the traps, on sentences written for this test
(made-up people; none of them is from the labelled PII set)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from curator.anonymise.finders.name_data import name_data
from curator.anonymise.finders.names import find_names, guess_language, known_name_words
from tests.conftest import subprocess_env


def names(text: str) -> list[str]:
    return [text[s:e] for s, e, _ in find_names(text)]


@pytest.mark.parametrize(
    "text, expected",
    [
        # everyday words that are also names, in ordinary use, stay
        ("Will you merge it before lunch?", []),
        ("Grant read access to the auditors, please.", []),
        ("Mark the ticket as blocked.", []),
        ("Hope so! The vendor is late again.", []),
        ("Frank answers help more than polite ones.", []),
        ("We ship in May, not in June.", []),
        ("Der Koch hat heute frei. Im August ist Betriebsurlaub.", []),
        ("La luz del garaje sigue rota.", []),
        # the same words as names
        ("Will Fairbanks will chair the review.", ["Will Fairbanks"]),
        ("Can Bill sign the bill today?", ["Bill"]),
        ("Frank Adewale was very frank about the delay.", ["Frank Adewale"]),
        ("May Okonjo joined the platform team.", ["May Okonjo"]),
        ("Ping Desiree Albright about the badge printer.", ["Desiree Albright"]),
        # names from outside the lists: two Capitalised words no list knows
        ("Please add Tavoru Menkasi to the rota.", ["Tavoru Menkasi"]),
        ("Die Grundsteuerbescheid Nachforderung kam heute.", []),  # German nouns stay
        ("We migrated Kubernetes to Terraform last week.", []),  # one unknown word is no name
        # a lone family name no language uses as a word, in running text
        ("The draft from Lindholm is ready for review.", ["Lindholm"]),
        ("We tracked it in Jira and moved on.", []),  # one list, a rare word: stays
        ("Lindholm Table 4 Lindholm Total", []),  # a table's cells, no running text
        # a widespread given name called to, and a title in lower case with its dot
        ("Anna, can you check the logs?", ["Anna"]),
        ("Pedro lives near the depot.", ["Pedro"]),  # the subject of a verb
        ("Will, of course, is a word here.", []),
        ("i spoke to ms. Martin yesterday", ["Martin"]),
        # a lone given name mid-sentence, and as the subject of a sentence
        ("Could someone ask Rosalind about the backup job?", ["Rosalind"]),
        ("Leopold said the build is green.", ["Leopold"]),
        ("Ottilie a dit que le serveur redémarre.", ["Ottilie"]),
        # things and places named like people
        ("The Victoria depot and the Linn Room are booked.", []),
        ("Our client is in Jackson, Mississippi.", []),
        ("The order went to Kessler Tooling GmbH yesterday.", []),
        ("Porsche Design and Deutsche Bahn sponsor the event.", []),
        # a table of companies and their towns (a WARN report's rows)
        ("ProCourier, Inc. Irvine 22 Layoff\nMullinTBG Irvine 3 Layoff\nKmart Atwater 74", []),
        ("Zimmer Biomet, Inc. (Darwin Ct) Carlsbad 10\nAqua Lung America, Inc. Calexico 29", []),
        (
            "Alphatec Spine Carlsbad 99 Layoff\nTaylorMade Golf Company Carlsbad 64",
            ["Alphatec Spine"],
        ),
        # a town after a senator's name is his destination, not his name
        ("AIRFARE FOR SEN WILSON SPRINGFIELD TO WASHINGTON DC", ["WILSON"]),
        ("Thanks Daiki Kobayashi for the notes.", ["Daiki Kobayashi"]),
    ],
)
def test_everyday_words_and_names(text, expected):
    assert names(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        # titles in four languages; the title stays outside the name
        ("Dear Mr. Oyelowo, thank you for your letter.", ["Oyelowo"]),
        ("Mme Kerbrat demande la facture.", ["Kerbrat"]),
        ("Bitte rufen Sie Herrn Dreßler an.", ["Dreßler"]),
        ("La Sra. Ibáñez firmará mañana.", ["Ibáñez"]),
        # labels, lists and sign-offs
        ("Cardholder: TOBIAS ENGSTRÖM\nExpiry: 09/29", ["TOBIAS ENGSTRÖM"]),
        (
            "Present: R. Halloran (chair), S. Whitcombe, D. Abiodun",
            ["R. Halloran", "S. Whitcombe", "D. Abiodun"],
        ),
        ("Best regards,\n\nPriyanka Venugopal\nHead of Sales", ["Priyanka Venugopal"]),
        ("Mit freundlichen Grüßen\nIngrid Vössing", ["Ingrid Vössing"]),
        # a name broken across lines after "Signed:"
        ("Signed: Annika\nLindqvist\nDate: 3 May", ["Annika\nLindqvist"]),
        # capitals with initials and a role after the comma
        (
            "APPEARANCES:\nGERALD P. HOLLINGSWORTH, ESQ.\nMARTA T. ZIELONKA, WARDEN",
            ["GERALD P. HOLLINGSWORTH", "MARTA T. ZIELONKA"],
        ),
        ("Counsel for the defendant, J. Q. Public, filed a motion.", ["J. Q. Public"]),
        # a role hyphenated of everyday words is no double-barrelled surname, though one
        # list holds "President" (the Cupertino school board's agenda, ../shared/corpus)
        (
            "Representatives: Board President Ines Albrecht and\nVice-President Ravi Menon\n",
            ["Ines Albrecht", "Ravi Menon"],
        ),
        ("Signed: Anneli Smith-Ekholm, Vice-Chair", ["Anneli Smith-Ekholm"]),
        # family name first in a list
        (
            "TEILNEHMER\nMÜLLER-LÜDENSCHEIDT, Stefanie\nPAWLAK, Grzegorz",
            ["MÜLLER-LÜDENSCHEIDT, Stefanie", "PAWLAK, Grzegorz"],
        ),
        # particles and compound names
        (
            "Yannick Le Floch et Marie-Hélène Dubois-Arnaud sont arrivés.",
            ["Yannick Le Floch", "Marie-Hélène Dubois-Arnaud"],
        ),
        # a case caption
        ("Re: Hargreaves v. Okafor-Bello, No. 22-cv-1093", ["Hargreaves", "Okafor-Bello"]),
    ],
)
def test_cues_find_whatever_is_name_shaped(text, expected):
    assert names(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("hi marisela, is the cluster back?", ["marisela"]),
        ("thanks joaquín!", ["joaquín"]),
        ("merci ghislaine, c'est réglé", ["ghislaine"]),
        ("hallo wolfgang, kannst du kurz schauen?", ["wolfgang"]),
        ("gracias rocío, ya funciona", ["rocío"]),
        ("anneliese kannst du das prüfen?", ["anneliese"]),
        ("who is sigrid lindqvist? no idea", ["sigrid lindqvist"]),
        ("ok so kwabena found the leak", ["kwabena"]),
        # lower case without a cue stays: these are words
        ("thanks all, merging now", []),
        ("i will grant you that, the bill is high", []),
    ],
)
def test_lower_case_names_only_with_a_cue(text, expected):
    assert names(text) == expected


def test_a_name_found_once_is_that_person_elsewhere_in_the_text():
    text = (
        "I have worked with Chiamaka Eze for years. "
        "Chiamaka runs the lab; Dr. Eze's papers are cited."
    )
    assert names(text) == ["Chiamaka Eze", "Chiamaka", "Eze"]


def test_german_genitive_and_english_possessive_stay_outside_the_name():
    assert names("Gudruns Entwurf liegt noch bei Herrn Brandl.") == ["Gudrun", "Brandl"]
    assert names("Nnamdi's laptop is fixed, ask Bartholomew's team.") == ["Nnamdi", "Bartholomew"]


def test_language_guess_uses_function_words():
    data = name_data()
    assert guess_language("der Server ist nicht erreichbar und das Netz".split(), data) == "de"
    assert guess_language("le serveur est en panne et la base aussi".split(), data) == "fr"
    assert guess_language("el servidor no responde y la red tampoco".split(), data) == "es"
    assert guess_language(["xyzzy"], data) == "en"


def test_name_lists_hold_every_faker_locale_and_the_census():
    import importlib
    import pkgutil

    import faker.providers.person as person

    data = name_data()
    for module in pkgutil.iter_modules(person.__path__):
        provider = importlib.import_module(f"faker.providers.person.{module.name}").Provider
        listed = provider.__dict__.get("first_names")
        firsts = (
            [n for n in listed if isinstance(n, str) and n.isalpha()]
            if isinstance(listed, (tuple, list, dict))
            else []
        )
        if firsts:
            assert firsts[0].casefold() in data.first, (module.name, firsts[0])
    # the US census lists of the `names` package: a rare surname no Faker locale has
    assert data.last.get("szczepanek") and data.first.get("mary", 0) >= 3
    assert "the" not in known_name_words()  # function words are no names, whatever a list says


def test_help_does_not_load_the_name_lists():
    code = (
        "import sys, runpy; sys.argv=['curator','--help']\n"
        "try: runpy.run_module('curator', run_name='__main__')\nexcept SystemExit: pass\n"
        "print('LOADED', 'curator.anonymise.finders.name_data' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "LOADED False" in done.stdout, done.stdout + done.stderr


@pytest.mark.parametrize(
    "text, expected",
    [
        # an initial without a dot between names in capitals, and the words in capitals around it
        ("MARISOL K ABERNATHY DEM 41\nGERALD FOX REP 12", ["MARISOL K ABERNATHY", "GERALD FOX"]),
        ("A BROWN DOG WILL CALL\nI WILL ATTEND", []),
        # "SURNAME, GIVEN I" rows, then the job title the row goes on with
        (
            "OKAFOR, MARISOL N LEGISLATIVE CORRESPONDENT 1,200.00\n"
            "LUND, K MARGARETA STAFF ASSISTANT 980.00",
            ["OKAFOR, MARISOL N", "LUND, K MARGARETA"],
        ),
        ("DALLAS, TEXAS\nNOTE, HOWEVER THE DATES", []),
        # an initial and a surname before other capitals; a section letter before a word is none
        ("AIRFARE FOR K DRUMMOND KANSAS CITY TO DENVER AND RETURN", ["K DRUMMOND"]),
        ("AIRFARE FOR P PEMBERTON WASHINGTON DC TO DENVER", ["P PEMBERTON"]),
        ("AJ 2D APP DV2-B. ZWIERLEIN ASSESSOR", ["B. ZWIERLEIN"]),
        ("A. OVERVIEW OF THE PLAN\nB. SCOPE", []),
        # a surname hyphenated to a ballot code; codes split from initials ("CT-K.")
        ("PJ 2D APP DV1-HALVERSEN JUDGE-SUPERIOR COURT #12", ["HALVERSEN"]),
        ("GOVERNOR AJ-SUPREME CT-K. OYELARAN AJ 2D APP", ["K. OYELARAN"]),
        # a one-letter title before capitals is an initial: the job title after it is no name
        ("TANAKA, MARISOL M LEGISLATIVE CORRESPONDENT", ["TANAKA, MARISOL M"]),
        ("Le bail est signé par M. Kerbrat hier.", ["Kerbrat"]),
        # "SEN" before a surname, which ends at the place after it
        ("TRAIN FARE FOR SEN HALVERSEN WASHINGTON DC TO NEW YORK", ["HALVERSEN"]),
        # "à la" and a name: a dish after its cook; not "à la Carte"
        ("Linzensoep à la Vermeulen\n4 ons linzen", ["Vermeulen"]),
        ("Dessert à la Carte, steak a la Mode", []),
        # two capitals without a vowel before a surname are initials; "HR" before a job is not
        ("TJ Pemberton Corporation laid off 40 people.", ["TJ Pemberton"]),
        ("The HR Manager signed it.", []),
        # glued initials before a surname are a person, an abbreviation before a place is not
        ("J.R. Drummond & Sons, Irvine\nBrinderson, L.P. Coalinga 55", ["J.R. Drummond"]),
    ],
)
def test_names_in_capitals_with_initials(text, expected):
    assert names(text) == expected


BALLOT = (
    "HAROLD PEMBERTON 41 MARISOL OKAFOR 12\nGERALD FINCHLEY REP 77 {entry}\n"
    "BRUNO TAVERNIER 8 STATE MEASURE 48\nCOUNTY MEASURE P YES 90\n36TH ASSEMBLY DIST 36 NO 14"
)


@pytest.mark.parametrize(
    "entry, expected",
    [
        # shaped like the candidates found around it and opening with a given name: a candidate too,
        # though its other word is an everyday word somewhere ("nebel", "kalt")
        ("AVI NEBEL 39", ["AVI NEBEL"]),
        ("JUDGE-SUPERIOR COURT #87 DEX KALT 5", ["DEX KALT"]),
        # no given name first, a word of the headings, a place, or no count after it: no candidate
        ("VOTER NOMINATED 39", []),
        ("GRANT PROGRAM 39", []),
        ("AVI NEBEL COURT 39", []),
        ("AVI NEBEL", []),
    ],
)
def test_an_entry_shaped_like_the_people_in_a_list_is_a_person(entry, expected):
    people = ["HAROLD PEMBERTON", "MARISOL OKAFOR", "GERALD FINCHLEY", "BRUNO TAVERNIER"]
    assert names(BALLOT.format(entry=entry)) == people[:3] + expected + people[3:]


def test_without_enough_people_in_the_list_an_entry_is_no_person():
    assert names("HAROLD PEMBERTON 41 MARISOL OKAFOR 12\nAVI NEBEL 39\nSTATE MEASURE 48") == [
        "HAROLD PEMBERTON",
        "MARISOL OKAFOR",
    ]
    assert names("Harold Pemberton 41 Marisol Okafor 12 Gerald Finchley 77\nAvi Nebel 39") == [
        "Harold Pemberton",
        "Marisol Okafor",
        "Gerald Finchley",
    ]


@pytest.mark.parametrize(
    "text, expected",
    [
        ('"We are glad," says Andreassen.', ["Andreassen"]),
        ("Her maiden name is Cockburn", ["Cockburn"]),
        ("What's your last name? Guðgeirsson", ["Guðgeirsson"]),
        ("She named him Kenneth", ["Kenneth"]),
        ("Ngozi: What a day.\nJoseph: Remember me?", ["Ngozi", "Joseph"]),
        # (not "Ngozi" here: a town of Burundi too, a name in a list only with a cue)
        ("We met Maria, Adaeze, Selam and Bazyli", ["Maria", "Adaeze", "Selam", "Bazyli"]),
        # no person: labels, and lists without one
        ("Note: the build is green\nAddress: see below", []),
        ("We sell apples, pears and plums", []),
    ],
)
def test_naming_cues_speakers_and_lists(text, expected):
    assert names(text) == expected
