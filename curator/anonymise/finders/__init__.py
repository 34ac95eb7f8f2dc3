"""What finds personal data in a text, before anything decides about it.

detector.py runs the finders over many texts at once: Presidio's recognizers, configured to
run offline, and curator's own, which are Presidio recognizers too: names.py (with the
words around a name in name_cues.py and the name lists of name_data.py), addresses.py and
numbers.py (cards, IBANs, phone numbers).
"""
