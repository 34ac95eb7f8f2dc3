"""Secrets never reach the terminal: every error line and `--debug` traceback is redacted.

A secret is the value of an option that takes one (`--api-key`) or of an environment
variable whose name says it holds one (…_KEY, …_TOKEN, …_SECRET, …_PASSWORD). Library
messages quote values in many shapes (an HTTP library shows a header as bytes, with a
newline escaped), so each secret is also looked for as Python and JSON escape it, and as
the pieces a newline or space splits it into.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence

SECRET_OPTIONS = ("--api-key",)
SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.IGNORECASE)
# Shorter values (a "1", "true") would redact ordinary words.
MIN_LENGTH = 6
REDACTED = "[redacted]"


def secrets_in(argv: Sequence[str], environ: Mapping[str, str]) -> list[str]:
    """The secret values given on this command line and in the environment."""
    found = [value for name, value in environ.items() if SECRET_NAME.search(name)]
    for n, arg in enumerate(argv):
        for option in SECRET_OPTIONS:
            if arg == option and n + 1 < len(argv):
                found.append(argv[n + 1])
            elif arg.startswith(f"{option}="):
                found.append(arg.split("=", 1)[1])
    return [value for value in found if len(value.strip()) >= MIN_LENGTH]


def redact(text: str, secrets: Iterable[str]) -> str:
    """`text` with every form of every secret replaced; longest first, so a secret that
    contains another is replaced whole."""
    forms = {form for secret in secrets for form in _forms(secret) if len(form) >= MIN_LENGTH}
    for form in sorted(forms, key=len, reverse=True):
        text = text.replace(form, REDACTED)
    return text


def _forms(secret: str) -> set[str]:
    forms = {secret, secret.strip(), repr(secret)[1:-1], json.dumps(secret)[1:-1]}
    forms |= {repr(secret.encode("utf-8", "replace"))[2:-1]}
    forms |= set(secret.split())
    return forms
