"""What finds personal data in a text, before anything decides about it.

detector.py runs every finder over many texts at once, in registry.py's order; each finder
is a spec (spec.py) beside its own patterns: names.py (with the words around a name in
name_cues.py and the name lists of name_data.py), addresses.py, numbers.py (cards, IBANs,
phone numbers) and patterns.py (Presidio's own recognizers: e-mails, URLs, IPs, SSNs,
NINOs). ner.py passes what an installed spaCy model reads through the same filters, and
presidio.py sets Presidio and spaCy up never to touch the network.
"""
