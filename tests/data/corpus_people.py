"""The people named in each file of ../shared/corpus/, read by a person, for issue 12's test:
after `curator import` of a file, none of its people may be found in the store or in a
bundle built from it.

How the lists were made: every page's text was read by hand, from pdfplumber's text layer
where there is one, else from Tesseract 5 (English model) on the page rendered at 300 dpi
(pdfplumber page.to_image, grey scale). The 8400 pt square ocrmypdf-hugemono.pdf page was
rendered at 171 dpi (20,000 px a side) and downscaled to 10,000 px before OCR: Tesseract
refuses images over 32,767 px, and its one line of text reads fine at that size. No
detector (curator's or any other) decided who is a person.

What counts as a person: a natural person named by given name(s) or initials and surname,
or by surname alone where the document uses it alone ("SEN HAWLEY", "à la Waterman"), also
when the name is part of a business name ("Hank Fisher Properties, Inc."). A surname used
only as a brand or company name is not a person named: "Linn" in the LinnSequencer brochure
occurs only as Linn Electronics, Inc., LinnSequencer, LinnDrum, Linn 9000, "your Linn
dealer", the "linn" logo and the telex "LINN UR"; the brochure never names Roger Linn, so
its list is empty. Likewise Kohl's, Macy's, Sears, Roebuck, Parker Hannifin (WARN report),
the Brown Act (Cupertino) and street names (chemin Scott, Meredith in Chelsea).

Names are written as the document shows them (capitals kept). pdfplumber's default text
extraction glues some words together ("BAIN,JMATTHEW", "AIRFAREFORKFORD" in the senate
expenditures; `extract_text(x_tolerance=1)` separates them), so compare with `mentioned`,
which ignores case, spaces and punctuation, but not where the words of the text are.
"""

from __future__ import annotations

import bisect
import itertools
import re

CORPUS_PEOPLE: dict[str, list[str]] = {
    # Basque road map (Baiona, Mugerre, Lehuntze...), "Covfefe is a perfectly cromulent word", a
    # typed Dutch lentil soup recipe "à la Waterman" (a recipe named after its cook: Waterman taken
    # as a surname)
    "ocrmypdf-3small.pdf": ["Waterman"],
    # LinnSequencer brochure by Linn Electronics, Inc. (Tarzana, CA): no person named, see the
    # module docstring
    "ocrmypdf-ccitt.pdf": [],
    # colour test swatches (CMYK names); the text layer is garbled UTF-16
    "ocrmypdf-cmyk.pdf": [],
    # "9000x9000 pixels at 600 DPI, 81 megapixels"
    "ocrmypdf-enormous.pdf": [],
    # scanner output of the Wikipedia article "Optical character recognition", first page (History)
    "ocrmypdf-epson.pdf": ["Emanuel Goldberg", "Edmund Fournier d'Albe"],
    # "This is a very big image with a tiny amount of text."
    "ocrmypdf-hugemono.pdf": [],
    # the LinnSequencer brochure again (JBIG2 scan)
    "ocrmypdf-jbig2.pdf": [],
    # "Kodak Capture Desktop Test" scanner page
    "ocrmypdf-kcs.pdf": [],
    # the LinnSequencer brochure again (poster-size scan)
    "ocrmypdf-poster.pdf": [],
    # Wisconsin DSP 90-day summary of a child death; people referred to by relationship only, never
    # by name
    "pdfplumber-150109DSP-Milw-505-90D.pdf": [],
    # minutes of a Québec municipal demolition committee (French)
    "pdfplumber-2023-06-20-PV.pdf": ["Gaëtan Gagné", "David Huggins-Daines", "Ariane Bélanger"],
    # California WARN layoff report, 2015-16: companies; people only inside business names
    "pdfplumber-WARN-Report-for-7-1-2015-to-03-25-2016.pdf": [
        "Hank Fisher",
        "Balda C. Brewer",
        "M.E. Fox",
        "CR Briggs",
        "Max Azria",
    ],
    # "Dummy PDF file" with annotations (their author is in CORPUS_METADATA_PEOPLE)
    "pdfplumber-annotations.pdf": [],
    # Chelsea (Québec) active transportation master plan, 65 pages (French): groups and streets, no
    # person
    "pdfplumber-chelsea_pdta.pdf": [],
    # Cupertino Union School District special board meeting agenda
    "pdfplumber-cupertino_usd_4-6-16.pdf": ["Josephine Lucey", "Anjali Kausar", "Wendy Gudalewicz"],
    # a retailer's claim table of chocolate bars (LILYS): products only
    "pdfplumber-issue-140-example.pdf": [],
    # Los Angeles County precinct bulletin, 2014 general election: candidates, and judges by initial
    "pdfplumber-la-precinct-bulletin-2014-p1.pdf": [
        "NEEL KASHKARI",
        "EDMUND G BROWN",
        "GAVIN NEWSOM",
        "RON NEHRING",
        "PETE PETERSON",
        "ALEX PADILLA",
        "BETTY T YEE",
        "ASHLEY SWEARENGIN",
        "GREG CONLON",
        "JOHN CHIANG",
        "RONALD GOLD",
        "KAMALA D HARRIS",
        "TED GAINES",
        "DAVE JONES",
        "CHRIS PARKER",
        "GEORGE RUNNER",
        "TONY STRICKLAND",
        "STEVE KNIGHT",
        "STEVE FOX",
        "TOM LACKEY",
        "JACQUELINE H LEWIS",
        "MUKUND SHAH",
        "DAYAN MATHAI",
        "MICHAEL P RIVES",
        "DON V PARAZO",
        "ROE LEER",
        "ANDREW M STEIN",
        "TOM GRIEGO",
        "MARSHALL TUCK",
        "TOM TORLAKSON",
        "JEFFREY PRANG",
        "JOHN MORRIS",
        "JIM MCDONNELL",
        "PAUL TANAKA",
        "G. LIU",
        "L. RUBIN",
        "M. CUELLAR",
        "M. FLIER",
        "WERDERGAR",
        "ROTHSCHILD",
        "J. JOHNSON",
        "B. HOFFSTADT",
        "L. EDMON",
        "A. COLLINS",
        "N. MANELLA",
        "P. TURNER",
        "K. YEGAN",
        "D. PERLUSS",
    ],
    # US Senate office expenditures (staff salaries, travel): staff by surname and initials, the
    # senator by title
    "pdfplumber-senate-expenditures.pdf": [
        "BAIN, J MATTHEW",
        "SMITH, ALVARO R",
        "ARMER, DEREK A",
        "ENGLERT, PAYTON A",
        "CAMPBELL, CLAYTON D",
        "VELEZ-GREEN, ALEXANDER J",
        "BOLLINGER, ERIN S",
        "KISHI, DANIEL M",
        "LAVALLEY, ROBERT CLINTON",
        "GRUENDER, BENJAMIN L",
        "E JOHNSON",
        "S COWING",
        "M BERG",
        "K FORD",
        "HAWLEY",
        "R LEAVITT",
        "D HARTMAN",
        "R BURLESON",
        "J RESES",
        "J MACGREGOR",
        "C NAYLOR",
        "C MESSERVY",
        "A VELEZ-GREEN",
        "C WEIHS",
    ],
    # scan (image file) of the Basque road map of ocrmypdf-3small.pdf's first page
    "ocrmypdf-baiona_color.jpg": [],
    # typewritten Dutch recipe "Linzensoep a la Waterman" (image file), as in ocrmypdf-3small.pdf
    "ocrmypdf-typewriter.png": ["Waterman"],
}

