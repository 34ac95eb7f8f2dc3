"""Words around a name that say a person is meant (or is not), in English, French, German, Spanish.

All lower case; names.py compares casefolded words. Each list says what a word does for the
next (or previous) word, so the rules in names.py read as sentences about these lists.
"""

from __future__ import annotations

from curator.anonymise.finders.name_data import fold_case


def _words(text: str) -> frozenset[str]:
    return frozenset(fold_case(w) for w in text.split())


# Before a name, naming nobody themselves ("Dr." is not part of "Dr. Maria Lopez").
TITLES = _words("""
    mr mrs ms miss mx dr prof sir dame lady lord rev fr sgt officer capt det insp judge justice
    sen senator
    mme mlle m monsieur madame mademoiselle me maître pr
    herr herrn frau fräulein
    sr sra srta don doña dña d lic ing dott
""")

# "Name:", "Signed by" and the like: what follows on the line names people.
LABELS = _words("""
    name names employee customer client patient passenger tenant tenants landlord lessee lessor
    guarantor witness attn attention contact cardholder holder owner reporter assigned assignee
    recipient applicant co-applicant spouse signed signature signatory by to from cc bcc chair
    secretary speaker author manager interviewer buyer seller borrower lender payee beneficiary
    dependent dependents referee call compte
    present apologies attendees participants absent operator technician responsible on-call
    nom prénom client cliente titulaire signé signataire destinataire participants présents présent
    présente excusé excusée excusés secrétaire président opérateur technicien responsable auteur
    vorname nachname kunde kundin inhaber inhaberin karteninhaber kontoinhaber unterschrift anwesend
    teilnehmer entschuldigt protokoll verantwortlich mieter mieterin vermieter vermieterin an von
    nombre apellido apellidos titular firmado firma destinatario destinataria asistentes secretaria
    secretario presidente técnico responsable arrendador arrendadora arrendatario arrendataria
    para de
""")
# Labels that introduce a list: every comma- or semicolon-separated item is a person.
LIST_LABELS = _words("""
    present apologies attendees participants absent cc bcc distribution anwesend teilnehmer
    entschuldigt présents excusés excusée excusé participants asistentes
""")

# Greetings, thanks and requests aimed at someone: the next word is a person (even lower case).
GREETINGS = _words("""
    hi hey hello hiya dear morning evening thanks thank thx ty cheers congrats congratulations
    welcome
    ping ask tell cc remind poke dm
    bonjour salut coucou cher chère merci bienvenue félicitations bravo
    hallo liebe lieber danke servus moin willkommen
    hola querido querida estimado estimada gracias bienvenido bienvenida felicidades
""")
# Two-word greetings whose second word is in GREETINGS' place ("happy birthday Anna").
GREETING_PAIRS = frozenset(
    (fold_case(a), fold_case(b))
    for a, b in {
        ("happy", "birthday"),
        ("good", "morning"),
        ("thank", "you"),
        ("joyeux", "anniversaire"),
        ("guten", "morgen"),
        ("guten", "tag"),
        ("guten", "abend"),
        ("feliz", "cumpleaños"),
        ("buenos", "días"),
        ("buenas", "tardes"),
        ("sehr", "geehrte"),
        ("sehr", "geehrter"),
    }
)

# "à la Waterman": in the manner of a person (a dish, a style), when a name follows.
STYLE_OF = frozenset({("a", "la"), ("à", "la")})

# Closing lines of letters and mails: the next line with a name on it is the writer.
SIGN_OFFS = frozenset(
    fold_case(line)
    for line in (
        "regards",
        "kind regards",
        "best regards",
        "warm regards",
        "best",
        "best wishes",
        "cheers",
        "thanks",
        "thanks again",
        "thank you",
        "many thanks",
        "yours sincerely",
        "sincerely",
        "yours faithfully",
        "yours truly",
        "cordialement",
        "bien cordialement",
        "bien à vous",
        "bonne journée",
        "merci",
        "amitiés",
        "bises",
        "mit freundlichen grüßen",
        "freundliche grüße",
        "viele grüße",
        "beste grüße",
        "liebe grüße",
        "gruß",
        "grüße",
        "danke",
        "atentamente",
        "un saludo",
        "saludos",
        "un abrazo",
        "abrazos",
        "gracias",
        "cordialmente",
    )
)

