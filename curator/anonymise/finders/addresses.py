"""Street addresses of many countries, on one line or several, without a language model.

An address is a chain of parts separated by commas or line breaks:
- it opens with a street ("221 Magnolia Court", "12 rue des Lilas", "Calle de Alcalá 214",
  "Lindenstraße 42", "Am Mühlbach 7", "PO Box 1182"), or with a flat, unit or building
  ("Flat 2", "Apt 5C", "Bât. C", "Résidence Les Acacias", "B-47") or a house number
  ("2-11-3 Meguro") followed by one;
- flats and floors ("Suite 410", "3º B", "piso 8"), districts and cities may follow;
- it ends with a postcode and city in the country's own order ("Savannah, GA 31405",
  "Sheffield S7 1QT", "Mississauga, ON L5G 1E2", "Fitzroy VIC 3065", "69003 Lyon",
  "1050 Wien", "08025 Barcelona", "Bengaluru 560038", "Tokyo 153-0063", "C1005AAK Buenos
  Aires"); a country on its own last line stays outside.
A street alone is an address; a chain that does not open with a street is one only when it
reaches a postcode (so "Sector 21" or "2024 Microsoft" alone are not).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from curator.anonymise.finders.name_cues import CALENDAR
from curator.anonymise.finders.name_data import fold_case, name_data
from curator.anonymise.finders.places import place_names
from curator.anonymise.finders.spec import NAME_HINT, FinderSpec, longest_digit_chain

# Capitals of the Latin, Greek and Cyrillic scripts ("Łódź", "ΠΑΦΟΣ", "Апатиты"): a street or
# city name opens with one
UPPER = "A-Z" + "".join(c for c in map(chr, range(0xC0, 0x530)) if c.isupper() and c.isalpha())
NAME = rf"[{UPPER}][\w'’.-]*"  # a Capitalised word of a street or city name
NUMBER = r"\d{1,5}[A-Za-z]?(?:[-/]\d{1,4}[A-Za-z]?){0,3}"
ORDINAL = r"\d{1,3}(?:st|nd|rd|th)"

TYPES_AFTER = (  # "221 Magnolia Court", "3rd Main Road"
    "Street|St|Road|Rd|Avenue|Ave|Av|Lane|Ln|Drive|Dr|Court|Ct|Boulevard|Blvd|Way|Place|Pl|Square|Sq|"
    "Close|Crescent|Cres|Terrace|Tce|Parkway|Pkwy|Highway|Hwy|Circle|Cir|Row|Mews|Grove|Gardens|Walk|"
    "Parade|Esplanade|Trail|Alley|Quay|Wharf|Rise|Vale|Cross|Marg|Nagar|Path|Broadway|Plaza|Pike|Turnpike|"
    "Expressway|Freeway|Loop|Point|Ridge|Run|Pass|Heights|Hollow|Landing|Green|Hill|Park|Common|Chase|Croft|"
    "Dale|Gate|Glen|Mount|Oval|View|Yard|Main|Market|Strand|"
    # the USPS street suffixes (Publication 28, appendix C1), singular and plural, but for the
    # ordinary words that follow a number in prose ("3 Keys", "2 Wells", "4 Station")
    "Annex|Arcade|Bayou|Beach|Bend|Bluffs?|Bottom|Branch|Bridge|Brooks?|Burgs?|Bypass|Canyon|Cape|"
    "Causeway|Centers?|Cliffs?|Commons|Corners?|Courts|Cove|Coves|Creek|Crest|Crossing|Crossroad|"
    "Curve|Divide|Drives|Estates?|Extensions?|Falls?|Ferry|Fields?|Flats?|Fords?|Forest|Forges?|Forks?|Fort|"
    "Gateway|Glens|Greens|Groves|Harbors?|Haven|Hills|Inlet|Islands?|Isle|Junctions?|Knolls?|"
    "Lakes?|Lodge|Manors?|Meadows?|Mills?|Motorway|Mountains?|Orchard|Overpass|"
    "Parks|Parkways|Pines?|Plains?|Points|Ports?|Prairie|Radial|Ranch|Rapids?|Ridges|River|Roads|"
    "Route|Shoals?|Shores?|Skyway|Springs?|Spurs?|Squares|Stravenue|Streets|Trace|"
    "Trafficway|Tunnel|Underpass|Valleys?|Viaduct|Views|Villages?|Ville|Vista|Walks|Ways"
)
# Street words that are everyday words after a number too ("3 Keys", "4 Station", "2 Locks"):
# a street only with a name before them ("743 Rachel Keys", "17 Kennedy Laneway")
TYPES_AFTER_A_NAME = (
    "Camp|Circles|Club|Corner|Course|Dam|End|Garden|Harbour|Junction|Keys?|Lake|Laneway|Lights?|"
    "Locks?|Loaf|Mall|Mission|Neck|Passage|Port|Ramp|Shore|Station|Stream|Summit|Throughway|"
    "Track|Trailer|Triangle|Unions?|Wells?|Upper|Artery|Rest|Rue|Wall"
)
TYPES_BEFORE = (  # "12 rue des Lilas", "Calle de Alcalá 214", "Via Roma 12"
    "rue|avenue|av|ave|boulevard|boul|bd|bld|allée|allee|impasse|place|pl|chemin|ch|quai|cours|route|voie|"
    "passage|sentier|hameau|promenade|esplanade|ruelle|rang|montée|côte|platz|"
    "square|faubourg|calle|c/|cl|avenida|avda|plaza|pza|paseo|pº|camino|carretera|ctra|ronda|travesía|travesera|"
    "glorieta|gran vía|gran via|rúa|"
    "rambla|carrer|passeig|via|viale|piazza|corso|vicolo|largo|rua|praça|travessa|"
    # Italian, Spanish, Portuguese, Polish, Romanian
    "strada|contrada|borgo|vico|incrocio|stretto|piazzale|rotonda|"
    "pasaje|pasadizo|cañada|acceso|callejón|urbanización|vía|avinguda|alameda|"
    "jardim|lago|esplanada|pátio|rodovia|estrada|viela|ladeira|quadra|"
    "λεωφόρος|λεωφ|οδός|πλατεία|"  # Greek
    "ul|ulica|aleja|al\\.|plac|osiedle|bulevardul|calea|aleea|piața|șoseaua|splaiul|canale|c\\.|"
    "cuesta|vial|vereda"
)
# "Alte Landstraße 5", "Schönbrunner Straße 40": adjectives and place names before a street word
STREET_ADJECTIVES = (
    r"(?:Alte|Alter|Neue|Neuer|Große|Großer|Grosse|Kleine|Lange|Hohe|Obere|Untere|Breite|"
    r"[A-ZÄÖÜ][a-zäöüß]+er)"
)
GERMAN_SUFFIX = (  # and Dutch, Nordic, Icelandic, Finnish: "Fitjabraut 10", "Mannerheimintie 5"
    "straße|strasse|str|weg|allee|gasse|platz|ring|damm|ufer|chaussee|steig|pfad|markt|straat|"
    "laan|gracht|plein|kade|singel|dijk|vej|gade|gatan|vägen|"
    "veien|vegen|gata|gate|gaten|stien|bakken|svingen|haugen|åsen|stræde|plads|torv|vænget|"
    "väg|gränd|torget|backen|stigen|leden|braut|stígur|vegur|götu|katu|tie|kuja|polku|"
    "kaari|tori|väylä|rinne|ntie"
)
# Street words after the name, in their own word: Finnish, Hungarian, Nordic ("Werner Wirénin
# polku 3", "Szabadság út 143.", "Györgyhalasi utca 121.")
TYPES_AFTER_LOWER = (
    "katu|tie|kuja|polku|puistopolku|tori|kaari|väylä|utca|út|útja|tér|körút|köz|sor|fasor|"
    "sétány|gatan|vägen|gata|gate|vej|gade|veien|vegen|allé|bulevardi|puistobulevardi|puistokatu|"
    "puistotie|aukio|raitti|u\\.|etorbidea|kalea|hiribidea|pasealekua"
)
LINKS = (
    r"(?:de|del|de la|de las|de los|dels|des|du|de l'|d'|di|da|dos|das|la|le|les|y|i|von|van|"
    r"der|den|am|an|im|an der|on|upon|sur|en|bei|vorm|ob|ob der|nad|pod|u|v|ve|na)"
)

# a unit word ends a street's name ("23 Rue Abderrahmen Ziad Apt. 392")
NOT_UNIT = r"(?!(?i:apt|apartment|suite|ste|unit|flat|floor|room)\b)"
UNIT_NEXT = r"[ \t]+(?i:apt|apartment|suite|ste|unit|flat)\.?[ \t]+\d"
# one street of an intersection, with its number if it has one
CROSSING = (
    rf"(?:\d{{1,5}}[ \t]+)?(?:(?i:{TYPES_BEFORE})\.?[ \t]+)?{NAME}"
    rf"(?:[ \t]+(?:{NAME}|{LINKS}(?=[ \t]+[{UPPER}]))){{0,3}}"
    rf"(?:[ \t]+(?i:{TYPES_AFTER_LOWER}|vei))?(?:[ \t]+\d{{1,5}}\b)?"
)

# A type word after a number names a street only after a name ("4 Point Star" is an award, "11
# Main LLC" a company), but for these streets
STREETS_ALONE = "Broadway|Strand|Esplanade|Parade|Promenade|Embarcadero|Bowery"
# No house number stands right after another number: "2 0 15 Long Beach Memorial Medical
# Center" is a date spaced out by a PDF, then a company, in a table's row.
# A figure of one or two digits, that is: a flat number of four before the house number
# stays one ("8016 121 Nelson Street Apt. 057")
NOT_AFTER_A_FIGURE = r"(?<!\b\d[ \t])(?<!\b\d\d[ \t])"
# type word first, number last: Spanish, Italian, Portuguese
TYPE_FIRST = re.compile(
    rf"(?<![\w-])(?i:{TYPES_BEFORE})\.?[ \t]+(?:{LINKS}[ \t]+)*{NAME}"
    rf"(?:[ \t]+(?:{NOT_UNIT}{NAME}|{LINKS})){{0,5}},?[ \t]+(?:{NUMBER}\b|s/n)"
)
# ... but not a type word that ends a name ("Hyatt Regency Century Plaza Los Angeles 796",
# "Union Square San Francisco 78": a hotel, its town and a count in a table)
NAME_BEFORE = re.compile(rf"[{UPPER}][\w'’.-]*[ \t]+\Z")
STREETS = [
    # number first, English type words after the name
    re.compile(
        rf"(?<![\w.,/-]){NOT_AFTER_A_FIGURE}(?:{NUMBER}|{ORDINAL}),?[ \t]+"
        rf"(?:(?:[NSEW]|NE|NW|SE|SW)\.?[ \t]+)?"
        rf"(?:(?:(?:{NAME}|{ORDINAL})[ \t]+){{1,4}}(?:{TYPES_AFTER})|{STREETS_ALONE})\b\.?"
        rf"(?:[ \t]+(?:N|S|E|W|NE|NW|SE|SW|North|South|East|West)\b)?"
    ),
    # number first, French and Italian type words before the name
    re.compile(
        rf"(?<![\w.,/-]){NUMBER}(?:[ \t]?(?:bis|ter))?,?[ \t]+(?i:{TYPES_BEFORE})\.?[ \t]+"
        rf"(?:{LINKS}[ \t]*)?[\w'’-]+(?:[ \t]+(?:{NOT_UNIT}{NAME}|{LINKS}[ \t]+[\w'’-]+)){{0,4}}"
        r"(?:[ \t]+\d{1,4}[A-Za-z]?\b)?"  # "4102 Rua Cruzeiro do Sul 574"
    ),
    TYPE_FIRST,
    # German and Dutch street names ending in their type: "Lindenstraße 42", "Hauptstr. 118a",
    # "Schönbrunner Straße 40", "Karl-Marx-Allee 90"; and "Am Mühlbach 7"
    re.compile(
        rf"(?<![\w-])(?:(?:{STREET_ADJECTIVES}|Van|Von|De|Den|Sint|Sankt|St\.)[ \t]+)?"
        rf"(?P<words>[{UPPER}][\w'’-]*(?i:{GERMAN_SUFFIX}))\.?[ \t]+{NUMBER}\b"
    ),
    re.compile(
        rf"(?<![\w-])[{UPPER}][\w'’-]*[ \t]+"
        rf"(?:Straße|Strasse|Str\.|Weg|Allee|Platz|Gasse|Ring|Damm)[ \t]+{NUMBER}\b"
    ),
    re.compile(
        rf"(?<![\w-])(?:Am|An der|Auf der|Auf dem|Im|In der|Zum|Zur|Unter den|Platz der|Platz des)"
        rf"[ \t]+{NAME}[ \t]+{NUMBER}\b"
    ),
    # a capitalised name before them: "Werner Wirénin polku 3", "Tamásiváradi utca 170."
    re.compile(
        rf"(?<![\w-]){NAME}[ \t]+(?:[\w'’.-]+[ \t]+){{0,2}}(?:{TYPES_AFTER_LOWER})"
        rf"[ \t]+{NUMBER}\b\.?"
    ),
    # "743 Rachel Keys": everyday street words after a name
    re.compile(
        rf"(?<![\w.,/-])(?P<row>){NUMBER},?[ \t]+(?:{NAME}[ \t]+){{1,3}}"
        rf"(?:{TYPES_AFTER_A_NAME})\b\.?"
    ),
    # US military mail: "PSC 2581, Box 0041", "Unit 5022 Box 1225", "USNS Brown", "USS Lee"
    re.compile(
        r"(?<![\w-])(?:(?:PSC|CMR|Unit)[ \t]+\d{3,5},?[ \t]+Box[ \t]+\d{3,5}"
        rf"|(?:USNS|USNV|USS|USCGC)[ \t]+{NAME})"
    ),
    # a house number, a street name of words that are not all everyday words and its own
    # number: "7300 Tavcarjeva 44", "0100 Gl. Sygehusvej 15", "74 Μεγάλη Άμμος 184"; not
    # "2019 Windows 10", a row of a table ("2 0 15 Leidos El Segundo 72") or of a tabulation
    # in capitals ("108 DAYAN MATHAI 175")
    re.compile(
        rf"(?<![\w.,/-])(?P<row>)\d{{1,5}}[ \t]+"
        rf"(?P<name>{NOT_UNIT}{NAME}(?:[ \t]+(?:{NOT_UNIT}{NAME}|{LINKS})){{0,3}})"
        # or a flat follows: "291 Adelianos Kambos Apt. 314"
        rf"(?:[ \t]+{NUMBER}(?![\w/-])\.?|(?={UNIT_NEXT}))"
    ),
    # intersections: "the corner of Pod Strání 1626 and Tomaszewska Throughway"
    re.compile(rf"(?i:corner of)[ \t]+{CROSSING}[ \t]+(?i:and|&)[ \t]+{CROSSING}"),
    # post boxes
    re.compile(
        r"(?<![\w-])(?:P\.?[ \t]?O\.?[ \t]?Box|G\.?P\.?O\.?[ \t]Box|Locked Bag|Postfach|"
        r"Postboks|Postbox|Casilla|Caixa Postal|"
        r"Apartado(?: de [Cc]orreos)?|B\.?P\.?|Boîte postale|Postbus)"
        r"[ \t]+\d{1,6}(?:[ \t]\d{2}){0,3}\b"
    ),
]
UNIT = (
    r"(?:(?i:(?:plot|flat|house|door|shop|h)\.?[ \t]?no|apt|apartment|suite|ste|flat|unit|floor|fl|"
    r"room|rm|bldg|building|block|bât|bâtiment|bat|étage|etage|"
    r"escalier|esc|escalera|portal|appartement|appt|porte|piso|planta|puerta|dpto|depto|"
    r"departamento|oficina|local|piano|appartamento|interno|scala|"
    r"wohnung|whg|top|stiege|stock|tür|haus|zimmer|gebäude|no|nº|n°|num|house|villa|level|lvl|"
    r"shop|lot|plot|tower|"
    r"wing|phase|sector|app|bte|boîte|bus|"
    r"h\.?[ \t]?no|house[ \t]no|door[ \t]no)(?![^\W\d_])\.?[ \t]*[\w/-]{1,6}"
    r"|#[ \t]?\d{1,5}[A-Za-z]?"
    r"|\d{1,2}\.[ \t]?(?:OG|UG|EG|Etage|Stock)"
    r"|\d{1,3}(?:st|nd|rd|th|e|er|ème|eme)[ \t]+(?i:floor|fl|étage|etage)"
    r"|(?i:bajo|ático|atico|entresuelo|principal|izda|izq|dcha|rdc|rez-de-chaussée|hinterhaus|"
    r"vorderhaus|cedex))"
)
UNIT_PART = re.compile(
    rf"(?:{UNIT}(?:[ \t]+[\w-]{{1,4}}\.?)?"
    rf"|\d{{1,2}}\.?[ \t]?[º°ª][ \t]*(?:[A-Z]|\d[ºª]|izda|izq|dcha|der|centro|int|ext)?\.?"
    rf"(?:[ \t]+(?:\d\.?[ºª]|(?i:planta|piso|izda|izq|dcha|derecha|izquierda|puerta[ \t]\w+))\.?)?"
    rf"|[A-Z]-?\d{{1,4}}"
    rf"|(?:Résidence|Residence|Résidences|Edificio|Torre|Tower|House|Court)"
    rf"[ \t]+(?:{NAME}[ \t]*){{1,3}}"
    rf"|{NAME}(?:[ \t]+{NAME}){{0,2}}[ \t]+"
    rf"(?:Apartments|Apts|Residency|Towers|Building|House|Complex|Estate|"
    rf"Cottage|Farm|Lodge|Hall|Manor|Barn|Mill|Mansions|Chambers|Centre|Center|Villas|Heights))"
)
CITY_PART = re.compile(
    rf"(?:{NAME}|{ORDINAL}|\d{{1,3}})"
    rf"(?:[ \t]+(?:{NAME}|{ORDINAL}|\d{{1,3}}|{LINKS}|\({NAME}\))){{0,3}}"
)
# spelled out: "Springfield, Illinois 62701", "Toronto, Ontario M5V 2T6", "Sydney, New South
# Wales 2000"
REGION_NAMES = (
    "Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia|Hawaii|Idaho|"
    "Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|Michigan|Minnesota|"
    "Mississippi|Missouri|Montana|Nebraska|Nevada|New Hampshire|New Jersey|New Mexico|New York|"
    "North Carolina|North Dakota|Ohio|Oklahoma|Oregon|Pennsylvania|Rhode Island|South Carolina|"
    "South Dakota|Tennessee|Texas|Utah|Vermont|Virginia|Washington|West Virginia|Wisconsin|Wyoming|"
    "Ontario|Quebec|Québec|British Columbia|Alberta|Manitoba|Saskatchewan|Nova Scotia|"
    "New Brunswick|Newfoundland and Labrador|Prince Edward Island|New South Wales|Victoria|"
    "Queensland|South Australia|Western Australia|Tasmania|Northern Territory"
)
US_STATES = (
    "AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|"
    "NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|PR|"
    "AS|FM|GU|MH|MP|PW|VI|"  # territories and freely associated states
    "AA|AE|AP"  # military mail ("APO AE 09012", "FPO AP 96601")
)
CITY = (
    rf"{NAME}(?:[ \t]+(?:{NAME}|{LINKS}(?=[ \t]+[{UPPER}])|\([ \t]*{NAME}[ \t]*\)"
    rf"|\d{{1,2}}(?:e|er)?\b)){{0,5}}"
)
AFTER_CITY = (
    r"(?:[ \t]+(?:[A-Z]{2}|\([A-Z]{2}\))\b(?![\w-])|,[ \t]*[A-Z]{2,5}\b(?![\w-])"
    r"|[ \t]+[-/][ \t]+[A-Z]{2}\b)?"
)
# continental Europe, Mexico ("C.P. 06500"), Brazil, Portugal, Poland; a province may follow
# ("Roma RM")
CODE_THEN_CITY = re.compile(
    rf"(?:C\.?P\.?[ \t]*|ΤΚ[ \t]*|Τ\.Κ\.[ \t]*)?(?:[A-Z]{{1,2}}-)?"
    rf"(?:\d{{4,5}}|\d{{5}}-?\d{{3}}|\d{{4}}-\d{{3}}|\d{{2}}-\d{{3}}),?[ \t]+"
    rf"(?:{LINKS}[ \t]+)?{CITY}{AFTER_CITY}"
)
POSTAL_PARTS = [
    re.compile(
        rf"(?:{CITY},?[ \t]+)?(?:{US_STATES}|{REGION_NAMES})[ \t]+\d{{5}}(?:-\d{{4}})?\b"
    ),  # US
    re.compile(
        rf"(?:{CITY},?[ \t]+)?(?:(?:[A-Z]{{2}}|{REGION_NAMES}),?[ \t]+)?"
        rf"[A-Z]\d[A-Z][ \t]?\d[A-Z]\d\b"
    ),  # Canada
    re.compile(rf"(?:{CITY},?[ \t]+)?[A-Z]{{1,2}}\d[A-Z\d]?\s\d[A-Z]{{2}}\b"),  # UK
    re.compile(
        rf"(?:{CITY},?[ \t]+)?(?:VIC|NSW|QLD|SA|WA|TAS|NT|ACT|{REGION_NAMES}),?[ \t]+\d{{4}}\b"
    ),  # Australia
    re.compile(rf"\d{{4}}[ \t]?[A-Z]{{2}}\b(?:[ \t]*\n?[ \t]*{CITY})?"),  # Netherlands
    CODE_THEN_CITY,
    re.compile(rf"[A-Z]\d{{4}}[A-Z]{{3}}[ \t]+{CITY}"),  # Argentina
    re.compile(rf"(?:{CITY},?[ \t]+)?[A-Z]\d{{2}}[ \t]?[A-Z0-9]{{4}}\b"),  # Ireland (Eircode)
    re.compile(rf"{CITY}(?:[ \t]*[-–][ \t]*|[ \t]+)\d{{3}}[ \t]?\d{{3}}\b"),  # India
    re.compile(rf"{CITY}[ \t]+\d{{3}}-\d{{4}}\b"),  # Japan
    # Greece, Cyprus, Czechia, Slovakia, Sweden: "669 07 Κέρκυρα", "ΤΚ 360 83 Χίος",
    # "777 63 Blovice"
    re.compile(rf"(?:ΤΚ|T\.?K\.?)?[ \t]*\d{{3}}[ \t]\d{{2}}[ \t]+{CITY}"),
]
# Shapes too loose to end an address whose first part is no street ("3 Results, Table 2024")
POSTAL_AFTER_A_STREET = [
    re.compile(rf"\d{{3}}[ \t]+{CITY}"),  # Iceland, Faroe: "230 Keflavík"
    re.compile(rf"{CITY},?[ \t]+(?:[^\W\d_]{{2,3}}[ \t]+)?\d{{4,6}}(?![\w-])"),
    re.compile(
        r"\d{4,6}(?![\w-])"
    ),  # a postcode on its own line  # the city first: "Madrid, 02857", "Lima 15074"
]
# Parts that open an address only when a postcode follows: a unit or building, a house number
# ("2-11-3 Meguro"), a street without a number ("Church Lane"), a name and a number ("Damrak 1").
OPENERS = [
    re.compile(rf"(?<![\w-]){UNIT_PART.pattern}"),
    re.compile(
        rf"(?<![\w.,/-]){NOT_AFTER_A_FIGURE}\d{{1,5}}[A-Za-z]?(?:[-/]\d{{1,4}}){{0,2}}[ \t]+{NAME}"
        rf"(?:[ \t]+{NAME}){{0,3}}"
    ),
    re.compile(rf"(?<![\w-])(?:{NAME}[ \t]+){{1,3}}(?:{TYPES_AFTER})\b\.?"),
    # "rue Brun", "ul. Zielona": a type word and a name
    re.compile(
        rf"(?<![\w-])(?i:{TYPES_BEFORE})\.?[ \t]+(?:{LINKS}[ \t]+)*{NAME}(?:[ \t]+{NAME}){{0,3}}"
    ),
    re.compile(rf"(?<![\w-])(?:{NAME}[ \t]+){{0,2}}{NOT_UNIT}{NAME}[ \t]+{NUMBER}\b"),
]
# Every pattern but the unit and number openers needs a word of its own list, standing alone
# (a type word before a space or dot, a German suffix ending a word): a text without one is
# not scanned. Case-blind lists are checked on ASCII texts only, where lowering is exact.
WORD_RUN = re.compile(r"[^\W\d_]+")


def _first_words(alternatives: str, *, fold: bool = False) -> frozenset[str]:
    """The first word of each alternative of a list ("Bluffs?" gives Bluff and Bluffs)."""
    words = set()
    for alternative in alternatives.split("|"):
        first = WORD_RUN.match(alternative.removesuffix("s?"))
        assert first is not None, alternative
        words.add(first.group())
        if alternative.endswith("s?"):
            words.add(first.group() + "s")
    return frozenset(w.lower() for w in words) if fold else frozenset(words)


class Words(NamedTuple):
    runs: frozenset[str]  # the text's runs of letters, as written
    lowered: frozenset[str] | None  # lowered, for an ASCII text


def _words(text: str) -> Words:
    runs = frozenset(WORD_RUN.findall(text))
    return Words(runs, frozenset(r.lower() for r in runs) if text.isascii() else None)


def _has(words: frozenset[str]) -> Callable[[Words], bool]:
    return lambda found: not words.isdisjoint(found.runs)


def _has_folded(words: frozenset[str]) -> Callable[[Words], bool]:
    return lambda found: found.lowered is None or not words.isdisjoint(found.lowered)


def _has_suffix(suffixes: tuple[str, ...]) -> Callable[[Words], bool]:
    return lambda found: (
        found.lowered is None or any(run.endswith(suffixes) for run in found.lowered)
    )


def _always(_found: Words) -> bool:
    return True


_TYPE_AFTER = _has(_first_words(TYPES_AFTER))
STREET_GATES = [
    _TYPE_AFTER,
    _has_folded(_first_words(TYPES_BEFORE, fold=True)),
    _has_folded(_first_words(TYPES_BEFORE, fold=True)),
    _has_suffix(tuple(GERMAN_SUFFIX.split("|"))),
    _has(_first_words("Straße|Strasse|Str|Weg|Allee|Platz|Gasse|Ring|Damm")),
    _has(_first_words("Am|An|Auf|Im|In|Zum|Zur|Unter|Platz")),
    _has_folded(_first_words(TYPES_AFTER_LOWER, fold=True)),
    _has(_first_words(TYPES_AFTER_A_NAME)),
    _has(frozenset({"PSC", "CMR", "Unit", "USNS", "USNV", "USS", "USCGC"})),
    _always,
    _has_folded(frozenset({"corner"})),
    _has(
        frozenset(
            {
                "P",
                "PO",
                "POBox",
                "G",
                "GP",
                "GPO",
                "Locked",
                "Postfach",
                "Apartado",
                "B",
                "BP",
                "Boîte",
                "Postbus",
                "Postboks",
                "Postbox",
                "Casilla",
                "Caixa",
            }
        )
    ),
]
OPENER_GATES = [_always, _always, _TYPE_AFTER, STREET_GATES[1], _always]
# What every postcode of POSTAL_PARTS holds (four digits, "75-001", "560 038", "L5G 1E2", "S7
# 1QT", "D02 X285"): an opener is an address only before a postcode, so a text without one
# anywhere is not scanned for openers.
POSTCODE_CORE = re.compile(
    r"\d{4}|\d{2}-\d{3}|\d{3}[ \t]\d{3}|[A-Z]\d[A-Z][ \t]?\d[A-Z]\d|\d[A-Z\d]?\s\d[A-Z]{2}"
    r"|[A-Z]\d{2}[ \t]?[A-Z0-9]{4}|\d{3}[ \t]\d{2}"
)
SEPARATOR = re.compile(r"[ \t]*(?:\n?[ \t]*,[ \t]*\n?|\n(?:[ \t]*\n)?|[ \t][-–][ \t])[ \t]*")
INLINE_UNIT = re.compile(rf"[ \t]+(?:{UNIT})\b\.?")
# After a unit on the street's line, capitalised words are its city, region or country
INLINE_CITY = re.compile(rf"[ \t]+{CITY}(?:[ \t]+[A-Z]{{2,3}}\b)?(?![\w-])")
# A state or province code on its own between parts ("Amersfoort\n, UT\n 94898")
CODE_PART = re.compile(r"[^\W\d_]{2,3}")
UNIT_BEFORE = re.compile(
    rf"(?:^|(?<=[\s:]))({UNIT_PART.pattern})(?:[ \t]*(?:,[ \t]*\n?|\n)[ \t]*|(?<=\d)[ \t]+)$"
)  # "Flat 2, 4 Elm Road", "Level 3 1 Johnson Arcade"
NUMBER_BEFORE = re.compile(r"(?<![\w.,/-])\d{1,5}[ \t]+$")
NAME_AND_NUMBER_BEFORE = re.compile(
    rf"(?<![\w-])(?P<words>(?:{NAME}[ \t]+){{0,2}}{NAME})[ \t]+{NUMBER}[ \t]+$"
)
# "Munkácsy Mihály út 65. Hunor Green": a second street name after a numbered one
STREET_TAIL = re.compile(
    rf"[ \t]+(?:{NAME}[ \t]+){{1,3}}(?:{TYPES_AFTER}|{TYPES_AFTER_A_NAME})\b\.?"
)
# A part ends at a comma, a line end, or where its sentence does ("..., Larnaka Cyprus. I now")
PART_END = re.compile(r"[,\n?!;]|(?<=[^\W\d_]{4})\.(?=\s|$)")
CROSSING_BEFORE = re.compile(rf"(?<![\w-]){NAME}[ \t]+(?:and|&)[ \t]+$")
UNIT_AFTER = re.compile(rf"[ \t]*,[ \t]*({UNIT_PART.pattern})(?=[\s,.;)]|$)")
MAX_PARTS = 7
LOOKBACK = 300  # characters before a street that a unit, a number or a crossing may take
# a word of letters and digits: a reference ("Résolution DM-2023-001"), no town's name
CODE_WORD = re.compile(r"[^\W\d_][\w'’.]*-?\d")
ORDINARY = 3.5  # Zipf frequency of an everyday word (names.ORDINARY)
TOWN_WORD = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*")  # "Aix-en-Provence" is one


def find_addresses(text: str) -> list[tuple[int, int, float]]:
    """(start, end, score) of every street address in `text`; in a text without a capital,
    those of its capitalised view that a lower-case sentence could not hold by chance."""
    if not any(map(str.isdigit, text)):
        return []
    if text.islower():
        view = _capitalised(text)
        return [(s, e, score) for s, e, score in _find(view) if _sure_in_lower_case(view[s:e])]
    return _find(text)


def _capitalised(text: str) -> str:
    """A lower-case text as an address would be written: words Capitalised, codes of two or
    three letters before a number and postcodes of letters and digits in capitals ("12 main
    st, springfield, il 62701" -> "12 Main St, Springfield, IL 62701"). Same length."""

    def upper(word: str) -> str:
        raised = word.upper()
        return raised if len(raised) == len(word) else word

    def word(match: re.Match[str]) -> str:
        token = match.group()
        if (
            len(token) <= 3
            and token not in NO_CODES
            and CODE_BEFORE_NUMBER.match(match.string, match.end())
        ):
            return upper(token)
        if any(c.isdigit() for c in token):
            return upper(token)
        return upper(token[0]) + token[1:]

    return LOWER_WORD.sub(word, text)


LOWER_WORD = re.compile(r"[^\W_]+")
CODE_BEFORE_NUMBER = re.compile(r"[ \t]+\d{4}")  # "il 62701", "ap 05647", "vic 3065"
NO_CODES = frozenset("box apt ste no rue via ul str nr".split())  # words before a number
# In lower case a street needs more than "3 main points": a street word of its own, or a second
# number (a postcode, the street's own number)
STREET_WORDS = re.compile(
    r"(?i:\b(?:street|st|road|rd|avenue|ave|lane|ln|drive|dr|boulevard|blvd|court|ct|way|"
    r"place|pl|square|crescent|terrace|parkway|highway|circle|trail|plaza|"
    r"box|rue|calle|via|avenida|straße|strasse|str|utca|vej|veien|gatan|katu|tie)\b)"
)
DIGIT_GROUPS = re.compile(r"\d+")


def _sure_in_lower_case(address: str) -> bool:
    return STREET_WORDS.search(address) is not None or len(DIGIT_GROUPS.findall(address)) >= 2


def _find(text: str) -> list[tuple[int, int, float]]:
    found: list[tuple[int, int, float]] = []
    words = _words(text)
    postcode = POSTCODE_CORE.search(text) is not None
    starts = sorted(
        {
            (m.start(), m.end(), True)
            for p, gate in zip(STREETS, STREET_GATES, strict=True)
            if gate(words)
            for m in p.finditer(text)
            if (
                p is not TYPE_FIRST
                or not NAME_BEFORE.search(text, max(0, m.start() - 40), m.start())
            )
            and not _everyday_words(m)
            and not ("row" in m.re.groupindex and _table_row(text, m.start()))
        }
        | {
            (m.start(), m.end(), False)
            for p, gate in zip(OPENERS, OPENER_GATES, strict=True)
            if postcode and gate(words)
            for m in p.finditer(text)
            if not _a_date(m.group())
        },
        key=lambda m: (m[0], not m[2], -m[1]),  # at one start, a street first, the longest first
    )
    for start, end, street in starts:
        if any(s <= start < e for s, e, _ in found):
            continue
        span = _chain(text, start, end, street)
        if span:
            found.append((*span, 0.8))
    return found


def _a_date(opening: str) -> bool:
    """A month or a day and a number open no address: "Jan 1 2024 - Mar 3 2024" is a range
    of dates (Slack names its exports so), "2024" no postcode there."""
    words = WORD_RUN.findall(opening)
    return bool(words) and all(fold_case(word) in CALENDAR for word in words)


def _table_row(text: str, at: int) -> bool:
    """Three numbers before `at` on its line: a row of a table ("06/30/2015 0 8 / 2 9 / 2 0 15
    Leidos El Segundo 72"), where a number and a name are columns, no street."""
    line = text[text.rfind("\n", 0, at) + 1 : at]
    return len(DIGIT_GROUPS.findall(line)) >= 3


# English words that open no street name between two numbers, though capitalised in a view
# of lower case: prepositions and conjunctions of prose ("Via", "An der" open streets)
PROSE_OPENERS = frozenset("for of and or to at by from with per than if but is are was as".split())


def _everyday_words(match: re.Match[str]) -> bool:
    """The name of a street that no type word says is one holds a word that is no everyday
    word: "Spring 2024" and "Brigade 7" only end like streets, "2019 Windows 10" is none;
    between two numbers, it is written in small letters ("108 DAYAN MATHAI 175" is a row)."""
    groups = match.groupdict()
    name = groups.get("name")
    if name is not None and not any(c.islower() for c in name):
        return True
    data = name_data()
    opening = WORD_RUN.match(name) if name is not None else None
    if opening is not None and fold_case(opening.group()) in PROSE_OPENERS:
        return True  # "+1 for berth 4": a count, not a street
    words = groups.get("words") or name
    return words is not None and all(
        data.most_ordinary(fold_case(word)) >= ORDINARY for word in WORD_RUN.findall(words)
    )


def _chain(text: str, start: int, end: int, street: bool) -> tuple[int, int] | None:
    """The address whose first part spans [start, end), or None."""
    start = _units_before(text, start)
    tail = STREET_TAIL.match(text, end) if text[:end].rstrip(".")[-1:].isdigit() else None
    end = tail.end() if tail else end
    units = end
    while unit := INLINE_UNIT.match(text, units):
        units = unit.end()  # "123 Main St Apt 4", "37 Rue de Libya Suite 024 Suite 483"
    city = INLINE_CITY.match(text, units) if units > end else None
    end = units
    if city:  # "Kaisergasse 64 Suite 602 KURZENKIRCHEN Austria", up to its sentence's end
        stop = PART_END.search(text, units, city.end())
        end = stop.start() if stop else city.end()
    last_end = end
    for _ in range(MAX_PARTS):
        separator = SEPARATOR.match(text, last_end)
        if not separator or separator.end() >= len(text):
            break
        at = separator.end()
        postal = _postal(text, at, loose=street)
        if postal:
            return start, postal
        part_end = _whole_part(text, at)
        if part_end is None:
            break
        last_end = part_end
    postal = _postal(text, end, inline=True)
    if postal:
        return start, postal  # "Lindenstraße 42 10969 Berlin"
    return (start, max(last_end, _units_after(text, end))) if street else None


def _postal(text: str, at: int, inline: bool = False, loose: bool = False) -> int | None:
    """End of a postcode part starting at `at` (after " " instead of a separator when inline;
    of the loose shapes too when `loose`)."""
    if inline:
        gap = re.match(r"[ \t]+", text[at:])
        if not gap:
            return None
        at += gap.end()
    for pattern in POSTAL_PARTS + POSTAL_AFTER_A_STREET if loose else POSTAL_PARTS:
        match = pattern.match(text, at)
        if match and (pattern is not CODE_THEN_CITY or _a_town(match.group())):
            return match.end()
    return None


def _a_town(postal: str) -> bool:
    """The words after a postcode name a town: one word ("69003 Lyon", "90402 Nürnberg"), a
    place the gazetteer knows, or words that are not all everyday words (not "SERIAL 1\n1100
    REGISTERED VOTERS", a count in a table)."""
    data = name_data()
    words = [fold_case(w) for w in TOWN_WORD.findall(postal.lstrip("CP. \t"))]
    if len(words) < 2 or place_names(postal):
        return True
    return any(w in data.cities or w in data.places for w in words) or not all(
        data.most_ordinary(w) >= ORDINARY for w in words
    )


def _whole_part(text: str, at: int) -> int | None:
    """The end of the part at `at` when it is a street, a unit or a city, up to its separator."""
    stop = PART_END.search(text, at)
    part = text[at : stop.start() if stop else len(text)].rstrip(" \t")
    street = any(pattern.fullmatch(part) for pattern in STREETS)
    city = CITY_PART.fullmatch(part) and len(part.split()) <= 4 and not CODE_WORD.search(part)
    if street or UNIT_PART.fullmatch(part) or city or CODE_PART.fullmatch(part):
        return at + len(part)
    return None


def _units_before(text: str, start: int) -> int:
    """Move back over "Flat 2, " and "Résidence Les Acacias, bât. B, " before a street, over
    a flat's number before the house number ("8016 121 Nelson Street"), a street's name and
    number before another ("Nöjesgatan 18 Hugolina Junctions") and the other street of a
    crossing ("Victor and 154 Dodson Street")."""
    start = _unit_parts_before(text, start)
    head = text[start : start + 2]
    lead = (
        _ending_at(NUMBER_BEFORE, text, start)
        if (head[:1].isdigit() or head[1:].islower())  # "2996 Vidkuns gate 71", not "05 SERIAL 1"
        and not _table_row(text, start)
        else None
    )
    start = lead.start() if lead else start
    named = _ending_at(NAME_AND_NUMBER_BEFORE, text, start)
    if named and not _everyday_words(named):
        start = named.start()
    crossing = _ending_at(CROSSING_BEFORE, text, start)
    start = crossing.start() if crossing else start
    return _unit_parts_before(text, start)


def _unit_parts_before(text: str, start: int) -> int:
    for _ in range(3):
        match = _ending_at(UNIT_BEFORE, text, start)
        if not match:
            break
        start = match.start(1)
    return start


def _ending_at(pattern: re.Pattern[str], text: str, end: int) -> re.Match[str] | None:
    """`pattern`, anchored at its end by `$`, matched to end at `end`. Searched only in the
    LOOKBACK characters before: from the text's start, every street of a long page rescanned
    all the page before it (a 40-page report took 15 s). The patterns' lookbehinds still see
    the characters before the window, so no match changes but one longer than the window."""
    return pattern.search(text, max(0, end - LOOKBACK), end)


def _units_after(text: str, end: int) -> int:
    """Extend a street without a postcode over ", Apt 3B" and the like."""
    while True:
        match = UNIT_AFTER.match(text, end)
        if not match:
            return end
        end = match.end()


# A digit and a letter on one line, not far apart. A digit first: without one, this would
# scan 60 characters after every letter.
_ADDRESS_HINT = re.compile(r"\d[^\n]{0,60}[A-Za-z]|[A-Za-z][^\n]{0,60}\d")
STREET_ADDRESSES = FinderSpec(
    "STREET_ADDRESS",
    lambda t: (
        longest_digit_chain(t) > 0
        and NAME_HINT.search(t) is not None
        and _ADDRESS_HINT.search(t) is not None
    ),
    whole_text=find_addresses,
)
