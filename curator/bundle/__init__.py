"""Versioned, verifiable fixture bundles: build, verify, diff, load.

Kept light: importing curator.bundle pulls in no heavy library; `load` is the loader eval
suites and `curator gate` use.
"""

from curator.bundle.load import BundledFixture, load

__all__ = ["BundledFixture", "load"]
