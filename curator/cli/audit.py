"""curator audit."""

from __future__ import annotations

import click

from curator.cli.common import emit, json_option


@click.command()
@click.option("--ner-model", metavar="NAME", help="An installed spaCy model to find names with (never downloaded).")
@json_option
@click.pass_obj
def audit(env, ner_model: str | None, as_json: bool) -> int:  # noqa: ANN001
    """Scan every fixture and bundle for vault originals and pattern PII; exit 1 on a leak.

    Example: curator audit --json
    """
    from curator.anonymise.audit import audit_store
    from curator.anonymise.detect import detector_for

    detector = detector_for(ner_model)  # a missing model is an error before anything is read
    leaks = audit_store(env.store(), detector)

    def text() -> str:
        lines = [str(leak) for leak in leaks]
        lines.append(f"{len(leaks)} leak(s) found" if leaks else "no leaks found")
        return "\n".join(lines)

    emit(as_json, {"clean": not leaks, "leaks": [leak.as_dict() for leak in leaks]}, text)
    return 1 if leaks else 0
