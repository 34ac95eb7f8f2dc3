"""What anonymisation must keep of each text-layer PDF of ../shared/corpus/ (issue 28, "what is
not personal stays"), read by hand from curator's own reading of the text layer
(curator.ingest.pdf.text_layer): the places each names, and the contact details in it that are
rewritten by their type whoever they belong to.

The people of each file are in corpus_people.py; rewriting them is the point. A street address
or a phone number is rewritten as one, even a school district's: the anonymiser cannot know
whose it is, and the issue asks to keep places "unless they are part of a street address".
Every other word and number token must stay as written (benchmarks/kept.py counts them).

A place is listed as the document writes it, every occurrence of it outside a listed contact
must survive. The lists are not complete (the WARN report names some 400 towns): they hold
what the document is about and every place curator once rewrote ("Los Angeles, Cal." ->
"Los Maxwell, Hughes.", "North Carolina" -> a name, "Chelsea" -> "Janet").
"""

from __future__ import annotations

CORPUS_CONTACTS: dict[str, list[str]] = {
    "pdfplumber-2023-06-20-PV.pdf": [
        "1069, boulevard de de Sainte-Adèle",  # sic, line 4 of the agenda
        "1069, boulevard de Sainte-Adèle",
    ],
    "pdfplumber-cupertino_usd_4-6-16.pdf": ["1309 S. Mary Avenue", "(408) 252-3000, ext. 61200"],
}

CORPUS_PLACES: dict[str, list[str]] = {
    "pdfplumber-150109DSP-Milw-505-90D.pdf": ["Milwaukee"],
    "pdfplumber-2023-06-20-PV.pdf": ["Sainte-Adèle"],  # the Théâtre Sainte-Adèle
    "pdfplumber-WARN-Report-for-7-1-2015-to-03-25-2016.pdf": [
        "San Diego",
        "Los Angeles",
        "Long Beach",
        "San Francisco",
        "San Jose",
        "Irvine",
        "Carlsbad",
        "Fremont",
        "Torrance",
        "Sacramento",
        "Huntington Beach",
        "El Segundo",
        "Woodland Hills",
        "Mountain View",
        "Beverly Hills",
        "Oakland",
        "Vernon",
        "Modesto",
        "Chula Vista",
        "Santa Ana",
        "Costa Mesa",
        "Hayward",
        "Brea",
        "Camarillo",
        "Oxnard",
        "Pasadena",
    ],
    "pdfplumber-chelsea_pdta.pdf": [
        "Chelsea",
        "CHELSEA",
        "Gatineau",
        "Ottawa",
        "Québec",
        "Outaouais",
        "Farm Point",
        "Wakefield",
    ],
    "pdfplumber-cupertino_usd_4-6-16.pdf": ["Cupertino", "Sunnyvale"],
    "pdfplumber-la-precinct-bulletin-2014-p1.pdf": ["ANTELOPE VALLEY"],
    "pdfplumber-senate-expenditures.pdf": [
        "WASHINGTON DC",
        "KANSAS CITY",
        "SAINT LOUIS",
        "ST. LOUIS",
        "SPRINGFIELD",
        "SAN DIEGO",
        "NEW YORK",
    ],
}