# Before a name: "says Andreassen", "named him Kenneth", "her maiden name is Cockburn", "What's
# your last name? Guðgeirsson"
NAMING_VERBS = _words("says said asks asked named called nicknamed baptised baptized")
NAMED_OBJECTS = _words("him her them it me us")
NAME_NOUNS = _words("name surname forename nickname")

# After a name: said, asked... ("Lee said the build is green").
SPEECH_VERBS = _words("""
    said says asked asks wrote writes replied replies told tells mentioned thinks thought agreed
    dit demande demandé écrit répondu pense
    sagt sagte fragt fragte schreibt schrieb meint meinte
    dijo dice pregunta preguntó escribió comentó
""")
# After a sentence-initial first name, words that make it the subject of a sentence
# ("Margaret is out", "Olivier a dit", "Matthias und Anneliese machen") rather than an
# everyday word ("Will you", "Grant access", "Hope so").
SUBJECT_NEXT = SPEECH_VERBS | _words("""
    is was has had will would can could should just also still already from and joined left
    approved owns wants needs knows found fixed sent opened closed merged pushed gave got took
    made went came sent told knew saw ran put set brought bought did does gets thinks
    lives works began spent loves likes became won met plays teaches leads speaks sings
    a est était sera va doit peut et vient
    ist war hat hatte wird kann muss soll und kommt macht übernimmt
    está estaba es era ha había va puede debe y tiene se
""")
# Before a capitalised word: it is a thing or a place ("the Victoria data centre", "in May",
# "der Koch", "im August", "la luz"), per language ("a" is an article in English only).
NOT_PERSON_BEFORE = {
    # "dba": doing business as, a trade name follows ("dba Kitson Brea")
    "en": _words(
        "the a an this these those our your their its every each in at near into onto dba"
    ),
    "fr": _words(
        "le la les un une des du au aux ce cette ces en dans sur "
        "rue chemin chemins avenue boulevard allée impasse quai"  # "le chemin Freeman"
    ),
    "de": _words(
        "der die das den dem des ein eine einen einem einer im am vom zum zur beim ins ans aus "
        "nach in"
    ),
    "es": _words("el la los las un una unos unas al en del"),
}
# Function words that are also common given names: Capitalised, they may be the name.
NAMES_AMONG_FUNCTION_WORDS = _words("will may dan ella mia sean allen anders")
# "Saint-Étienne", "Santa Cruz", "San José": places.
PLACE_PREFIXES = _words("saint sainte st san santa santo são sankt")
# Particles inside a name ("Youssef El Amrani", "Yannick Le Goff", "Ludwig van Beethoven").
PARTICLES = _words(
    "de del della der den di da das dos du la le van von zu zur ten ter el al bin ben ibn"
)
# Joining two names ("Liu and Kenji", "Matthias und Anneliese").
AND = _words("and & et und y e")

# Words that end a name: places, organisations, rooms, calendar words.
NOT_NAMES = _words("""
    street st road rd avenue ave lane drive court boulevard blvd way place square close crescent
    cres terrace parkway highway hwy row mews gardens
    rue allée impasse avenue boulevard chemin place quai
    straße strasse str weg platz allee gasse ring
    calle avenida avda plaza paseo camino carretera
    room rooms building floor office hall campus centre center station airport hospital
    inc ltd llc llp corp co plc gmbh ag kg sa sas sarl sl srl bv nv
    company group team bank university college school institute foundation
""")
# Days and months: never a person on their own ("in May", "im August"); "May Thandar" is.
CALENDAR = _words("""
    monday tuesday wednesday thursday friday saturday sunday
    january february march april may june july august september october november december
    lundi mardi mercredi jeudi vendredi samedi dimanche janvier février mars avril mai juin
    juillet août septembre octobre novembre décembre
    montag dienstag mittwoch donnerstag freitag samstag sonntag januar februar märz juni juli
    oktober dezember
    lunes martes miércoles jueves viernes sábado domingo enero febrero marzo abril mayo junio julio
    agosto septiembre setiembre octubre noviembre diciembre
    jan feb mar apr jun jul aug sep sept oct nov dec
""")
# Capitalised words that end a person's name when they follow it ("Kessler Tooling GmbH").
ORG_AFTER = _words("inc ltd llc llp corp plc gmbh ag kg sa sas sarl sl srl bv nv & co")
