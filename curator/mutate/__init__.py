"""Adversarial variants whose ground truth follows them (see docs/guide/mutate.md).

registry.py holds the interface, the name -> mutation table and the `curator mutate`
options each mutation declares; every other public module is one mutation (truncate,
ocr_noise, render, bilingual, contradict); modules starting with `_` are helpers
(_textops, _measure); engine.py makes and writes variants with lineage.
"""
