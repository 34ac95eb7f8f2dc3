"""Adversarial variants whose ground truth follows them (see the README, "Adversarial variants").

registry.py holds the interface and the name -> mutation table; each other module is one
mutation (truncate, ocr_noise, render, bilingual, contradict) or a helper (textops,
measure, samples); engine.py makes and writes variants with lineage.
"""