# People named only outside the page text (PDF document information, annotation authors):
# they matter if an importer ever stores metadata or annotations.
CORPUS_METADATA_PEOPLE: dict[str, list[str]] = {
    "pdfplumber-WARN-Report-for-7-1-2015-to-03-25-2016.pdf": ["Cuellar-Lopez, Monica"],  # /Author
    "pdfplumber-annotations.pdf": [
        "Evangelos Vlachogiannis",
        "Jeremy Singer-Vine",
    ],  # /Author, annotation titles
    "pdfplumber-150109DSP-Milw-505-90D.pdf": ["JOHNSCA"],  # /Author, an account name
}


TOKEN = re.compile(r"[^\W_]+")


class Squashed:
    """A text without case, spaces and punctuation, which remembers where its words were."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.offsets = [m.start() for m in TOKEN.finditer(text)]
        words = [w.casefold() for w in TOKEN.findall(text)]
        self.letters = "".join(words)
        self.starts = list(itertools.accumulate((len(w) for w in words[:-1]), initial=0))
        self.start_set = set(self.starts)
        self.end_set = {start + len(w) for start, w in zip(self.starts, words, strict=True)}

    def matches(self, name: str) -> list[int]:
        """Where `name` is written, its words glued or not, as pdfplumber glues them
        ("BAIN,JMATTHEW" for "BAIN, J MATTHEW", "AIRFAREFORKFORD" for "K FORD"), at positions in
        `letters`.

        Not where its letters only run across other words: a word of the text may not split one
        of the name's ("amBER G" is no "M BERG", "pdfplumBER-Glenda" neither), and an initial
        glued to the word before it is glued to the rest of the name too, as pdfplumber glues
        ("AIRFAREFORAVELEZ-GREEN"; but "crai-G LIU" in "Craig Liu" is no "G. LIU")."""
        words = [w.casefold() for w in TOKEN.findall(name)]
        wanted = "".join(words)
        joints = set(itertools.accumulate(len(w) for w in words[:-1]))
        found = []
        at = self.letters.find(wanted)
        while at >= 0:
            end = at + len(wanted)
            inner = [
                k - at
                for k in self.starts[
                    bisect.bisect_right(self.starts, at) : bisect.bisect_left(self.starts, end)
                ]
            ]
            initial_cut_off = len(words) > 1 and (
                at not in self.start_set
                and len(words[0]) == 1
                and at + 1 in self.start_set
                or end not in self.end_set
                and len(words[-1]) == 1
                and end - 1 in self.start_set
            )
            if all(k in joints for k in inner) and not initial_cut_off:
                found.append(at)
            at = self.letters.find(wanted, at + 1)
        return found

    def passage(self, at: int, around: int = 40) -> str:
        """The text around position `at` of `letters`."""
        word = bisect.bisect_right(self.starts, at) - 1
        offset = self.offsets[word] + (at - self.starts[word])
        return self.text[max(0, offset - around) : offset + around]


def mentioned(name: str, text: str | Squashed) -> bool:
    """True when `name` is written in `text` (see `Squashed.matches`)."""
    squashed = text if isinstance(text, Squashed) else Squashed(text)
    return bool(squashed.matches(name))


def where_mentioned(name: str, text: str | Squashed) -> list[str]:
    """The passages of `text` in which `name` is written, for a failure to show."""
    squashed = text if isinstance(text, Squashed) else Squashed(text)
    return [squashed.passage(at) for at in squashed.matches(name)]
